#include "server/request_guard.h"

#include <algorithm>
#include <cctype>

namespace ms::server {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.' || c == '_';
}

bool IsIpv6Char(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == ':' || c == '.'; }

// The name always answered: this machine's loopback addresses, and the
// names under localhost (RFC 6761: they resolve to loopback, browsers
// included, so no page elsewhere can be one); an S3 client addresses a
// bucket as BUCKET.localhost (LocalBucketOfHost).
bool IsLoopbackName(const std::string& name) {
  return name == "127.0.0.1" || name == "localhost" || name == "[::1]" || !LocalBucketOfHost(name).empty();
}

bool Allowed(const std::string& name, const GuardPolicy& policy) {
  return IsLoopbackName(name) ||
         std::find(policy.allowed_hosts.begin(), policy.allowed_hosts.end(), name) != policy.allowed_hosts.end();
}

// The host of an Origin value ("https://Example.test:8443" -> "example.test"),
// nullopt for "null" or anything that is not scheme://host[:port].
std::optional<std::string> OriginHost(std::string_view origin) {
  origin = Trim(origin);
  const size_t sep = origin.find("://");
  if (sep == std::string_view::npos) return std::nullopt;
  const std::string scheme = Lower(origin.substr(0, sep));
  if (scheme != "http" && scheme != "https") return std::nullopt;
  return HostName(origin.substr(sep + 3));
}

Refusal Forbidden(const std::string& message) { return Refusal{403, "AccessDenied", message}; }

std::string AllowHint(const std::string& name) {
  return "; to answer it, start moonstack serve with --allow-host " + name;
}

std::optional<Refusal> CheckHostAndOrigin(const RequestHead& head, const GuardPolicy& policy) {
  if (head.host.size() != 1) {
    return Forbidden(head.host.empty() ? "moonstack serve answers only requests with a Host header"
                                       : "moonstack serve answers only requests with one Host header");
  }
  const std::optional<std::string> host = HostName(head.host[0]);
  if (!host) return Forbidden("moonstack serve does not answer requests for host '" + head.host[0] + "'");
  if (!Allowed(*host, policy)) {
    return Forbidden("moonstack serve does not answer requests for host '" + *host + "'" + AllowHint(*host));
  }
  // Browsers send Origin on cross-site requests (and "null" from sandboxed
  // or privacy-restricted pages): a request a web page made is answered only
  // when the page is on an allowed host itself.
  for (const std::string& origin : head.origin) {
    const std::optional<std::string> from = OriginHost(origin);
    if (!from || !Allowed(*from, policy)) {
      return Forbidden("moonstack serve does not answer requests from web pages at '" + origin + "'" +
                       (from ? AllowHint(*from) : ""));
    }
  }
  return std::nullopt;
}

// POST / reads a form body; a PUT (a signal, a custom-resource response)
// its JSON document. Other routes read none.
bool NeedsBody(const RequestHead& head) {
  return (head.method == "POST" && head.path == "/") || head.method == "PUT";
}

// S3's PutObject and UploadPart (and a presigned URL's PUT): every PUT but
// moonstack's own (custom-resource responses).
bool IsObjectPut(const RequestHead& head) {
  return head.method == "PUT" && head.path.rfind("/moonstack/", 0) != 0;
}

std::optional<Refusal> CheckLength(const RequestHead& head, const GuardPolicy& policy) {
  // Chunked bodies have no length to check before reading; no AWS client
  // sends one to CloudFormation or to a presigned S3 URL.
  if (!head.transfer_encoding.empty() || (head.content_length.empty() && NeedsBody(head))) {
    return Refusal{411, "MissingContentLength", "You must provide the Content-Length HTTP header."};
  }
  std::optional<uint64_t> length;
  for (const std::string& value : head.content_length) {
    std::optional<uint64_t> n = ParseContentLength(value);
    if (!n || (length && *length != *n)) {
      return Refusal{400, "InvalidRequest", "The Content-Length header is not a number of bytes: '" + value + "'"};
    }
    length = n;
  }
  if (length && IsObjectPut(head) && *length > policy.max_object_bytes) {
    // S3's answer to an upload over its limit (the PutObject and UploadPart error list).
    return Refusal{400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size"};
  }
  if (length && !IsObjectPut(head) && *length > policy.max_body_bytes) {
    return Refusal{413, "RequestEntityTooLarge",
                   "Request body is larger than " + std::to_string(policy.max_body_bytes) + " bytes"};
  }
  return std::nullopt;
}

// The types a cross-site HTML form or a no-preflight fetch() can send.
bool IsFormSendable(const std::string& media_type) {
  return media_type == "application/x-www-form-urlencoded" || media_type == "multipart/form-data" ||
         media_type == "text/plain";
}

std::optional<Refusal> CheckContentType(const RequestHead& head) {
  if (head.method != "POST") return std::nullopt;  // PUT and GET cannot be sent cross-site without a preflight
  // A function URL takes what its function takes (the Origin check still
  // keeps other sites' pages out).
  if (head.host.size() == 1) {
    const std::optional<std::string> host = HostName(head.host[0]);
    if (host && LocalFunctionUrlOfHost(*host)) return std::nullopt;
  }
  if (head.content_type.size() > 1) {
    return Refusal{415, "UnsupportedMediaType", "The request has more than one Content-Type header"};
  }
  const std::string type = head.content_type.empty() ? "" : MediaType(head.content_type[0]);
  if (head.path == "/") {
    // The query protocols' forms, and the json protocol's documents (SSM,
    // SQS, KMS, ...: aws_api.h), a type no page can send without a preflight.
    if (type == "application/x-www-form-urlencoded" || type == "application/x-amz-json-1.0" ||
        type == "application/x-amz-json-1.1") {
      return std::nullopt;
    }
    return Refusal{415, "UnsupportedMediaType",
                   "The Query API takes application/x-www-form-urlencoded bodies, not '" +
                       (head.content_type.empty() ? std::string("(no Content-Type)") : head.content_type[0]) + "'"};
  }
  const bool own_route = head.path.rfind("/moonstack/", 0) == 0 || head.path.rfind("/moto-api/", 0) == 0;
  if (own_route && IsFormSendable(type)) {
    return Refusal{415, "UnsupportedMediaType",
                   "moonstack's own routes do not take " + type +
                       " bodies (a web form can send those): send no Content-Type, or application/json"};
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> HostName(std::string_view host_header) {
  std::string_view s = Trim(host_header);
  std::string_view name, port;
  if (!s.empty() && s.front() == '[') {
    const size_t close = s.find(']');
    if (close == std::string_view::npos || close == 1) return std::nullopt;
    name = s.substr(0, close + 1);
    if (!std::all_of(name.begin() + 1, name.end() - 1, IsIpv6Char)) return std::nullopt;
    std::string_view rest = s.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = rest.substr(1);
      if (!AllDigits(port)) return std::nullopt;
    }
  } else {
    const size_t colon = s.find(':');
    name = s.substr(0, colon);
    if (colon != std::string_view::npos) {
      port = s.substr(colon + 1);
      if (!AllDigits(port)) return std::nullopt;  // also refuses a second ':' (an unbracketed IPv6)
    }
    if (name.empty() || !std::all_of(name.begin(), name.end(), IsNameChar)) return std::nullopt;
  }
  if (port.size() > 5) return std::nullopt;
  return Lower(name);
}

std::string MediaType(std::string_view content_type) {
  return Lower(Trim(content_type.substr(0, content_type.find(';'))));
}

std::optional<uint64_t> ParseContentLength(std::string_view value) {
  value = Trim(value);
  if (!AllDigits(value)) return std::nullopt;
  uint64_t n = 0;
  for (char c : value) {
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (n > (UINT64_MAX - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  return n;
}

bool AllowHost(std::string_view name, GuardPolicy* policy) {
  name = Trim(name);
  const bool bare_ipv6 = !name.empty() && name.front() != '[' && std::count(name.begin(), name.end(), ':') > 1;
  std::optional<std::string> host = HostName(bare_ipv6 ? "[" + std::string(name) + "]" : std::string(name));
  if (!host) return false;
  policy->allowed_hosts.push_back(*host);
  return true;
}

bool AnswersHost(const std::string& host, const GuardPolicy& policy) { return Allowed(host, policy); }

std::string LocalBucketOfHost(const std::string& host) {
  static const std::string kSuffix = ".localhost";
  if (host.size() <= kSuffix.size() || host.compare(host.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
    return "";
  }
  return host.substr(0, host.size() - kSuffix.size());
}

std::optional<LocalFunctionUrl> LocalFunctionUrlOfHost(const std::string& host) {
  static const std::string kMiddle = ".lambda-url.";
  const std::string bucket = LocalBucketOfHost(host);  // the name before ".localhost"
  const size_t middle = bucket.find(kMiddle);
  if (middle != 32) return std::nullopt;
  LocalFunctionUrl url{bucket.substr(0, 32), bucket.substr(32 + kMiddle.size())};
  const auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  const auto region_char = [&](char c) { return lower_or_digit(c) || c == '-'; };
  if (!std::all_of(url.id.begin(), url.id.end(), lower_or_digit) || url.region.empty() ||
      !std::all_of(url.region.begin(), url.region.end(), region_char)) {
    return std::nullopt;
  }
  return url;
}

std::optional<Refusal> CheckRequest(const RequestHead& head, const GuardPolicy& policy) {
  if (std::optional<Refusal> r = CheckHostAndOrigin(head, policy)) return r;
  if (std::optional<Refusal> r = CheckLength(head, policy)) return r;
  return CheckContentType(head);
}

}  // namespace ms::server
