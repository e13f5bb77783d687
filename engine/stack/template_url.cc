#include "stack/template_url.h"

#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>

namespace ms {
namespace {

constexpr const char* kUnsupported = "TemplateURL must be a supported URL.";
// What AWS appends to an S3 error it passes on.
constexpr const char* kS3ErrorHelp =
    " For more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html";

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "s3", "s3.REGION", "s3-REGION" (also "s3.dualstack.REGION"): the part of an
// S3 endpoint's host name before ".amazonaws.com".
bool IsS3Endpoint(const std::string& host) {
  if (host == "s3") return true;
  if (host.size() < 4 || host.compare(0, 2, "s3") != 0 || (host[2] != '.' && host[2] != '-')) return false;
  for (size_t i = 3; i < host.size(); ++i) {
    const char c = host[i];
    if (!std::islower(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) && c != '-' &&
        c != '.') {
      return false;
    }
  }
  return true;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// An S3 key as the URL writes it: %XX escapes decoded ("+" stays a plus, as
// S3 reads a path).
bool PercentDecode(const std::string& in, std::string* out) {
  out->clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out->push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return false;
    const int hi = HexDigit(in[i + 1]), lo = HexDigit(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

Status ReadFileTemplate(const std::string& url, const std::string& path, std::string* body) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Validation("Template file referenced by " + url + " does not exist.");
  std::ostringstream ss;
  ss << in.rdbuf();
  *body = ss.str();
  return Status::OK();
}

}  // namespace

Status ParseTemplateUrl(const std::string& url, bool allow_file, TemplateLocation* out) {
  *out = TemplateLocation();
  if (StartsWith(url, "file://")) {
    if (!allow_file || url.size() == 7) return Status::Validation(kUnsupported);
    out->file_path = url.substr(7);
    return Status::OK();
  }
  if (StartsWith(url, "s3://")) {  // AWS reads the bucket as a host name it does not serve
    const std::string rest = url.substr(5);
    return Status::Validation("S3 error: Domain name specified in " + rest.substr(0, rest.find('/')) +
                              " is not a valid S3 domain");
  }
  std::string rest;
  if (StartsWith(url, "https://")) {
    rest = url.substr(8);
  } else if (StartsWith(url, "http://")) {
    rest = url.substr(7);
  } else {
    return Status::Validation(kUnsupported);
  }
  const size_t slash = rest.find('/');
  if (slash == std::string::npos) return Status::Validation(kUnsupported);
  std::string host = rest.substr(0, slash);
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string path = rest.substr(slash + 1);
  path = path.substr(0, path.find_first_of("?#"));  // ?versionId=...: the current version is read

  static const std::string kDomain = ".amazonaws.com";
  if (host.size() <= kDomain.size() || host.compare(host.size() - kDomain.size(), kDomain.size(), kDomain) != 0) {
    return Status::Validation(kUnsupported);
  }
  const std::string prefix = host.substr(0, host.size() - kDomain.size());
  std::string raw_key;
  if (IsS3Endpoint(prefix)) {  // path-style: /BUCKET/KEY
    const size_t cut = path.find('/');
    if (cut == std::string::npos) return Status::Validation(kUnsupported);
    out->bucket = path.substr(0, cut);
    raw_key = path.substr(cut + 1);
  } else {  // virtual-hosted: BUCKET.s3[.-REGION]; bucket names may hold dots, the endpoint is the rightmost fit
    for (size_t pos = prefix.rfind(".s3"); pos != std::string::npos && pos > 0; pos = prefix.rfind(".s3", pos - 1)) {
      if (IsS3Endpoint(prefix.substr(pos + 1))) {
        out->bucket = prefix.substr(0, pos);
        break;
      }
    }
    raw_key = path;
  }
  if (out->bucket.empty() || raw_key.empty() || !PercentDecode(raw_key, &out->key)) {
    return Status::Validation(kUnsupported);
  }
  return Status::OK();
}

Status ReadTemplateUrl(const OperationContext& ctx, const std::string& url, std::string* body) {
  TemplateLocation loc;
  MS_RETURN_IF_ERROR(ParseTemplateUrl(url, ctx.allow_file_template_urls, &loc));
  if (!loc.file_path.empty()) {
    MS_RETURN_IF_ERROR(ReadFileTemplate(url, loc.file_path, body));
  } else {
    std::unique_ptr<ProviderSession> session;
    std::string code = "NoSuchBucket", message = "The specified bucket does not exist";
    const bool found = ctx.providers != nullptr && ctx.providers->NewSession(&session).ok() &&
                       session->S3Object(loc.bucket, loc.key, ctx.account_id, body, &code, &message);
    if (!found) return Status::Validation("S3 error: " + message + kS3ErrorHelp);
  }
  if (body->size() > kMaxTemplateUrlBytes) {
    return Status::Validation("Template may not exceed " + std::to_string(kMaxTemplateUrlBytes) + " bytes in size.");
  }
  return Status::OK();
}

}  // namespace ms
