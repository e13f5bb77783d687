// {{resolve:ssm:...}} in resource properties.
#include <catch2/catch.hpp>

#include "stack/dynamic_references.h"
#include "template/parse.h"

using ms::Value;

namespace {

bool Ssm(std::string_view name, std::string* value) {
  if (name == "/app/ami") *value = "ami-0123456789abcdef0";
  else if (name == "/app/port:2") *value = "8080";
  else return false;
  return true;
}

}  // namespace

TEST_CASE("dynamic references resolve inside strings, lists and maps", "[stack][dynref]") {
  Value v;
  REQUIRE(ms::ParseJson(R"({"ImageId":"{{resolve:ssm:/app/ami}}",
    "Args":["--port={{resolve:ssm:/app/port:2}}", "plain"], "Other":"{{resolve:s3:x}}"})", &v).ok());
  REQUIRE(ms::ResolveDynamicReferences(&v, Ssm).ok());
  CHECK(v.ToJson() ==
        R"({"ImageId":"ami-0123456789abcdef0","Args":["--port=8080","plain"],"Other":"{{resolve:s3:x}}"})");
}

TEST_CASE("a missing SSM parameter fails with AWS's message, secrets are refused", "[stack][dynref]") {
  Value v = Value::String("{{resolve:ssm:/nope}}");
  CHECK(ms::ResolveDynamicReferences(&v, Ssm).message() == "Parameters: [ssm:/nope] cannot be found.");
  Value s = Value::String("{{resolve:secretsmanager:db:SecretString:password}}");
  CHECK(ms::ResolveDynamicReferences(&s, Ssm).message() ==
        "Dynamic reference {{resolve:secretsmanager:...}} is not supported: the simulated cloud has no secrets");
}
