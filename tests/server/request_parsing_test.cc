// The server's request reading as pure functions: the guard's parsers and
// verdicts (host/server/request_guard.h) and form decoding
// (host/server/query_request.h). The same paths through a real socket are
// server_guard_test.cc and server_framing_test.cc.
#include <catch2/catch.hpp>

// The server's sources are compiled into the moonstack binary only, not a
// library the tests link: these two files are all the tests need.
#include "server/query_request.cc"  // NOLINT(bugprone-suspicious-include)
#include "server/request_guard.cc"  // NOLINT(bugprone-suspicious-include)
#include "server/served_template_url.cc"  // NOLINT(bugprone-suspicious-include)

using ms::server::CheckRequest;
using ms::server::GuardPolicy;
using ms::server::HostName;
using ms::server::RequestHead;

TEST_CASE("HostName: a host with an optional port, lower case", "[server][guard]") {
  CHECK(HostName("LocalHost:4581") == "localhost");
  CHECK(HostName(" 127.0.0.1 ") == "127.0.0.1");
  CHECK(HostName("[::1]:80") == "[::1]");
  CHECK(HostName("[FD00::1]") == "[fd00::1]");
  CHECK(HostName("host.docker.internal") == "host.docker.internal");
  for (const char* bad : {"", ":80", "::1", "a:b", "a:", "a:123456", "[::1", "[]", "[::1]x", "[::1]:x", "a b",
                          "a/b", "evil.example@127.0.0.1", "[zz]"}) {
    INFO(bad);
    CHECK_FALSE(HostName(bad).has_value());
  }
}

TEST_CASE("MediaType and ParseContentLength read what the guard checks", "[server][guard]") {
  CHECK(ms::server::MediaType("Application/X-WWW-Form-Urlencoded; charset=utf-8") ==
        "application/x-www-form-urlencoded");
  CHECK(ms::server::MediaType(" text/plain ") == "text/plain");
  CHECK(ms::server::MediaType("") == "");
  CHECK(ms::server::ParseContentLength("0") == 0u);
  CHECK(ms::server::ParseContentLength("18446744073709551615") == UINT64_MAX);
  for (const char* bad : {"", "18446744073709551616", "-1", "+1", "1 2", "0x10", "1e3", "abc"}) {
    INFO(bad);
    CHECK_FALSE(ms::server::ParseContentLength(bad).has_value());
  }
}

TEST_CASE("AllowHost takes names and addresses as the Host header gives them", "[server][guard]") {
  GuardPolicy policy;
  CHECK(ms::server::AllowHost("Moon.Test", &policy));
  CHECK(ms::server::AllowHost("fd00::1", &policy));
  CHECK(ms::server::AllowHost("[fd00::2]", &policy));
  CHECK_FALSE(ms::server::AllowHost("not a host", &policy));
  CHECK_FALSE(ms::server::AllowHost("", &policy));
  CHECK(policy.allowed_hosts == std::vector<std::string>{"moon.test", "[fd00::1]", "[fd00::2]"});
}

TEST_CASE("CheckRequest: host, then length, then content type", "[server][guard]") {
  GuardPolicy policy;
  policy.max_body_bytes = 100;
  auto verdict = [&](const RequestHead& head) {
    std::optional<ms::server::Refusal> r = CheckRequest(head, policy);
    return r ? std::to_string(r->http_status) + " " + r->code : std::string("ok");
  };
  const RequestHead query{"POST", "/", {"127.0.0.1:4581"}, {}, {"application/x-www-form-urlencoded"}, {"10"}, {}};
  CHECK(verdict(query) == "ok");

  RequestHead r = query;
  r.host = {"evil.example"};
  r.content_type = {"text/plain"};  // the host is refused first
  CHECK(verdict(r) == "403 AccessDenied");
  r = query;
  r.origin = {"http://127.0.0.1:8080", "https://evil.example"};  // every Origin must be allowed
  CHECK(verdict(r) == "403 AccessDenied");
  r = query;
  r.content_length = {};
  CHECK(verdict(r) == "411 MissingContentLength");
  r.transfer_encoding = {"chunked"};
  r.content_length = {"10"};
  CHECK(verdict(r) == "411 MissingContentLength");
  r = query;
  r.content_length = {"101"};
  CHECK(verdict(r) == "413 RequestEntityTooLarge");
  r.content_length = {"10", "10"};  // repeated, the same: one length
  CHECK(verdict(r) == "ok");
  r.content_length = {"10", "11"};
  CHECK(verdict(r) == "400 InvalidRequest");
  r = query;
  r.content_type = {"application/json"};
  CHECK(verdict(r) == "415 UnsupportedMediaType");
  r.content_type = {"application/x-amz-json-1.1"};  // the json protocol (SSM, KMS, ...)
  CHECK(verdict(r) == "ok");

  // moonstack's own routes: no body needed, no form type taken.
  const RequestHead reset{"POST", "/moonstack/reset", {"localhost"}, {}, {}, {}, {}};
  CHECK(verdict(reset) == "ok");
  r = reset;
  r.content_type = {"multipart/form-data; boundary=x"};
  CHECK(verdict(r) == "415 UnsupportedMediaType");
  r.path = "/moto-api/reset";
  CHECK(verdict(r) == "415 UnsupportedMediaType");
  r.content_type = {"application/json"};
  CHECK(verdict(r) == "ok");
  // A PUT (a signal, a custom-resource response) needs its length, takes any type.
  const RequestHead put{"PUT", "/moonstack/custom-resource-response/1", {"[::1]:4581"}, {}, {""}, {"2"}, {}};
  CHECK(verdict(put) == "ok");
  r = put;
  r.content_length = {};
  CHECK(verdict(r) == "411 MissingContentLength");
}

TEST_CASE("ParseForm decodes a form and refuses a name given twice", "[server]") {
  std::map<std::string, std::string> params;
  std::string duplicate;
  REQUIRE(ms::server::ParseForm("Action=ListStacks&A+B=%41%2b%zz&flag&&=empty", &params, &duplicate));
  CHECK(params == std::map<std::string, std::string>{{"Action", "ListStacks"}, {"A B", "A+%zz"}, {"flag", ""},
                                                     {"", "empty"}});
  CHECK_FALSE(ms::server::ParseForm("Version=1&Action=CreateStack", &params, &duplicate));
  CHECK(duplicate == "Action");  // given in the first text already
  params.clear();
  CHECK_FALSE(ms::server::ParseForm("A=1&%41=2", &params, &duplicate));  // the same name once decoded
  CHECK(duplicate == "A");
}

TEST_CASE("CheckRequest: an S3 object's PUT has S3's limit, not the API body limit", "[server][guard]") {
  GuardPolicy policy;
  policy.max_body_bytes = 100;
  auto verdict = [&](const RequestHead& head) {
    std::optional<ms::server::Refusal> r = CheckRequest(head, policy);
    return r ? std::to_string(r->http_status) + " " + r->code + ": " + r->message : std::string("ok");
  };
  CHECK(policy.max_object_bytes == (uint64_t{5} << 30));  // AWS's 5 GiB single PUT
  // PutObject and UploadPart of 5 GiB: accepted; one byte more is S3's error.
  RequestHead put{"PUT", "/bucket/key", {"127.0.0.1:4581"}, {}, {"application/zip"}, {"5368709120"}, {}};
  CHECK(verdict(put) == "ok");
  put.path = "/bucket/key";  // ?partNumber=1&uploadId=... is the query, not the path
  put.content_length = {"5368709121"};
  CHECK(verdict(put) == "400 EntityTooLarge: Your proposed upload exceeds the maximum allowed size");
  policy.max_object_bytes = 1000;  // serve --max-object-bytes
  put.content_length = {"1001"};
  CHECK(verdict(put) == "400 EntityTooLarge: Your proposed upload exceeds the maximum allowed size");
  // moonstack's own PUTs and every other route keep the API body limit.
  RequestHead own{"PUT", "/moonstack/custom-resource-response/1", {"localhost"}, {}, {}, {"101"}, {}};
  CHECK(verdict(own) == "413 RequestEntityTooLarge: Request body is larger than 100 bytes");
  RequestHead post{"POST", "/bucket?delete", {"localhost"}, {}, {"application/xml"}, {"101"}, {}};
  post.path = "/bucket";
  CHECK(verdict(post) == "413 RequestEntityTooLarge: Request body is larger than 100 bytes");
}

TEST_CASE("ServedTemplateUrl: the CDK's TemplateURL on this server is an S3 URL", "[server][template_url]") {
  using ms::server::ServedTemplateUrl;
  GuardPolicy policy;
  ms::server::AllowHost("moon.test", &policy);
  // aws-cdk's restUrlFromManifest with AWS_ENDPOINT_URL=http://127.0.0.1:4581
  CHECK(ServedTemplateUrl("http://127.0.0.1:4581/cdk-hnb659fds-assets-123456789012-us-east-1/abc.json", policy,
                          4581) == "https://s3.amazonaws.com/cdk-hnb659fds-assets-123456789012-us-east-1/abc.json");
  CHECK(ServedTemplateUrl("http://LocalHost:4581/b/dir/k%20x.json?versionId=1", policy, 4581) ==
        "https://s3.amazonaws.com/b/dir/k%20x.json?versionId=1");
  CHECK(ServedTemplateUrl("http://[::1]:4581/b/k", policy, 4581) == "https://s3.amazonaws.com/b/k");
  CHECK(ServedTemplateUrl("https://moon.test/b/k", policy, 443) == "https://s3.amazonaws.com/b/k");
  CHECK(ServedTemplateUrl("http://moon.test/b/k", policy, 80) == "https://s3.amazonaws.com/b/k");
  // Not this server: unchanged (the engine reads or refuses it).
  for (const char* other : {"http://127.0.0.1:4582/b/k", "http://[::1]/b/k", "http://evil.example:4581/b/k",
                            "https://s3.amazonaws.com/b/k", "https://b.s3.us-east-1.amazonaws.com/k",
                            "http://127.0.0.1:4581/", "http://127.0.0.1:4581", "s3://b/k", "file:///tmp/t.json"}) {
    INFO(other);
    CHECK(ServedTemplateUrl(other, policy, 4581) == other);
  }
}

TEST_CASE("LocalBucketOfHost: a virtual-hosted S3 bucket under localhost is answered", "[server][guard]") {
  CHECK(ms::server::LocalBucketOfHost("assets.localhost") == "assets");
  CHECK(ms::server::LocalBucketOfHost("my.bucket.localhost") == "my.bucket");
  CHECK(ms::server::LocalBucketOfHost("localhost").empty());
  CHECK(ms::server::LocalBucketOfHost(".localhost").empty());
  CHECK(ms::server::LocalBucketOfHost("assets.localhost.evil.example").empty());
  CHECK(ms::server::LocalBucketOfHost("127.0.0.1").empty());
  GuardPolicy policy;
  const RequestHead get{"GET", "/key", {"Assets.LocalHost:4581"}, {}, {}, {}, {}};
  CHECK_FALSE(CheckRequest(get, policy).has_value());
  RequestHead evil = get;
  evil.host = {"assets.localhost.evil.example"};
  CHECK(CheckRequest(evil, policy)->code == "AccessDenied");
}
