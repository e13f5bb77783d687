#include "server/wait_signal.h"

#include "cli/io.h"
#include "server/xml.h"
#include "template/parse.h"

namespace ms::server {
// S3's error document (the signal is a PUT to S3 on AWS).
WaitSignals::Reply WaitSignals::S3Error(int status, const std::string& code, const std::string& message) {
  XmlWriter w;
  w.Open("Error");
  w.Text("Code", code);
  w.Text("Message", message);
  w.Close();
  return Reply{status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + w.str()};
}

bool WaitSignals::IsHandlePath(const std::string& path) {
  return path.rfind("/arn:", 0) == 0 && path.find(":stack/") != std::string::npos;
}

Status WaitSignals::Open(World* world, Clock* clock, const std::vector<std::string>& provider_dirs) {
  return sim_.Open(world, clock, provider_dirs);
}

WaitSignals::Reply WaitSignals::Signal(const std::string& path, const std::string& body) {
  Value params;
  if (!ParseJson(body, &params).ok() || !params.is_map()) {
    // cfn-signal always sends a JSON object; S3 itself would store anything,
    // but the wait condition could not read it (wait_condition.lua).
    return S3Error(400, "MalformedSignal", "The signal must be a JSON object {Status, Reason, UniqueId, Data}");
  }
  params.set("Handle", Value::String(path.substr(1)));
  // The handle ARN names the region its stack lives in.
  const std::string arn = path.substr(1);
  size_t a = arn.find(':', 4), b = a == std::string::npos ? a : arn.find(':', a + 1);
  size_t c = b == std::string::npos ? b : arn.find(':', b + 1);
  const std::string region = c != std::string::npos ? arn.substr(b + 1, c - b - 1) : "";
  SimOutcome r = sim_.Call("cloudformation", "SignalWaitCondition", params, region);
  if (!r.ok) {
    if (r.code == "AccessDenied") return S3Error(403, "AccessDenied", r.message);
    return S3Error(400, r.code.empty() ? "InvalidRequest" : r.code, r.message);
  }
  return Reply{200, ""};
}

Status WaitSignals::Call(const std::string& service, const std::string& action, const Value& params,
                         Value* result) {
  SimOutcome r = sim_.Call(service, action, params, "");
  if (!r.ok) return r.code == "AccessDenied" ? Status::NotFound(r.message) : Status::Validation(r.message);
  *result = r.result;
  return Status::OK();
}

}  // namespace ms::server
