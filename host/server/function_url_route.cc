#include "server/function_url_route.h"

#include <cctype>
#include <optional>

#include "server/request_guard.h"

namespace ms::server {
namespace {

std::optional<LocalFunctionUrl> UrlOf(const httplib::Request& req) {
  const std::optional<std::string> host = HostName(req.get_header_value("Host"));
  return host ? LocalFunctionUrlOfHost(*host) : std::nullopt;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The request's headers by lowercase name, a repeated one's values joined
// with "," (as Lambda's event has them).
Value HeadersOf(const httplib::Request& req) {
  Value headers = Value::MakeMap();
  for (const auto& [name, value] : req.headers) {
    const std::string key = Lower(name);
    if (key == "remote_addr" || key == "remote_port" || key == "local_addr" || key == "local_port") continue;  // cpp-httplib's own
    const Value* seen = headers.find(key);
    headers.set(key, Value::String(seen != nullptr ? seen->str() + "," + value : value));
  }
  return headers;
}

}  // namespace

bool IsFunctionUrlRequest(const httplib::Request& req) { return UrlOf(req).has_value(); }

void AnswerFunctionUrl(SimHost& sim, const httplib::Request& req, std::string body, httplib::Response& res) {
  const std::optional<LocalFunctionUrl> url = UrlOf(req);
  if (!url) return;
  const size_t q = req.target.find('?');
  Value params = Value::MakeMap();
  params.set("UrlId", Value::String(url->id));
  params.set("Region", Value::String(url->region));
  params.set("Method", Value::String(req.method));
  params.set("RawPath", Value::String(req.target.substr(0, q)));
  params.set("RawQueryString", Value::String(q == std::string::npos ? "" : req.target.substr(q + 1)));
  params.set("Headers", HeadersOf(req));
  params.set("Body", Value::String(std::move(body)));
  params.set("SourceIp", Value::String(req.remote_addr));
  SimOutcome out = sim.Call("lambda", "InvokeFunctionUrl", params, url->region);
  if (!out.ok) {  // moonstack's own failure (the sim's answer covers Lambda's): the reason, as JSON
    res.status = 500;
    std::string json = "{\"Message\":";
    AppendJsonQuoted(&json, out.message);
    res.set_content(json + "}", "application/json");
    return;
  }
  const Value* status = out.result.find("StatusCode");
  res.status = status != nullptr && status->as_integer() ? static_cast<int>(*status->as_integer()) : 200;
  std::string content_type = "application/json";
  if (const Value* headers = out.result.find("Headers"); headers != nullptr && headers->is_map()) {
    for (const Member& h : headers->map()) {
      if (h.key == "content-type") {
        content_type = h.value.str();
      } else if (h.key != "content-length" && h.key != "transfer-encoding" && h.key != "connection") {
        res.set_header(h.key, h.value.str());
      }
    }
  }
  if (const Value* cookies = out.result.find("Cookies"); cookies != nullptr && cookies->is_list()) {
    for (const Value& c : cookies->list()) res.set_header("Set-Cookie", c.str());
  }
  const Value* answer = out.result.find("Body");
  res.set_content(answer != nullptr ? answer->str() : std::string(), content_type);
}

}  // namespace ms::server
