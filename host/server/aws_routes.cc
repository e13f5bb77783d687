#include "server/aws_routes.h"

#include <cctype>
#include <cstdlib>

#include "cli/io.h"
#include "server/aws_wire.h"
#include "server/request_guard.h"
#include "template/parse.h"

namespace ms::server {

AwsRequest ToAwsRequest(const httplib::Request& req, std::string body) {
  AwsRequest out;
  out.method = req.method;
  const size_t q = req.target.find('?');
  out.path = req.target.substr(0, q);
  if (q != std::string::npos) {
    const std::string query = req.target.substr(q + 1);
    size_t start = 0;
    while (start < query.size()) {
      size_t amp = query.find('&', start);
      if (amp == std::string::npos) amp = query.size();
      const std::string pair = query.substr(start, amp - start);
      if (!pair.empty()) {
        const size_t eq = pair.find('=');
        out.query.emplace(PercentDecode(pair.substr(0, eq), true),
                          eq == std::string::npos ? "" : PercentDecode(pair.substr(eq + 1), true));
      }
      start = amp + 1;
    }
  }
  for (const auto& [name, value] : req.headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers.emplace(std::move(lower), value);
  }
  // Virtual-hosted S3 (BUCKET.localhost:PORT/KEY) as path-style (/BUCKET/KEY),
  // the one form the S3 routes read.
  const std::optional<std::string> host = HostName(out.Header("host"));
  const std::string bucket = host ? LocalBucketOfHost(*host) : "";
  if (!bucket.empty()) out.path = "/" + bucket + (out.path == "/" ? "" : out.path);
  out.body = std::move(body);
  return out;
}

void Send(httplib::Response& res, const AwsResponse& aws) {
  res.status = aws.status;
  std::string length;  // cpp-httplib writes Content-Length from the body it is given
  for (const auto& [name, value] : aws.headers) {
    if (name == "Content-Length") {
      length = value;
    } else if (name != "Content-Type") {
      res.set_header(name, value);
    }
  }
  std::string body = aws.body;
  // A HEAD answer (HeadObject) declares the length of the body it does not
  // send: cpp-httplib declares the length of the body it is given and sends
  // none for HEAD, so it is given one that long.
  if (body.empty() && !length.empty()) body.assign(static_cast<size_t>(std::strtoull(length.c_str(), nullptr, 10)), ' ');
  res.set_content(std::move(body), aws.content_type.empty() ? "application/octet-stream" : aws.content_type);
}

void AddAwsRoutes(HttpServer& http, AwsApi& api, SimHost& sim, std::string (*new_request_id)()) {
  // `moonstack world call` on a state file this server holds (world_commands.cc).
  http.Post("/moonstack/world/call", [&sim](const httplib::Request& req, httplib::Response& res) {
    Value call;
    const Value* service = nullptr;
    const Value* action = nullptr;
    if (ParseJson(req.body, &call).ok() && call.is_map()) {
      service = call.find("Service");
      action = call.find("Action");
    }
    if (service == nullptr || action == nullptr || !service->is_string() || !action->is_string()) {
      res.status = 400;
      res.set_content(R"({"Code":"ValidationError","Message":"The request must be {Service, Action, Params, Region}"})",
                      "application/json");
      return;
    }
    const Value* params = call.find("Params");
    const Value* region = call.find("Region");
    SimOutcome out = sim.Call(service->str(), action->str(), params != nullptr ? *params : Value::MakeMap(),
                              region != nullptr && region->is_string() ? region->str() : "us-east-1");
    std::string body;
    if (out.ok) {
      body = "{\"Result\":";
      out.result.AppendJsonTo(&body);
      body += "}";
    } else {
      res.status = 400;
      body = "{\"Code\":";
      AppendJsonQuoted(&body, out.code);
      body += ",\"Message\":";
      AppendJsonQuoted(&body, out.message);
      body += "}";
    }
    res.set_content(body, "application/json");
  });
  auto handle = [&api, new_request_id](const httplib::Request& req, httplib::Response& res) {
    Send(res, api.Handle(ToAwsRequest(req, req.body), new_request_id()));
  };
  http.Get(R"(/.*)", handle);  // HEAD too
  http.Delete(R"(/.*)", handle);
  http.Post(R"(/.+)", handle);
}

}  // namespace ms::server
