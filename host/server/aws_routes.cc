#include "server/aws_routes.h"

#include <cctype>
#include <algorithm>
#include <cstdlib>
#include <memory>

#include "cli/io.h"
#include "store/blob_store.h"
#include "store/schema.h"
#include "server/aws_wire.h"
#include "server/function_url_route.h"
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

namespace {

// Streams a body kept as blobs (aws_request.h): cpp-httplib asks for the
// bytes from `offset` (a Range header's slice included: it sets
// Content-Range and the length itself), a chunk per call, read on a
// connection of the response's own.
void SendBlobBody(httplib::Response& res, const BlobBody& blobs, const std::string& content_type) {
  struct Reader {
    BlobBody blobs;
    std::unique_ptr<Database> db;
  };
  auto reader = std::make_shared<Reader>(Reader{blobs, nullptr});
  res.set_content_provider(
      static_cast<size_t>(blobs.size()), content_type,
      [reader](size_t offset, size_t length, httplib::DataSink& sink) {
        if (reader->db == nullptr && !OpenStore(reader->blobs.state_path, &reader->db).ok()) return false;
        // The blob holding `offset`, and where in it.
        uint64_t start = 0;
        size_t i = 0;
        while (i < reader->blobs.sizes.size() && start + reader->blobs.sizes[i] <= offset) start += reader->blobs.sizes[i++];
        if (i == reader->blobs.sizes.size()) return false;
        const uint64_t within = offset - start;
        const uint64_t n = std::min<uint64_t>({length, reader->blobs.sizes[i] - within, kBlobChunkBytes});
        bool written = true;
        Status s = ReadBlob(reader->db.get(), reader->blobs.ids[i], within, n, [&](std::string_view chunk) {
          written = sink.write(chunk.data(), chunk.size());
          return written;
        });
        return s.ok() && written;
      });
}

}  // namespace

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
  const std::string type = aws.content_type.empty() ? "application/octet-stream" : aws.content_type;
  if (aws.blob_body && aws.blob_body->size() > 0) return SendBlobBody(res, *aws.blob_body, type);
  // A HEAD answer (HeadObject) declares the length of the body it does not
  // send: cpp-httplib declares the length a content provider says it has
  // and, for HEAD, never asks it for the bytes.
  const uint64_t declared = std::strtoull(length.c_str(), nullptr, 10);
  if (aws.body.empty() && declared > 0) {
    res.set_content_provider(static_cast<size_t>(declared), type,
                             [](size_t, size_t, httplib::DataSink&) { return false; });
    return;
  }
  res.set_content(aws.body, type);
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
      res.set_content(R"({"Code":"ValidationError","Message":"The request must be {Service, Action, Params, Region, Account}"})",
                      "application/json");
      return;
    }
    const Value* params = call.find("Params");
    const Value* region = call.find("Region");
    const Value* account = call.find("Account");  // absent: the default account
    SimOutcome out = sim.Call(service->str(), action->str(), params != nullptr ? *params : Value::MakeMap(),
                              region != nullptr && region->is_string() ? region->str() : "us-east-1",
                              account != nullptr && account->is_string() ? account->str() : "");
    std::string body;
    if (out.ok) {
      body = "{\"Result\":";
      ShapedSimResult(service->str(), action->str(), out.result).AppendJsonTo(&body);
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
  auto handle = [&api, &sim, new_request_id](const httplib::Request& req, httplib::Response& res) {
    if (IsFunctionUrlRequest(req)) return AnswerFunctionUrl(sim, req, req.body, res);
    AwsResponse aws = api.Handle(ToAwsRequest(req, req.body), new_request_id());
    if (aws.blob_body && aws.status == 200 && req.ranges.size() == 1) {
      // GetObject's Range: S3's 416 past the end, else 206 with the slice
      // cpp-httplib cuts (Content-Range, Content-Length).
      const auto [first, last] = req.ranges[0];
      const int64_t size = static_cast<int64_t>(aws.blob_body->size());
      if (first >= size || (first < 0 && last == 0)) {
        AwsResponse refused;
        refused.status = 416;
        refused.content_type = "application/xml";
        refused.body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>InvalidRange</Code><Message>The "
                       "requested range is not satisfiable</Message></Error>";
        return Send(res, refused);
      }
      aws.status = 206;
    }
    Send(res, aws);
  };
  http.Get(R"(/.*)", handle);  // HEAD too
  http.Delete(R"(/.*)", handle);
  http.Post(R"(/.+)", handle);
  http.Patch(R"(/.*)", handle);    // function URLs only
  http.Options(R"(/.*)", handle);
}

}  // namespace ms::server
