// Resource import through the CLI: `create-change-set --change-set-type
// IMPORT --resources-to-import` of an SQS queue and an SSM parameter made out
// of band with `moonstack world call`, executed (stack and resource statuses
// IMPORT_*), then updated and deleted as the stack's own; AWS's refusals, each
// leaving the stack as it was; an import that fails rolls back and leaves
// the resources in the world.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "cli_fixture.h"

namespace {

using nlohmann::json;
using ms::test::CliFixture;

const char* kUrl = "https://sqs.us-east-1.amazonaws.com/123456789012/adopted";

// The stack before the import: one parameter of its own.
const char* kBase = R"({"Resources": {
  "X": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Name": "/base/x", "Value": "keep"}}
}})";

// kBase plus the resources to import; `extra` more resource members.
std::string ImportTemplate(const std::string& queue_policy = R"("DeletionPolicy": "Retain",)",
                           const std::string& x_value = "keep", const std::string& extra = "") {
  return R"({"Resources": {
  "X": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Name": "/base/x", "Value": ")" +
         x_value + R"("}},
  "Q": {"Type": "AWS::SQS::Queue", )" + queue_policy + R"( "Properties": {"QueueName": "adopted"}},
  "P": {"Type": "AWS::SSM::Parameter", "DeletionPolicy": "Delete",
        "Properties": {"Type": "String", "Name": "/adopted/p", "Value": "v1"}})" + extra + R"(
}})";
}

std::string ToImport(const std::string& queue_key = "QueueUrl", const std::string& queue_value = kUrl) {
  return json::array({{{"ResourceType", "AWS::SQS::Queue"},
                       {"LogicalResourceId", "Q"},
                       {"ResourceIdentifier", {{queue_key, queue_value}}}},
                      {{"ResourceType", "AWS::SSM::Parameter"},
                       {"LogicalResourceId", "P"},
                       {"ResourceIdentifier", {{"Name", "/adopted/p"}}}}})
      .dump();
}

// A state with the stack `base` and, outside any stack, the queue "adopted"
// and the parameter "/adopted/p".
struct ImportCli : CliFixture {
  explicit ImportCli(const std::string& name) : CliFixture("import_cli", name) {
    Json("create-stack --stack-name base --template-body file://" + Write("base.json", kBase));
    REQUIRE(Status("base") == "CREATE_COMPLETE");
    REQUIRE(Json("world call sqs CreateQueue '{\"QueueName\":\"adopted\"}'")["QueueUrl"] == kUrl);
    Json("world call ssm PutParameter '{\"Name\":\"/adopted/p\",\"Type\":\"String\",\"Value\":\"v1\"}'");
  }

  ms::test::CommandResult CreateImport(const std::string& stack, const std::string& tmpl,
                                       const std::string& to_import, const std::string& name = "imp") const {
    return (*this)("create-change-set --stack-name " + stack + " --change-set-name " + name +
                   " --change-set-type IMPORT --template-body file://" + Write("import.json", tmpl) +
                   " --resources-to-import file://" + Write("to_import.json", to_import));
  }

  // The ValidationError CreateChangeSet answers, after checking that
  // nothing changed: no change set, the stack and its resources as before.
  std::string Refusal(const std::string& tmpl, const std::string& to_import) const {
    const json resources = Json("describe-stack-resources --stack-name base")["StackResources"];
    const size_t events = Events("base", 0).size();
    ms::test::CommandResult r = CreateImport("base", tmpl, to_import);
    CHECK(r.exit_code == 255);
    CHECK(Json("list-change-sets --stack-name base")["Summaries"].empty());
    CHECK(Json("describe-stack-resources --stack-name base")["StackResources"] == resources);
    CHECK(Events("base", 0).size() == events);
    CHECK(Status("base") == "CREATE_COMPLETE");
    return r.out;
  }

  std::string Physical(const std::string& stack, const std::string& logical) const {
    const json resources = Json("describe-stack-resources --stack-name " + stack)["StackResources"];
    for (const json& r : resources) {
      if (r["LogicalResourceId"] == logical) return r["PhysicalResourceId"].get<std::string>() + " " +
                                                    r["ResourceStatus"].get<std::string>();
    }
    return "";
  }
};

std::string Error(const std::string& message) {
  return "\nAn error occurred (ValidationError) when calling the CreateChangeSet operation: " + message + "\n";
}

}  // namespace

TEST_CASE("import: a queue and a parameter made out of band join a stack, then update and delete with it",
          "[cli][import]") {
  ImportCli cli("adopt");
  auto created = cli.CreateImport("base", ImportTemplate(), ToImport());
  INFO(created.out);
  REQUIRE(created.exit_code == 0);
  json cs = cli.Json("describe-change-set --stack-name base --change-set-name imp");
  CHECK(cs["Status"] == "CREATE_COMPLETE");
  CHECK(cs["ExecutionStatus"] == "AVAILABLE");
  CHECK(cs["StatusReason"] ==
        "Verify that resources and their properties defined in the template match the intended configuration of the "
        "resource import to avoid unexpected changes.");
  CHECK(cs["Changes"] == json::parse(std::string(R"([
    {"Type": "Resource", "ResourceChange": {"Action": "Import", "LogicalResourceId": "Q",
      "PhysicalResourceId": ")") + kUrl + R"(", "ResourceType": "AWS::SQS::Queue", "Scope": [], "Details": []}},
    {"Type": "Resource", "ResourceChange": {"Action": "Import", "LogicalResourceId": "P",
      "PhysicalResourceId": "/adopted/p", "ResourceType": "AWS::SSM::Parameter", "Scope": [], "Details": []}}])"));

  const size_t before = cli.Events("base", 0).size();
  REQUIRE(cli("execute-change-set --stack-name base --change-set-name imp").exit_code == 0);
  CHECK(cli.Status("base") == "IMPORT_COMPLETE");
  CHECK(cli.Events("base", before) == std::vector<std::string>{
                                          "base IMPORT_IN_PROGRESS User Initiated",
                                          "Q IMPORT_IN_PROGRESS Resource import started.",
                                          "Q IMPORT_COMPLETE Resource import completed.",
                                          "P IMPORT_IN_PROGRESS Resource import started.",
                                          "P IMPORT_COMPLETE Resource import completed.",
                                          "base IMPORT_COMPLETE ",
                                      });
  CHECK(cli.Physical("base", "Q") == std::string(kUrl) + " IMPORT_COMPLETE");
  CHECK(cli.Physical("base", "P") == "/adopted/p IMPORT_COMPLETE");
  CHECK(cli.Json("describe-change-set --stack-name base --change-set-name imp")["ExecutionStatus"] ==
        "EXECUTE_COMPLETE");
  CHECK(cli("wait stack-import-complete --stack-name base").exit_code == 0);

  // The stack owns them: an update changes them in the world.
  std::string updated = ImportTemplate();
  updated.replace(updated.find("\"v1\""), 4, "\"v2\"");
  updated.replace(updated.find("{\"QueueName\": \"adopted\"}"), 24,
                  "{\"QueueName\": \"adopted\", \"VisibilityTimeout\": 45}");
  cli.Json("update-stack --stack-name base --template-body file://" + cli.Write("updated.json", updated));
  CHECK(cli.Status("base") == "UPDATE_COMPLETE");
  CHECK(cli.Physical("base", "P") == "/adopted/p UPDATE_COMPLETE");
  CHECK(cli.Json("world call ssm GetParameter '{\"Name\":\"/adopted/p\"}'")["Parameter"]["Value"] == "v2");
  CHECK(cli.Json(std::string("world call sqs GetQueueAttributes '{\"QueueUrl\":\"") + kUrl +
                 "\",\"AttributeNames\":[\"VisibilityTimeout\"]}'")["Attributes"]["VisibilityTimeout"] == "45");

  // Deleted with the stack as its DeletionPolicy says: the queue kept, the
  // parameter deleted.
  cli("delete-stack --stack-name base");
  CHECK(cli("world call sqs GetQueueUrl '{\"QueueName\":\"adopted\"}'").exit_code == 0);
  CHECK(cli("world call ssm GetParameter '{\"Name\":\"/adopted/p\"}'").exit_code == 255);
  CHECK(cli("world call ssm GetParameter '{\"Name\":\"/base/x\"}'").exit_code == 255);
}

TEST_CASE("import: a new stack is reviewed, then made of the imported resources", "[cli][import]") {
  ImportCli cli("new_stack");
  const std::string tmpl = R"({"Resources": {
    "Q": {"Type": "AWS::SQS::Queue", "DeletionPolicy": "Retain", "Properties": {"QueueName": "adopted"}}}})";
  const std::string to_import = json::array({{{"ResourceType", "AWS::SQS::Queue"},
                                              {"LogicalResourceId", "Q"},
                                              {"ResourceIdentifier", {{"QueueUrl", kUrl}}}}})
                                    .dump();
  REQUIRE(cli.CreateImport("fresh", tmpl, to_import).exit_code == 0);
  CHECK(cli.Status("fresh") == "REVIEW_IN_PROGRESS");
  REQUIRE(cli("execute-change-set --stack-name fresh --change-set-name imp").exit_code == 0);
  CHECK(cli.Events("fresh", 0) == std::vector<std::string>{
                                      "fresh REVIEW_IN_PROGRESS User Initiated",
                                      "fresh IMPORT_IN_PROGRESS User Initiated",
                                      "Q IMPORT_IN_PROGRESS Resource import started.",
                                      "Q IMPORT_COMPLETE Resource import completed.",
                                      "fresh IMPORT_COMPLETE ",
                                  });
  CHECK(cli.Physical("fresh", "Q") == std::string(kUrl) + " IMPORT_COMPLETE");
}

TEST_CASE("import: AWS's refusals leave the stack and the world as they were", "[cli][import]") {
  ImportCli cli("refusals");
  SECTION("a resource to import without a DeletionPolicy") {
    CHECK(cli.Refusal(ImportTemplate(""), ToImport()) ==
          Error("The following resources to import [Q] must have DeletionPolicy attribute specified in the "
                "template."));
  }
  SECTION("an identifier key that is not the type's primary identifier") {
    CHECK(cli.Refusal(ImportTemplate(), ToImport("QueueName", "adopted")) ==
          Error("Invalid resource identifier for resource type AWS::SQS::Queue. Expected [QueueUrl]"));
  }
  SECTION("an import that also modifies a resource of the stack") {
    CHECK(cli.Refusal(ImportTemplate(R"("DeletionPolicy": "Retain",)", "changed"), ToImport()) ==
          Error("You have modified resources [X] in your template that are not being imported. Update, create or "
                "delete operations cannot be executed during import operations."));
  }
  SECTION("an import that also removes a resource of the stack") {
    std::string tmpl = ImportTemplate();
    const size_t x = tmpl.find("\"X\"");
    tmpl.erase(x, tmpl.find("\"Q\"") - x);
    CHECK(cli.Refusal(tmpl, ToImport()) ==
          Error("You have modified resources [X] in your template that are not being imported. Update, create or "
                "delete operations cannot be executed during import operations."));
  }
  SECTION("an import that also adds a resource") {
    const std::string extra = R"(,
  "N": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "n"}})";
    CHECK(cli.Refusal(ImportTemplate(R"("DeletionPolicy": "Retain",)", "keep", extra), ToImport()) ==
          Error("Resources [N] is missing from ResourceToImport list"));
  }
  SECTION("an import that also adds an output") {
    std::string tmpl = ImportTemplate();
    tmpl.replace(tmpl.rfind("}}"), 2, R"(}, "Outputs": {"Url": {"Value": {"Ref": "Q"}}}})");
    CHECK(cli.Refusal(tmpl, ToImport()) == Error("As part of the import operation, you cannot modify or add [Outputs]"));
  }
  CHECK(cli.Json("world call ssm GetParameter '{\"Name\":\"/base/x\"}'")["Parameter"]["Value"] == "keep");
  CHECK(cli.Json("world call sqs GetQueueUrl '{\"QueueName\":\"adopted\"}'")["QueueUrl"] == kUrl);
}

TEST_CASE("import: a resource that is not there, or is another stack's, fails the change set", "[cli][import]") {
  ImportCli cli("lookups");
  std::string reason;
  SECTION("not found") {
    const std::string ghost = std::string(kUrl) + "-ghost";
    REQUIRE(cli.CreateImport("base", ImportTemplate(), ToImport("QueueUrl", ghost)).exit_code == 0);
    reason = "Resource of type 'AWS::SQS::Queue' with identifier '" + ghost + "' was not found.";
  }
  SECTION("another stack's") {
    const std::string owner_tmpl = R"({"Resources": {
      "K": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": "owned"}}}})";
    const std::string owner =
        cli.Json("create-stack --stack-name owner --template-body file://" + cli.Write("owner.json", owner_tmpl))
            ["StackId"];
    const std::string owned = "https://sqs.us-east-1.amazonaws.com/123456789012/owned";
    std::string tmpl = ImportTemplate();
    tmpl.replace(tmpl.find("\"adopted\""), 9, "\"owned\"");
    REQUIRE(cli.CreateImport("base", tmpl, ToImport("QueueUrl", owned)).exit_code == 0);
    reason = owned + " already exists in stack " + owner;
    CHECK(cli.Physical("owner", "K") == owned + " CREATE_COMPLETE");
  }
  json cs = cli.Json("describe-change-set --stack-name base --change-set-name imp");
  CHECK(cs["Status"] == "FAILED");
  CHECK(cs["ExecutionStatus"] == "UNAVAILABLE");
  CHECK(cs["StatusReason"] == reason);
  CHECK(cs["Changes"].empty());
  CHECK(cli("execute-change-set --stack-name base --change-set-name imp").exit_code == 255);
  CHECK(cli.Status("base") == "CREATE_COMPLETE");
  CHECK(cli.Json("describe-stack-resources --stack-name base")["StackResources"].size() == 1);
}

TEST_CASE("import: a resource gone by the execution fails the import, whose rollback keeps the world",
          "[cli][import]") {
  ImportCli cli("rollback");
  REQUIRE(cli.CreateImport("base", ImportTemplate(), ToImport()).exit_code == 0);
  cli.Json("world call ssm DeleteParameter '{\"Name\":\"/adopted/p\"}'");
  const size_t before = cli.Events("base", 0).size();
  cli("execute-change-set --stack-name base --change-set-name imp");
  CHECK(cli.Status("base") == "IMPORT_ROLLBACK_COMPLETE");
  CHECK(cli.Events("base", before) ==
        std::vector<std::string>{
            "base IMPORT_IN_PROGRESS User Initiated",
            "Q IMPORT_IN_PROGRESS Resource import started.",
            "Q IMPORT_COMPLETE Resource import completed.",
            "P IMPORT_IN_PROGRESS Resource import started.",
            "P IMPORT_FAILED Resource of type 'AWS::SSM::Parameter' with identifier '/adopted/p' was not found.",
            "base IMPORT_ROLLBACK_IN_PROGRESS The following resource(s) failed to import: [P]. ",
            "P IMPORT_ROLLBACK_IN_PROGRESS ",
            "P IMPORT_ROLLBACK_COMPLETE ",
            "Q IMPORT_ROLLBACK_IN_PROGRESS ",
            "Q IMPORT_ROLLBACK_COMPLETE ",
            "base IMPORT_ROLLBACK_COMPLETE ",
        });
  // Only the stack's own resource is left, its template is the old one, and
  // the queue is still in the world, importable again.
  json resources = cli.Json("describe-stack-resources --stack-name base")["StackResources"];
  REQUIRE(resources.size() == 1);
  CHECK(resources[0]["LogicalResourceId"] == "X");
  const json body = cli.Json("get-template --stack-name base")["TemplateBody"];
  CHECK((body.is_string() ? json::parse(body.get<std::string>()) : body) == json::parse(kBase));
  CHECK(cli.Json("world call sqs GetQueueUrl '{\"QueueName\":\"adopted\"}'")["QueueUrl"] == kUrl);
  CHECK(cli("wait stack-import-complete --stack-name base").exit_code == 255);

  const std::string only_queue = json::array({{{"ResourceType", "AWS::SQS::Queue"},
                                               {"LogicalResourceId", "Q"},
                                               {"ResourceIdentifier", {{"QueueUrl", kUrl}}}}})
                                     .dump();
  const std::string tmpl = R"({"Resources": {
  "X": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Name": "/base/x", "Value": "keep"}},
  "Q": {"Type": "AWS::SQS::Queue", "DeletionPolicy": "Retain", "Properties": {"QueueName": "adopted"}}}})";
  auto again = cli.CreateImport("base", tmpl, only_queue, "again");
  INFO(again.out << "\n" << tmpl);
  REQUIRE(again.exit_code == 0);
  REQUIRE(cli("execute-change-set --stack-name base --change-set-name again").exit_code == 0);
  CHECK(cli.Status("base") == "IMPORT_COMPLETE");
  CHECK(cli.Physical("base", "Q") == std::string(kUrl) + " IMPORT_COMPLETE");
}

namespace {

// Q and P alone: a new stack made of the imported resources.
std::string OnlyImported() {
  return R"({"Resources": {
  "Q": {"Type": "AWS::SQS::Queue", "DeletionPolicy": "Retain", "Properties": {"QueueName": "adopted"}},
  "P": {"Type": "AWS::SSM::Parameter", "DeletionPolicy": "Delete",
        "Properties": {"Type": "String", "Name": "/adopted/p", "Value": "v1"}}}})";
}

// The events of an import of Q and P into the new stack `fresh` tagged
// Team=core: both imported, then both tagged by their update handler.
const std::vector<std::string> kTaggedImportEvents = {
    "fresh IMPORT_IN_PROGRESS User Initiated",
    "Q IMPORT_IN_PROGRESS Resource import started.",
    "Q IMPORT_COMPLETE Resource import completed.",
    "P IMPORT_IN_PROGRESS Resource import started.",
    "P IMPORT_COMPLETE Resource import completed.",
    "Q UPDATE_IN_PROGRESS Apply stack-level tags to imported resource if applicable.",
    "Q UPDATE_COMPLETE ",
    "P UPDATE_IN_PROGRESS Apply stack-level tags to imported resource if applicable.",
    "P UPDATE_COMPLETE ",
    "fresh IMPORT_COMPLETE ",
};

// The IMPORT change set `imp` of Q and P making the new stack `fresh`, tagged Team=core.
void CreateTaggedImport(const CliFixture& cli) {
  REQUIRE(cli("create-change-set --stack-name fresh --change-set-name imp --change-set-type IMPORT "
              "--tags Key=Team,Value=core --template-body file://" + cli.Write("fresh.json", OnlyImported()) +
              " --resources-to-import file://" + cli.Write("to_import.json", ToImport()))
              .exit_code == 0);
}

// The state after: both resources the stack's, tagged, in the world as before.
void CheckTaggedImport(const CliFixture& cli) {
  CHECK(cli.Status("fresh") == "IMPORT_COMPLETE");
  CHECK(cli.Events("fresh", 1) == kTaggedImportEvents);
  json resources = cli.Json("describe-stack-resources --stack-name fresh")["StackResources"];
  REQUIRE(resources.size() == 2);
  for (const json& r : resources) CHECK(r["ResourceStatus"] == "UPDATE_COMPLETE");
  CHECK(cli.Json(std::string("world call sqs ListQueueTags '{\"QueueUrl\":\"") + kUrl + "\"}'")["Tags"] ==
        json{{"Team", "core"}});
  CHECK(cli.Json("world call ssm ListTagsForResource '{\"ResourceType\":\"Parameter\",\"ResourceId\":\"/adopted/p\"}'")
            ["TagList"] == json::array({{{"Key", "Team"}, {"Value", "core"}}}));
  CHECK(cli.Json("world call ssm GetParameter '{\"Name\":\"/adopted/p\"}'")["Parameter"]["Value"] == "v1");
}

}  // namespace

TEST_CASE("import: the stack's tags reach the imported resources through a follow-up update, as AWS's",
          "[cli][import]") {
  ImportCli cli("stack_tags");
  CreateTaggedImport(cli);
  REQUIRE(cli("execute-change-set --stack-name fresh --change-set-name imp").exit_code == 0);
  CheckTaggedImport(cli);
}

TEST_CASE("import: a type whose provider has no read hook is refused with AWS's message", "[cli][import]") {
  ImportCli cli("no_read");
  std::filesystem::create_directories(cli.dir + "/providers");
  cli.Write("providers/no_read.lua", R"(local P = require("moonstack.provider")
return P.define {
  type = "Test::Import::NoRead",
  primary_identifier = "Name",
  properties = { P.string "Name" { update = "replace" } },
  create = function(ctx, props) return { id = props.Name } end,
  delete = function() end,
})");
  const std::string tmpl = R"({"Resources": {
  "N": {"Type": "Test::Import::NoRead", "DeletionPolicy": "Retain", "Properties": {"Name": "n"}}}})";
  const std::string to_import =
      R"([{"ResourceType": "Test::Import::NoRead", "LogicalResourceId": "N", "ResourceIdentifier": {"Name": "n"}}])";
  ms::test::CommandResult r =
      cli("create-change-set --stack-name fresh --change-set-name imp --change-set-type IMPORT --providers " +
          cli.dir + "/providers --template-body file://" + cli.Write("n.json", tmpl) +
          " --resources-to-import file://" + cli.Write("n_import.json", to_import));
  CHECK(r.exit_code == 255);
  CHECK(r.out == Error("ResourceTypes [Test::Import::NoRead] are not supported for Import"));
  CHECK(cli("describe-stacks --stack-name fresh").exit_code == 255);  // no stack was made in review
}

namespace {

// Executes `setup`'s change set `imp` of the stack `fresh` in a copy of its
// state, killed (SIGKILL) after its 1st, 2nd, ... checkpoint until a run
// ends before its kill point; after each kill `recover` resumes it, and the
// stack's events from its IMPORT_IN_PROGRESS on must be `expected`: each
// step once, none missing. `after_run` checks the state of the run that was
// not killed. Returns how many runs were killed.
int KillAtEveryCheckpoint(const CliFixture& setup, const std::vector<std::string>& expected,
                          const std::function<void(const CliFixture&)>& after_run) {
  int completed_without_crash = 0, crashed = 0;
  for (int point = 1; point <= 20 && completed_without_crash == 0; ++point) {
    CliFixture cli("import_cli", "crash_" + std::to_string(point));
    for (const auto& f : std::filesystem::directory_iterator(setup.dir)) {
      const std::string name = f.path().filename().string();
      if (name.rfind("state.db", 0) == 0 && f.is_regular_file()) {
        std::filesystem::copy_file(f.path(), cli.dir + "/" + name);  // the database, not its locks
      }
    }
    ms::test::CommandResult killed = ms::test::RunCommand(
        "cd " + cli.dir + " && MOONSTACK_CRASH_AFTER_COMMITS=" + std::to_string(point) + " MOONSTACK_STATE=" +
        cli.dir + "/state.db " + MOONSTACK_BINARY + " execute-change-set --stack-name fresh --change-set-name imp 2>&1");
    INFO("kill point " << point << "\n" << killed.out);
    if (killed.exit_code == 0) {
      ++completed_without_crash;  // past the last checkpoint: every point was covered
      CHECK(cli.Events("fresh", 1) == expected);
      after_run(cli);
      continue;
    }
    CHECK(killed.exit_code == 137);  // SIGKILL
    ++crashed;
    cli.Json("recover");
    CHECK(cli.Events("fresh", 1) == expected);
  }
  CHECK(completed_without_crash == 1);
  return crashed;
}

}  // namespace

TEST_CASE("import: killed after any checkpoint, the next command resumes it to the same end, nothing lost",
          "[cli][import][crash]") {
  ImportCli setup("crash_setup");
  CreateTaggedImport(setup);
  // A tag update cut off is called again.
  CHECK(KillAtEveryCheckpoint(setup, kTaggedImportEvents, CheckTaggedImport) >= 9);
}

TEST_CASE("import: a failing import killed after any checkpoint still rolls back to the stack before it",
          "[cli][import][crash]") {
  ImportCli setup("crash_rollback_setup");
  CreateTaggedImport(setup);
  setup.Json("world call ssm DeleteParameter '{\"Name\":\"/adopted/p\"}'");  // P is gone by the execution
  const std::vector<std::string> events = {
      "fresh IMPORT_IN_PROGRESS User Initiated",
      "Q IMPORT_IN_PROGRESS Resource import started.",
      "Q IMPORT_COMPLETE Resource import completed.",
      "P IMPORT_IN_PROGRESS Resource import started.",
      "P IMPORT_FAILED Resource of type 'AWS::SSM::Parameter' with identifier '/adopted/p' was not found.",
      "fresh IMPORT_ROLLBACK_IN_PROGRESS The following resource(s) failed to import: [P]. ",
      "P IMPORT_ROLLBACK_IN_PROGRESS ",
      "P IMPORT_ROLLBACK_COMPLETE ",
      "Q IMPORT_ROLLBACK_IN_PROGRESS ",
      "Q IMPORT_ROLLBACK_COMPLETE ",
      "fresh IMPORT_ROLLBACK_COMPLETE ",
  };
  CHECK(KillAtEveryCheckpoint(setup, events, [](const CliFixture& cli) {
          CHECK(cli.Json("describe-stack-resources --stack-name fresh")["StackResources"].empty());
          CHECK(cli.Json("world call sqs GetQueueUrl '{\"QueueName\":\"adopted\"}'")["QueueUrl"] == kUrl);
        }) >= 9);
}
