#include "server/wait_signal.h"

#include "cli/io.h"
#include "lua/provider_host.h"
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
  clock_ = clock;
  lua::ProviderPaths paths = lua::DefaultProviderPaths(cli::Home(), provider_dirs);
  lua::RuntimeOptions options;
  options.module_roots.push_back(paths.sdk_dir);
  for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
  Status s;
  rt_ = lua::Runtime::Create(options, &s);
  if (!rt_) return s;
  return lua::WorldBinding::Install(rt_.get(), world, &binding_);
}

WaitSignals::Reply WaitSignals::Signal(const std::string& path, const std::string& body) {
  Value params;
  if (!ParseJson(body, &params).ok() || !params.is_map()) {
    // cfn-signal always sends a JSON object; S3 itself would store anything,
    // but the wait condition could not read it (wait_condition.lua).
    return S3Error(400, "MalformedSignal", "The signal must be a JSON object {Status, Reason, UniqueId, Data}");
  }
  params.set("Handle", Value::String(path.substr(1)));
  std::lock_guard<std::mutex> lock(mu_);
  binding_->set_now_ms(clock_->NowMs());
  lua::CallResult sim = rt_->Require("sim");
  if (!sim.ok()) return S3Error(500, "InternalError", sim.error->message);
  Value opts = Value::MakeMap();
  // The handle ARN names the region its stack lives in.
  const std::string arn = path.substr(1);
  size_t a = arn.find(':', 4), b = a == std::string::npos ? a : arn.find(':', a + 1);
  size_t c = b == std::string::npos ? b : arn.find(':', b + 1);
  if (c != std::string::npos) opts.set("region", Value::String(arn.substr(b + 1, c - b - 1)));
  lua::CallResult r = rt_->CallField(sim.refs[0], "call",
                                     {Value::String("cloudformation"), Value::String("SignalWaitCondition"), params, opts});
  if (!r.ok()) {
    if (r.error->code == "AccessDenied") return S3Error(403, "AccessDenied", r.error->message);
    return S3Error(400, r.error->code.empty() ? "InvalidRequest" : r.error->code, r.error->message);
  }
  return Reply{200, ""};
}

Status WaitSignals::Call(const std::string& service, const std::string& action, const Value& params,
                         Value* result) {
  std::lock_guard<std::mutex> lock(mu_);
  binding_->set_now_ms(clock_->NowMs());
  lua::CallResult sim = rt_->Require("sim");
  if (!sim.ok()) return sim.status();
  lua::CallResult r = rt_->CallField(sim.refs[0], "call", {Value::String(service), Value::String(action), params});
  if (!r.ok()) {
    Status s = Status::Validation(r.error->message);
    return r.error->code == "AccessDenied" ? Status::NotFound(r.error->message) : s;
  }
  *result = r.value();
  return Status::OK();
}

}  // namespace ms::server
