// ResourceSchemas: each type's property schema, embedded as JSON lines and
// found by type without parsing the others.
#include <catch2/catch.hpp>

#include <string>

#include "catalog/resource_catalog.h"
#include "catalog/resource_schemas.h"
#include "template/parse.h"
#include "template/value.h"

using ms::ResourceSchemas;

TEST_CASE("every catalog type has a schema line that parses", "[catalog]") {
  const auto& types = ms::ResourceCatalog::Aws().types();
  CHECK(ResourceSchemas::size() == types.size());
  for (const auto& t : types) {
    std::string_view json = ResourceSchemas::Json(t.type);
    INFO(t.type);
    REQUIRE(!json.empty());
  }
  ms::Value v;
  REQUIRE(ms::ParseJson(ResourceSchemas::Json("AWS::S3::Bucket"), &v).ok());
  CHECK(v.find("type")->str() == "AWS::S3::Bucket");
  CHECK(v.find("nameProperty")->str() == "BucketName");
  CHECK(v.find("taggable")->as_bool());
  const ms::Value* name = v.find("properties")->find("BucketName");
  REQUIRE(name != nullptr);
  CHECK(name->find("maxLength")->as_double().value_or(0) == 63);
  CHECK(name->find("pattern")->str() == "^([a-z0-9][a-z0-9.-]*[a-z0-9])?$");
  CHECK(ResourceSchemas::Json("AWS::Nope::Nothing").empty());
  CHECK(ResourceSchemas::Json("AWS::S3").empty());
}

TEST_CASE("definitions, references and the primary identifier are kept", "[catalog]") {
  ms::Value v;
  REQUIRE(ms::ParseJson(ResourceSchemas::Json("AWS::SQS::Queue"), &v).ok());
  const ms::Value* tag = v.find("definitions")->find("Tag");
  REQUIRE(tag != nullptr);
  CHECK(tag->find("additionalProperties") != nullptr);
  CHECK(v.find("properties")->find("Tags")->find("items")->find("$ref")->str() == "#/definitions/Tag");
  CHECK(v.find("primaryIdentifier")->list().at(0).str() == "/properties/QueueUrl");
}
