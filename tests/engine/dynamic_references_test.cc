// {{resolve:ssm:...}}, {{resolve:ssm-secure:...}} and {{resolve:secretsmanager:...}}
// in resource properties, and where ssm-secure may appear.
#include <catch2/catch.hpp>

#include "stack/dynamic_references.h"
#include "stack/secure_reference_places.h"
#include "template/parse.h"
#include "template/template.h"

using ms::Value;

namespace {

bool Ssm(std::string_view name, std::string* value) {
  if (name == "/app/ami") *value = "ami-0123456789abcdef0";
  else if (name == "/app/port:2") *value = "8080";
  else return false;
  return true;
}

bool SecureSsm(std::string_view name, std::string* value) {
  if (name != "/db/password" && name != "/db/password:3") return false;
  *value = name == "/db/password" ? "latest-pw" : "v3-pw";
  return true;
}

constexpr const char* kArn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbC123";

// "db" (also by ARN): {"username":"admin","password":"pw","port":5432} now, "old" at AWSPREVIOUS, "v1" as version "v-1".
bool Secret(std::string_view id, std::string_view stage, std::string_view version, std::string* value,
            std::string* error) {
  if (id != "db" && id != kArn) {
    *error = "Secrets Manager can't find the specified secret.";
    return false;
  }
  if (version == "v-1") *value = "v1";
  else if (!version.empty()) {
    *error = "Secrets Manager can't find the specified secret value for VersionId: " + std::string(version);
    return false;
  } else if (stage == "AWSPREVIOUS") *value = "old";
  else if (stage.empty() || stage == "AWSCURRENT") *value = R"({"username":"admin","password":"pw","port":5432})";
  else {
    *error = "Secrets Manager can't find the specified secret value for staging label: " + std::string(stage);
    return false;
  }
  return true;
}

ms::DynamicReferenceResolvers All() {
  ms::DynamicReferenceResolvers r;
  r.ssm = Ssm;
  r.ssm_secure = SecureSsm;
  r.secret = Secret;
  return r;
}

std::string Resolve(const std::string& text) {
  Value v = Value::String(text);
  ms::Status s = ms::ResolveDynamicReferences(&v, All());
  return s.ok() ? v.str() : "error: " + s.message();
}

ms::Status Places(const char* json) {
  ms::Template t;
  ms::Status s = ms::LoadTemplate(json, &t);
  REQUIRE(s.ok());
  return ms::CheckSecureReferencePlaces(t);
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

TEST_CASE("a missing SSM parameter fails with AWS's message", "[stack][dynref]") {
  Value v = Value::String("{{resolve:ssm:/nope}}");
  CHECK(ms::ResolveDynamicReferences(&v, Ssm).message() == "Parameters: [ssm:/nope] cannot be found.");
}

TEST_CASE("secretsmanager references: whole secret, JSON key, stage, version, by name or ARN", "[stack][dynref]") {
  CHECK(Resolve("{{resolve:secretsmanager:db}}") == R"({"username":"admin","password":"pw","port":5432})");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretString:password}}") == "pw");
  CHECK(Resolve("u={{resolve:secretsmanager:db:SecretString:username}};p={{resolve:secretsmanager:db:SecretString:port}}") ==
        "u=admin;p=5432");
  CHECK(Resolve(std::string("{{resolve:secretsmanager:") + kArn + ":SecretString:password}}") == "pw");
  CHECK(Resolve(std::string("{{resolve:secretsmanager:") + kArn + "}}") ==
        R"({"username":"admin","password":"pw","port":5432})");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretString::AWSPREVIOUS}}") == "old");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretString:::v-1}}") == "v1");
}

TEST_CASE("secretsmanager references: AWS's errors for a missing secret, key, version or format", "[stack][dynref]") {
  CHECK(Resolve("{{resolve:secretsmanager:nope:SecretString:password}}") ==
        "error: Secrets Manager can't find the specified secret.");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretString:nokey}}") ==
        "error: Could not find a value associated with JSONKey in SecretString");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretString:x::v-9}}") ==
        "error: Secrets Manager can't find the specified secret value for VersionId: v-9");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretString:x:AWSPENDING}}") ==
        "error: Secrets Manager can't find the specified secret value for staging label: AWSPENDING");
  CHECK(Resolve("{{resolve:secretsmanager:db:SecretBinary}}") ==
        "error: Incorrect format is used in the following Secrets Manager reference: "
        "[{{resolve:secretsmanager:db:SecretBinary}}]");
  Value v = Value::String("{{resolve:secretsmanager:db}}");
  CHECK(ms::ResolveDynamicReferences(&v, Ssm).message() == "Secrets Manager can't find the specified secret.");
}

TEST_CASE("ssm-secure references: SecureString values, versions, AWS's errors", "[stack][dynref]") {
  CHECK(Resolve("{{resolve:ssm-secure:/db/password}}") == "latest-pw");
  CHECK(Resolve("{{resolve:ssm-secure:/db/password:3}}") == "v3-pw");
  CHECK(Resolve("{{resolve:ssm-secure:/nope}}") == "error: Parameters: [ssm-secure:/nope] cannot be found.");
  CHECK(Resolve("{{resolve:ssm-secure:/db/password:}}") ==
        "error: Incorrect format is used in the following SSM reference: [{{resolve:ssm-secure:/db/password:}}]");
}

TEST_CASE("secure references are recognised, plain ssm ones are not", "[stack][dynref]") {
  Value v;
  REQUIRE(ms::ParseJson(R"({"A":["x",{"B":"{{resolve:secretsmanager:db}}"}]})", &v).ok());
  CHECK(ms::HasSecureReference(v));
  CHECK(ms::HasSecureReference(Value::String("p={{resolve:ssm-secure:/db/password}}")));
  CHECK_FALSE(ms::HasSecureReference(Value::String("{{resolve:ssm:/app/ami}}")));
}

TEST_CASE("ssm-secure only in the properties AWS lists: every other place refused in one error", "[stack][dynref]") {
  CHECK(Places(R"({"Resources":{
    "U":{"Type":"AWS::IAM::User","Properties":{"LoginProfile":{"Password":"{{resolve:ssm-secure:/db/password:1}}"}}},
    "D":{"Type":"AWS::RDS::DBInstance","Properties":{"MasterUserPassword":{"Fn::Join":["",["{{resolve:ssm-secure:/p}}"]]}}},
    "S":{"Type":"AWS::OpsWorks::Stack","Properties":{"RdsDbInstances":[{"DbPassword":"{{resolve:ssm-secure:/p}}"}]}}}})")
            .ok());
  ms::Status s = Places(R"({"Resources":{
    "F":{"Type":"AWS::Lambda::Function","Properties":{"Environment":{"Variables":{"API_KEY":"{{resolve:ssm-secure:/k:1}}"}}}},
    "C":{"Type":"Custom::Thing","Properties":{"ServiceToken":"arn","Secret":"{{resolve:ssm-secure:/k}}"}},
    "Ok":{"Type":"AWS::Lambda::Function","Properties":{"Environment":{"Variables":{"B":"{{resolve:secretsmanager:db}}"}}}}}})");
  CHECK(s.code() == ms::Status::Code::kValidation);
  CHECK(s.message() ==
        "SSM Secure reference is not supported in: [AWS::Lambda::Function/Properties/Environment/Variables/API_KEY,"
        "Custom::Thing/Properties/Secret]");
}
