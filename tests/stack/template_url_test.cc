// TemplateURL parsing (stack/template_url.h): every S3 URL form AWS accepts
// names the right bucket and key; anything else gets AWS's message.
#include <catch2/catch.hpp>

#include "stack/template_url.h"

namespace {

ms::TemplateLocation Parse(const std::string& url, bool allow_file = false) {
  ms::TemplateLocation loc;
  ms::Status s = ms::ParseTemplateUrl(url, allow_file, &loc);
  INFO(url << ": " << s.message());
  REQUIRE(s.ok());
  return loc;
}

std::string Error(const std::string& url, bool allow_file = false) {
  ms::TemplateLocation loc;
  ms::Status s = ms::ParseTemplateUrl(url, allow_file, &loc);
  REQUIRE_FALSE(s.ok());
  return s.message();
}

}  // namespace

TEST_CASE("template url: the S3 forms AWS accepts", "[stack][template_url]") {
  const char* urls[] = {
      "https://my.bucket.s3.amazonaws.com/dir/t.yaml",
      "https://my.bucket.s3.eu-west-1.amazonaws.com/dir/t.yaml",
      "https://my.bucket.s3-eu-west-1.amazonaws.com/dir/t.yaml",
      "https://s3.amazonaws.com/my.bucket/dir/t.yaml",
      "https://s3.eu-west-1.amazonaws.com/my.bucket/dir/t.yaml",
      "https://s3-eu-west-1.amazonaws.com/my.bucket/dir/t.yaml",
      "http://S3.AMAZONAWS.COM/my.bucket/dir/t.yaml?versionId=3",
  };
  for (const char* url : urls) {
    ms::TemplateLocation loc = Parse(url);
    CHECK(loc.bucket == "my.bucket");
    CHECK(loc.key == "dir/t.yaml");
    CHECK(loc.file_path.empty());
  }
  CHECK(Parse("https://b1.s3.amazonaws.com/a%20b%2Bc.json").key == "a b+c.json");
  CHECK(Parse("file:///tmp/t.yaml", /*allow_file=*/true).file_path == "/tmp/t.yaml");
}

TEST_CASE("template url: AWS's messages for what is not an S3 object", "[stack][template_url]") {
  const std::string unsupported = "TemplateURL must be a supported URL.";
  CHECK(Error("https://example.com/t.json") == unsupported);
  CHECK(Error("ftp://s3.amazonaws.com/b/t.json") == unsupported);
  CHECK(Error("https://s3.amazonaws.com/bucket-only") == unsupported);
  CHECK(Error("https://b1.s3.amazonaws.com/") == unsupported);
  CHECK(Error("https://b1.s3.amazonaws.com/bad%zz") == unsupported);
  CHECK(Error("file:///tmp/t.yaml") == unsupported);  // a server never reads files
  CHECK(Error("s3://my-bucket/t.yaml") == "S3 error: Domain name specified in my-bucket is not a valid S3 domain");
}
