// Stack policies and update restrictions as a user runs them:
// set-stack-policy / get-stack-policy, create-stack and update-stack's
// policy options, and update-stack refused synchronously by a resource's
// UpdatePolicy (seed 003), with the aws CLI's error shape.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

namespace fs = std::filesystem;

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("policy_cli", name) {}
};

std::string Error(const std::string& op, const std::string& message) {
  return "\nAn error occurred (ValidationError) when calling the " + op + " operation: " + message + "\n";
}

// A VPC: CidrBlock is a replacement. `allow`: its UpdatePolicy.Allow.
std::string Vpc(const std::string& allow = "") {
  return R"({"Parameters": {"Cidr": {"Type": "String"}},
    "Resources": {"Vpc": {"Type": "AWS::EC2::VPC", )" +
         (allow.empty() ? std::string() : R"("UpdatePolicy": {"Allow": )" + allow + "}, ") +
         R"("Properties": {"CidrBlock": {"Ref": "Cidr"}}}}})";
}

const char* kDenyAll = R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})";

}  // namespace

TEST_CASE("set-stack-policy and get-stack-policy", "[cli][policy]") {
  Cli cli("roundtrip");
  const std::string t = cli.Write("t.json", Vpc());
  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16");
  // No policy: an empty response, which the aws CLI prints as nothing.
  Run none = cli("get-stack-policy --stack-name app");
  CHECK(none.exit_code == 0);
  CHECK(none.out.empty());

  const std::string p = cli.Write("deny.json", kDenyAll);
  Run set = cli("set-stack-policy --stack-name app --stack-policy-body file://" + p);
  CHECK(set.exit_code == 0);
  CHECK(set.out.empty());
  CHECK(cli.Json("get-stack-policy --stack-name app") == nlohmann::json{{"StackPolicyBody", kDenyAll}});

  Run invalid = cli("set-stack-policy --stack-name app --stack-policy-body '{\"Statement\": \"no\"}'");
  CHECK(invalid.exit_code == 255);
  CHECK(invalid.out == Error("SetStackPolicy", "Error validating stack policy: Invalid stack policy"));
  Run url = cli("set-stack-policy --stack-name app --stack-policy-url https://b.s3.amazonaws.com/p.json");
  CHECK(url.exit_code == 255);
  CHECK(url.out == Error("SetStackPolicy", "moonstack does not fetch StackPolicyURL: pass the policy as "
                                           "StackPolicyBody (the aws CLI: --stack-policy-body file://PATH)"));
  Run missing = cli("get-stack-policy --stack-name nope");
  CHECK(missing.exit_code == 255);
  CHECK(missing.out == Error("GetStackPolicy", "Stack with id nope does not exist"));
  // The refused calls left the policy as it was.
  CHECK(cli.Json("get-stack-policy --stack-name app") == nlohmann::json{{"StackPolicyBody", kDenyAll}});
}

TEST_CASE("create-stack and update-stack policy options", "[cli][policy]") {
  Cli cli("options");
  const std::string t = cli.Write("t.json", Vpc());
  Run url = cli("create-stack --stack-name app --template-body file://" + t +
                " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16 --stack-policy-url https://x/p.json");
  CHECK(url.exit_code == 255);
  CHECK(url.out == Error("CreateStack", "moonstack does not fetch StackPolicyURL: pass the policy as "
                                        "StackPolicyBody (the aws CLI: --stack-policy-body file://PATH)"));
  CHECK(cli("describe-stacks --stack-name app").exit_code == 255);  // nothing was created

  const std::string allow =
      R"({"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})";
  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16 --stack-policy-body '" + allow + "'");
  CHECK(cli.Json("get-stack-policy --stack-name app") == nlohmann::json{{"StackPolicyBody", allow}});

  Run bad_during = cli("update-stack --stack-name app --use-previous-template "
                       "--parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16 "
                       "--stack-policy-during-update-body 'not json'");
  CHECK(bad_during.exit_code == 255);
  CHECK(bad_during.out == Error("UpdateStack", "Error validating stack policy: Invalid stack policy"));
  CHECK(cli.Status("app") == "CREATE_COMPLETE");

  // --stack-policy-body on update-stack replaces the stack policy; the
  // update itself is checked against the policy it replaces.
  const std::string p = cli.Write("deny.json", kDenyAll);
  cli.Json("update-stack --stack-name app --use-previous-template "
           "--parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16 --stack-policy-body file://" + p);
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
  CHECK(cli.Json("get-stack-policy --stack-name app") == nlohmann::json{{"StackPolicyBody", kDenyAll}});
}

TEST_CASE("update-stack refused by an UpdatePolicy restriction (seed 003)", "[cli][policy]") {
  Cli cli("restrict");
  const std::string t = cli.Write("t.json", Vpc());
  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16");
  const size_t events = cli.Json("describe-stack-events --stack-name app")["StackEvents"].size();
  // The restriction is added by the update it applies to.
  const std::string restricted = cli.Write("r.json", Vpc(R"({"Replace": false})"));
  Run refused = cli("update-stack --stack-name app --template-body file://" + restricted +
                    " --parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16");
  CHECK(refused.exit_code == 255);
  CHECK(refused.out ==
        Error("UpdateStack", "Update of resource Vpc is restricted by its UpdatePolicy (Allow.Replace is false)"));
  CHECK(cli.Status("app") == "CREATE_COMPLETE");
  CHECK(cli.Json("describe-stack-events --stack-name app")["StackEvents"].size() == events);
  // Allowing replacement (and restricting only in-place updates) lets it run.
  const std::string update_only = cli.Write("u.json", Vpc(R"({"Update": false, "Replace": true})"));
  cli.Json("update-stack --stack-name app --template-body file://" + update_only +
           " --parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16");
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
}

TEST_CASE("an UpdatePolicy restriction is read after evaluation: Allow.Replace from a parameter", "[cli][policy]") {
  Cli cli("restrict_ref");
  const std::string t = cli.Write("t.json", R"({"Parameters": {"Cidr": {"Type": "String"},
      "CanReplace": {"Type": "String", "AllowedValues": ["true", "false"]}},
    "Resources": {"Vpc": {"Type": "AWS::EC2::VPC", "UpdatePolicy": {"Allow": {"Replace": {"Ref": "CanReplace"}}},
      "Properties": {"CidrBlock": {"Ref": "Cidr"}}}}})");
  cli.Json("create-stack --stack-name app --template-body file://" + t +
           " --parameters ParameterKey=Cidr,ParameterValue=10.0.0.0/16 ParameterKey=CanReplace,ParameterValue=false");
  Run refused = cli("update-stack --stack-name app --use-previous-template "
                    "--parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16 ParameterKey=CanReplace,UsePreviousValue=true");
  CHECK(refused.exit_code == 255);
  CHECK(refused.out ==
        Error("UpdateStack", "Update of resource Vpc is restricted by its UpdatePolicy (Allow.Replace is false)"));
  cli.Json("update-stack --stack-name app --use-previous-template "
           "--parameters ParameterKey=Cidr,ParameterValue=10.1.0.0/16 ParameterKey=CanReplace,ParameterValue=true");
  CHECK(cli.Status("app") == "UPDATE_COMPLETE");
}
