// moonstack provider new TYPE --from-schema FILE and provider describe TYPE
// --format schema|markdown: providers made from CloudFormation registry
// schemas (the real AWS::SQS::Queue one, and a small one with nested
// definitions and a compound identifier) pass the contract kit, validate as
// the registry does inside a stack, and export back to equivalent schemas.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <vector>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_fixture.h"

namespace ms::test {
namespace {

const std::string kSchemas = std::string(MOONSTACK_SOURCE_DIR) + "/tests/providers/fixtures/schemas/";

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string LastLine(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s.substr(s.rfind('\n') + 1);
}

nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// `s` with every "$ref" to "#/definitions/X" replaced by X (a description
// beside the $ref kept), and list-ordering hints (insertionOrder,
// uniqueItems) dropped: what two equivalent schemas agree on.
nlohmann::json Inline(const nlohmann::json& root, const nlohmann::json& s) {
  if (!s.is_object() && !s.is_array()) return s;
  if (s.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& x : s) out.push_back(Inline(root, x));
    return out;
  }
  if (s.contains("$ref")) {
    const std::string name = s["$ref"].get<std::string>().substr(std::string("#/definitions/").size());
    nlohmann::json d = Inline(root, root["definitions"][name]);
    if (s.contains("description")) d["description"] = s["description"];
    return d;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : s.items()) {
    if (k == "insertionOrder" || k == "uniqueItems") continue;
    out[k] = Inline(root, v);
    if (k == "required") std::sort(out[k].begin(), out[k].end());
  }
  return out;
}

nlohmann::json Sorted(nlohmann::json list) {
  if (list.is_null()) return nlohmann::json::array();
  std::sort(list.begin(), list.end());
  return list;
}

// What a round trip must keep: handler permissions, sourceUrl and the
// definitions' layout are the only things allowed to differ.
nlohmann::json Comparable(const nlohmann::json& s) {
  nlohmann::json handlers = nlohmann::json::array();
  for (const auto& [k, v] : s["handlers"].items()) handlers.push_back(k);
  return {{"typeName", s["typeName"]},
          {"description", s["description"]},
          {"additionalProperties", s["additionalProperties"]},
          {"properties", Inline(s, s["properties"])},
          {"required", Sorted(s.value("required", nlohmann::json()))},
          {"createOnlyProperties", Sorted(s.value("createOnlyProperties", nlohmann::json()))},
          {"readOnlyProperties", Sorted(s.value("readOnlyProperties", nlohmann::json()))},
          {"writeOnlyProperties", Sorted(s.value("writeOnlyProperties", nlohmann::json()))},
          {"primaryIdentifier", s["primaryIdentifier"]},
          {"tagging", s["tagging"]},
          {"handlers", Sorted(handlers)}};
}

}  // namespace

TEST_CASE("provider new --from-schema: the AWS::SQS::Queue registry schema makes a provider that passes the kit",
          "[cli][tooling][schema]") {
  CliFixture cli("from_schema", "sqs");
  CommandResult r = cli("provider new AWS::SQS::Queue --from-schema " + kSchemas + "aws-sqs-queue.json --dir " + cli.dir);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("created " + cli.dir + "/aws/sqs/queue.lua\ncreated " + cli.dir + "/aws/sqs/tests/queue.lua\n", 0) == 0);
  CHECK(Has(r.out, "created " + cli.dir + "/.luarc.json\ntest it: moonstack provider test " + cli.dir +
                       "/aws/sqs/queue.lua\n"));  // and the editor's stubs (editor_setup.h)

  r = cli("provider test " + cli.dir + "/aws/sqs/queue.lua");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(Has(r.out, "ok   provider loads (AWS::SQS::Queue)\n"));
  CHECK(Has(r.out, "ok   invalid input 1 fails validation\n"));
  CHECK(Has(r.out, "ok   update 3 (FifoQueue: replace) replaces the resource\n"));
  CHECK(Has(r.out, "ok   an update of the deleted resource fails with NotFound\n"));
  CHECK(LastLine(r.out) == "22 passed, 0 failed, 1 skipped");

  // Every property of the schema but the read-only ones, typed.
  nlohmann::json d = cli.Json("provider describe AWS::SQS::Queue --providers " + cli.dir);
  CHECK(d["Properties"].size() == 16);
  CHECK(d["Attributes"] == nlohmann::json::array({"Arn", "QueueUrl"}));
  CHECK(d["PrimaryIdentifier"] == "QueueUrl");
}

TEST_CASE("provider new --from-schema: nested definitions, constraints, write-only and a compound identifier",
          "[cli][tooling][schema]") {
  CliFixture cli("from_schema", "shelf");
  const std::string schema = kSchemas + "acme-storage-shelf.json";
  REQUIRE(cli("provider new Acme::Storage::Shelf --from-schema " + schema + " --dir " + cli.dir).exit_code == 0);

  CommandResult r = cli("provider test " + cli.dir + "/acme/storage/shelf.lua");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(Has(r.out, "ok   invalid input 11 fails validation\n"));
  CHECK(Has(r.out, "ok   update 1 (Dimensions: none) updates in place\n"));
  CHECK(LastLine(r.out) == "32 passed, 0 failed, 1 skipped");

  nlohmann::json d = cli.Json("provider describe Acme::Storage::Shelf --providers " + cli.dir);
  CHECK(d["PrimaryIdentifier"] == nlohmann::json::array({"RoomName", "ShelfId"}));
  for (const auto& p : d["Properties"]) {
    if (p["Name"] == "AccessCode") CHECK(p["WriteOnly"] == true);
    if (p["Name"] == "RoomName") {
      CHECK(p["Constraints"] == nlohmann::json::parse(R"({"maxLength":32,"minLength":3,"pattern":"^[a-z][a-z0-9-]*$"})"));
      CHECK(p["UpdateRequires"] == "Replacement");
    }
    if (p["Name"] == "Slots") CHECK(p["ItemType"] == "object");
  }

  // Round trip: the exported registry schema is the one it was made from.
  nlohmann::json exported = cli.Json("provider describe Acme::Storage::Shelf --providers " + cli.dir + " --format schema");
  CHECK(Comparable(exported).dump(2) == Comparable(ReadJson(schema)).dump(2));
  CHECK(exported["handlers"]["create"]["permissions"] == nlohmann::json::array());

  r = cli("provider describe Acme::Storage::Shelf --providers " + cli.dir + " --format markdown", false);
  REQUIRE(r.exit_code == 0);
  CHECK(Has(r.out, "### Levels\n\nHow many levels the shelf has.\n\n- Required: No\n- Type: Integer\n- Minimum: 1\n"
                   "- Maximum: 12\n- Update requires: No interruption\n"));
  CHECK(Has(r.out, "### AccessCode\n"));
  CHECK(Has(r.out, "- Write-only: never returned by read, not compared for drift\n"));
}

TEST_CASE("a provider made from a schema validates template properties as the registry does, in a stack",
          "[cli][tooling][schema]") {
  CliFixture cli("from_schema", "stack");
  REQUIRE(cli("provider new Acme::Storage::Shelf --from-schema " + kSchemas + "acme-storage-shelf.json --dir " +
              cli.dir)
              .exit_code == 0);
  const std::string t = cli.Write("t.json", R"({"Resources": {"Shelf": {"Type": "Acme::Storage::Shelf",
    "Properties": {"RoomName": "cellar", "Dimensions": {"Width": 100, "Height": 200},
                   "Slots": [{"Label": "A1"}, {"Label": "b-2", "Size": {"Width": 600, "Height": 10}}]}}}})");
  cli.Json("create-stack --stack-name s --providers " + cli.dir + " --template-body file://" + t);
  CHECK(cli.Status("s") == "ROLLBACK_COMPLETE");
  const std::vector<std::string> events = cli.Events("s", 0);
  CHECK(std::count(events.begin(), events.end(),
                   "Shelf CREATE_FAILED Properties validation failed for resource Shelf with message: "
                   "#/Slots/1/Size/Width: 600 is not less or equal to 500") == 1);

  const std::string ok = cli.Write("ok.json", R"({"Resources": {"Shelf": {"Type": "Acme::Storage::Shelf",
    "Properties": {"RoomName": "cellar", "Dimensions": {"Width": 100, "Height": 200}}}},
    "Outputs": {"Id": {"Value": {"Ref": "Shelf"}}}})");
  cli.Json("create-stack --stack-name good --providers " + cli.dir + " --template-body file://" + ok);
  REQUIRE(cli.Status("good") == "CREATE_COMPLETE");
  const std::string id = cli.Json("describe-stacks --stack-name good")["Stacks"][0]["Outputs"][0]["OutputValue"];
  CHECK(id.rfind("cellar|shelf-", 0) == 0);
}

TEST_CASE("provider new --from-schema refuses what it cannot use, with the reason", "[cli][tooling][schema]") {
  CliFixture cli("from_schema", "errors");
  CommandResult r = cli("provider new Acme::Storage::Shelf --from-schema " + kSchemas + "aws-sqs-queue.json");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "moonstack: " + kSchemas + "aws-sqs-queue.json describes AWS::SQS::Queue, not Acme::Storage::Shelf\n");

  r = cli("provider new Acme::Storage::Shelf --from-schema nope.json");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "moonstack: cannot read registry schema nope.json\n");

  cli.Write("bad.json", "{\"typeName\": ");
  r = cli("provider new Acme::Storage::Shelf --from-schema bad.json");
  CHECK(r.exit_code == 1);
  CHECK(r.out.rfind("moonstack: bad.json: not JSON: ", 0) == 0);

  cli.Write("noid.json", R"({"typeName": "Acme::Storage::Box", "properties": {"Name": {"type": "string"}}})");
  r = cli("provider new Acme::Storage::Box --from-schema noid.json");
  CHECK(r.exit_code == 1);
  CHECK(r.out == "moonstack: noid.json: the schema has no primaryIdentifier\n");
  CHECK_FALSE(std::filesystem::exists(cli.dir + "/acme"));
}

}  // namespace ms::test
