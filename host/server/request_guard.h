// RequestGuard: what `moonstack serve` refuses before it reads a request's
// body, so that no web page can drive the server and no client can make it
// wait for a body that will never come.
//
//   Host      must name this server: 127.0.0.1, localhost or [::1] (any
//             port), the address it listens on, or a name given with
//             --allow-host. A page on evil.example whose name resolves to
//             127.0.0.1 (DNS rebinding) sends Host: evil.example.
//   Origin    when present (browsers send it on cross-site requests), the
//             same: a page elsewhere is refused even if it POSTs blindly.
//   Content-Type
//             POST / takes application/x-www-form-urlencoded (the Query API)
//             and application/x-amz-json-1.0/1.1 (the json protocol) only; POSTs to /moonstack/* and /moto-api/* take none of the
//             types an HTML form or a no-preflight fetch can send
//             (x-www-form-urlencoded, multipart/form-data, text/plain).
//   Content-Length
//             a request with a body says how long it is: missing where a
//             body is needed (POST /, PUT) or chunked is 411, malformed is
//             400, over the limit is 413, all at once. An S3 object's PUT
//             has its own, larger limit (S3's 400 EntityTooLarge over it).
//
// Pure functions of the request's head (no HTTP library): tested and fuzzed
// directly (fuzz/fuzz_query.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ms::server {

// A request's method, path and the headers the guard reads. A header the
// request has more than once is given as all its values.
struct RequestHead {
  std::string method;  // "POST"
  std::string path;    // URL-decoded, without the query
  std::vector<std::string> host, origin, content_type, content_length, transfer_encoding;
};

// AWS's largest single PUT of an S3 object, and of one multipart part: 5 GiB.
inline constexpr uint64_t kMaxS3ObjectBytes = uint64_t{5} << 30;

struct GuardPolicy {
  // Host names besides the loopback ones (lower case; an IPv6 address in brackets).
  std::vector<std::string> allowed_hosts;
  uint64_t max_body_bytes = 1 << 20;
  // A PUT outside /moonstack/ (S3's PutObject and UploadPart) is limited by
  // this instead: an object's bytes, not an API call's parameters.
  uint64_t max_object_bytes = kMaxS3ObjectBytes;
};

// Why a request is refused: the HTTP status, AWS's error code and a message
// (cfn_server.cc shapes it as the route's clients read errors).
struct Refusal {
  int http_status = 400;
  std::string code;
  std::string message;
};

std::optional<Refusal> CheckRequest(const RequestHead& head, const GuardPolicy& policy);

// Whether `host` (as HostName gives it) is a name this server answers: a
// loopback name or one of policy.allowed_hosts.
bool AnswersHost(const std::string& host, const GuardPolicy& policy);

// The bucket a virtual-hosted S3 address on this machine names:
// "assets.localhost" -> "assets" (what an SDK sends for bucket "assets"
// with AWS_ENDPOINT_URL=http://localhost:PORT); "" for any other host.
std::string LocalBucketOfHost(const std::string& host);

// The Lambda function URL a host on this machine names: Lambda's URL host
// (<url id>.lambda-url.<region>.on.aws) under localhost,
// "<32 lowercase letters and digits>.lambda-url.<region>.localhost" -> its
// id and region; nullopt for any other host (server/function_url_route.h).
struct LocalFunctionUrl {
  std::string id, region;
};
std::optional<LocalFunctionUrl> LocalFunctionUrlOfHost(const std::string& host);

// Adds a host name or address ("Example.test", "10.0.0.5", "::1",
// "[fd00::1]") to policy->allowed_hosts, as the Host header names it; false
// when it is neither.
bool AllowHost(std::string_view name, GuardPolicy* policy);

// The host name of a Host header value ("LocalHost:4581" -> "localhost",
// "[::1]:80" -> "[::1]"); nullopt when it is not a host with an optional
// port.
std::optional<std::string> HostName(std::string_view host_header);
// The media type of a Content-Type value, lower case, without its
// parameters ("Application/X-WWW-Form-Urlencoded; charset=utf-8" ->
// "application/x-www-form-urlencoded").
std::string MediaType(std::string_view content_type);
// A Content-Length value: decimal digits only (RFC 9110), nullopt otherwise
// (empty, signed, spaces inside, or too large).
std::optional<uint64_t> ParseContentLength(std::string_view value);

}  // namespace ms::server
