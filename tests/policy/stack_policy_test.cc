// Stack policies (engine/policy/stack_policy.h): parsing and validation, the
// allow/deny matrix of AWS's evaluation (default deny once a policy exists,
// explicit Deny wins, no policy allows all), and the run-time refusals the
// update executor asks for (update_refusal.h).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plan/policy_checks.h"
#include "policy/stack_policy.h"
#include "policy/update_restrictions.h"
#include "template/parse.h"

using ms::PolicyAction;
using ms::StackPolicy;
using ms::Status;

namespace {

const std::vector<PolicyAction> kActions = {PolicyAction::kModify, PolicyAction::kReplace, PolicyAction::kDelete};

StackPolicy Parsed(const std::string& body) {
  StackPolicy p;
  Status s = StackPolicy::Parse(body, &p);
  INFO(body << " -> " << s.message());
  REQUIRE(s.ok());
  return p;
}

std::string Stmt(const std::string& effect, const std::string& action, const std::string& resource_key,
                 const std::string& resource, const std::string& condition = "") {
  std::string s = R"({"Effect": ")" + effect + R"(", "Action": ")" + action + R"(", "Principal": "*", ")" +
                  resource_key + R"(": ")" + resource + "\"";
  if (!condition.empty()) s += R"(, "Condition": )" + condition;
  return s + "}";
}

std::string Policy(const std::vector<std::string>& statements) {
  std::string s = R"({"Statement": [)";
  for (size_t i = 0; i < statements.size(); ++i) s += (i ? ", " : "") + statements[i];
  return s + "]}";
}

const std::string kAllowAll = Stmt("Allow", "Update:*", "Resource", "*");

}  // namespace

TEST_CASE("stack policy: no policy allows everything", "[policy]") {
  for (const std::string& body : {std::string(), std::string("  \n"), std::string("{}")}) {
    StackPolicy p = Parsed(body);
    CHECK_FALSE(p.present());
    for (PolicyAction a : kActions) CHECK(p.Allows(a, "Anything", "AWS::S3::Bucket"));
  }
}

TEST_CASE("stack policy: everything not explicitly allowed is denied", "[policy]") {
  StackPolicy deny_nothing_allow_one = Parsed(Policy({Stmt("Allow", "Update:Modify", "Resource", "LogicalResourceId/A")}));
  CHECK(deny_nothing_allow_one.present());
  CHECK(deny_nothing_allow_one.Allows(PolicyAction::kModify, "A", "T::X"));
  CHECK_FALSE(deny_nothing_allow_one.Allows(PolicyAction::kReplace, "A", "T::X"));
  CHECK_FALSE(deny_nothing_allow_one.Allows(PolicyAction::kDelete, "A", "T::X"));
  CHECK_FALSE(deny_nothing_allow_one.Allows(PolicyAction::kModify, "B", "T::X"));
  // A policy of Deny statements only denies everything.
  StackPolicy only_deny = Parsed(Policy({Stmt("Deny", "Update:Delete", "Resource", "LogicalResourceId/A")}));
  for (PolicyAction a : kActions) CHECK_FALSE(only_deny.Allows(a, "B", "T::X"));
}

TEST_CASE("stack policy: allow matrix per action, Resource and NotResource", "[policy]") {
  for (PolicyAction a : kActions) {
    const std::string name = ms::PolicyActionName(a);
    INFO(name);
    StackPolicy allow = Parsed(Policy({Stmt("Allow", name, "Resource", "LogicalResourceId/A")}));
    StackPolicy allow_not = Parsed(Policy({Stmt("Allow", name, "NotResource", "LogicalResourceId/A")}));
    for (PolicyAction other : kActions) {
      CHECK(allow.Allows(other, "A", "T::X") == (other == a));
      CHECK_FALSE(allow.Allows(other, "B", "T::X"));
      CHECK_FALSE(allow_not.Allows(other, "A", "T::X"));
      CHECK(allow_not.Allows(other, "B", "T::X") == (other == a));
    }
  }
}

TEST_CASE("stack policy: deny matrix per action, Resource and NotResource, explicit Deny wins", "[policy]") {
  for (PolicyAction a : kActions) {
    const std::string name = ms::PolicyActionName(a);
    INFO(name);
    // Deny before and after the Allow: the order of statements does not matter.
    for (bool deny_first : {true, false}) {
      auto both = [&](const std::string& deny) {
        return Parsed(deny_first ? Policy({deny, kAllowAll}) : Policy({kAllowAll, deny}));
      };
      StackPolicy deny = both(Stmt("Deny", name, "Resource", "LogicalResourceId/A"));
      StackPolicy deny_not = both(Stmt("Deny", name, "NotResource", "LogicalResourceId/A"));
      for (PolicyAction other : kActions) {
        CHECK(deny.Allows(other, "A", "T::X") == (other != a));
        CHECK(deny.Allows(other, "B", "T::X"));
        CHECK(deny_not.Allows(other, "A", "T::X"));
        CHECK(deny_not.Allows(other, "B", "T::X") == (other != a));
      }
    }
  }
}

TEST_CASE("stack policy: Update:* and action lists", "[policy]") {
  StackPolicy deny_all = Parsed(Policy({kAllowAll, Stmt("Deny", "Update:*", "Resource", "LogicalResourceId/A")}));
  for (PolicyAction a : kActions) {
    CHECK_FALSE(deny_all.Allows(a, "A", "T::X"));
    CHECK(deny_all.Allows(a, "B", "T::X"));
  }
  StackPolicy list = Parsed(R"({"Statement": [
    {"Effect": "Allow", "Action": ["Update:Modify", "Update:Delete"], "Principal": "*", "Resource": ["LogicalResourceId/A", "LogicalResourceId/C"]}]})");
  CHECK(list.Allows(PolicyAction::kModify, "A", "T::X"));
  CHECK(list.Allows(PolicyAction::kDelete, "C", "T::X"));
  CHECK_FALSE(list.Allows(PolicyAction::kReplace, "A", "T::X"));
  CHECK_FALSE(list.Allows(PolicyAction::kModify, "B", "T::X"));
  // NotAction: every action but the listed ones.
  StackPolicy not_action = Parsed(R"({"Statement": [
    {"Effect": "Allow", "NotAction": "Update:Replace", "Principal": "*", "Resource": "*"}]})");
  CHECK(not_action.Allows(PolicyAction::kModify, "A", "T::X"));
  CHECK(not_action.Allows(PolicyAction::kDelete, "A", "T::X"));
  CHECK_FALSE(not_action.Allows(PolicyAction::kReplace, "A", "T::X"));
  // A single statement object instead of a list (IAM's shorthand).
  CHECK(Parsed(R"({"Statement": )" + kAllowAll + "}").Allows(PolicyAction::kDelete, "Z", "T::X"));
}

TEST_CASE("stack policy: resource wildcards", "[policy]") {
  StackPolicy p = Parsed(Policy({kAllowAll, Stmt("Deny", "Update:*", "Resource", "LogicalResourceId/Prod*"),
                                 Stmt("Deny", "Update:Delete", "Resource", "LogicalResourceId/Db?")}));
  CHECK_FALSE(p.Allows(PolicyAction::kModify, "Prod", "T::X"));
  CHECK_FALSE(p.Allows(PolicyAction::kModify, "ProductionDatabase", "T::X"));
  CHECK(p.Allows(PolicyAction::kModify, "MyProd", "T::X"));  // a prefix, not a substring
  CHECK_FALSE(p.Allows(PolicyAction::kDelete, "Db1", "T::X"));
  CHECK(p.Allows(PolicyAction::kDelete, "Db", "T::X"));     // ? is exactly one character
  CHECK(p.Allows(PolicyAction::kDelete, "Db12", "T::X"));
  CHECK(p.Allows(PolicyAction::kModify, "Db1", "T::X"));
  StackPolicy star = Parsed(Policy({Stmt("Allow", "Update:*", "Resource", "LogicalResourceId/*")}));
  CHECK(star.Allows(PolicyAction::kReplace, "Anything", "T::X"));

  CHECK(ms::PolicyGlobMatch("a*b*c", "aXXbYYc"));
  CHECK_FALSE(ms::PolicyGlobMatch("a*b*c", "aXXbYY"));
  CHECK(ms::PolicyGlobMatch("*", ""));
  CHECK_FALSE(ms::PolicyGlobMatch("?", ""));
}

TEST_CASE("stack policy: Condition on ResourceType", "[policy]") {
  const std::string eq = R"({"StringEquals": {"ResourceType": ["AWS::RDS::DBInstance", "AWS::S3::Bucket"]}})";
  const std::string like = R"({"StringLike": {"ResourceType": "AWS::EC2::*"}})";
  for (PolicyAction a : kActions) {
    const std::string name = ms::PolicyActionName(a);
    INFO(name);
    StackPolicy deny_eq = Parsed(Policy({kAllowAll, Stmt("Deny", name, "Resource", "*", eq)}));
    CHECK_FALSE(deny_eq.Allows(a, "Db", "AWS::RDS::DBInstance"));
    CHECK_FALSE(deny_eq.Allows(a, "B", "AWS::S3::Bucket"));
    CHECK(deny_eq.Allows(a, "Db", "AWS::RDS::DBCluster"));
    CHECK(deny_eq.Allows(a, "Db", "aws::rds::dbinstance"));  // StringEquals is case-sensitive

    StackPolicy deny_like = Parsed(Policy({kAllowAll, Stmt("Deny", name, "Resource", "*", like)}));
    CHECK_FALSE(deny_like.Allows(a, "I", "AWS::EC2::Instance"));
    CHECK(deny_like.Allows(a, "B", "AWS::S3::Bucket"));

    StackPolicy allow_eq = Parsed(Policy({Stmt("Allow", name, "Resource", "*", eq)}));
    CHECK(allow_eq.Allows(a, "Db", "AWS::RDS::DBInstance"));
    CHECK_FALSE(allow_eq.Allows(a, "Db", "AWS::RDS::DBCluster"));

    StackPolicy allow_like_not = Parsed(Policy({Stmt("Allow", name, "NotResource", "LogicalResourceId/Keep", like)}));
    CHECK(allow_like_not.Allows(a, "I", "AWS::EC2::Instance"));
    CHECK_FALSE(allow_like_not.Allows(a, "Keep", "AWS::EC2::Instance"));
    CHECK_FALSE(allow_like_not.Allows(a, "I", "AWS::S3::Bucket"));
  }
  // Both operators: both must hold.
  StackPolicy both = Parsed(Policy({Stmt("Allow", "Update:*", "Resource", "*",
                                         R"({"StringLike": {"ResourceType": "AWS::EC2::*"},
                                             "StringEquals": {"ResourceType": "AWS::EC2::Subnet"}})")}));
  CHECK(both.Allows(PolicyAction::kModify, "S", "AWS::EC2::Subnet"));
  CHECK_FALSE(both.Allows(PolicyAction::kModify, "I", "AWS::EC2::Instance"));
}

TEST_CASE("stack policy: invalid documents", "[policy]") {
  const std::vector<std::string> invalid = {
      "not json",
      "[]",
      R"({"Statement": []})",
      R"({"Statement": "x"})",
      R"({"Statement": [], "Other": 1})",
      R"({"Statement": [{"Effect": "Maybe", "Action": "Update:*", "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Action": "Update:*", "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Delete:*", "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:Create", "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "NotAction": "Update:Modify", "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": [], "Principal": "*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "abc123", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Resource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*", "NotResource": "*"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "arn:aws:s3:::b"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "LogicalResourceId/"}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*", "Condition": {"StringNotEquals": {"ResourceType": "T"}}}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*", "Condition": {"StringEquals": {"Region": "us-east-1"}}}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*", "Condition": {}}]})",
      R"({"Statement": [{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "*", "Extra": 1}]})",
  };
  for (const std::string& body : invalid) {
    INFO(body);
    StackPolicy p;
    Status s = StackPolicy::Parse(body, &p);
    CHECK(s.code() == Status::Code::kValidation);
    CHECK(s.message() == "Error validating stack policy: Invalid stack policy");
    CHECK_FALSE(p.present());
  }
  CHECK(ms::ValidateStackPolicy(invalid[0]).message() == "Error validating stack policy: Invalid stack policy");
  CHECK(ms::ValidateStackPolicy(Policy({kAllowAll})).ok());
  // Sid and Version are accepted.
  CHECK(ms::ValidateStackPolicy(R"({"Version": "2012-10-17", "Statement": [{"Sid": "x", "Effect": "Allow",
    "Action": "Update:*", "Principal": "*", "Resource": "*"}]})").ok());
}

TEST_CASE("stack policy: body and URL arguments", "[policy]") {
  CHECK(ms::CheckStackPolicyInput("", "", "StackPolicy").ok());
  CHECK(ms::CheckStackPolicyInput(Policy({kAllowAll}), "", "StackPolicy").ok());
  CHECK(ms::CheckStackPolicyInput(Policy({kAllowAll}), "https://b.s3.amazonaws.com/p.json", "StackPolicy").message() ==
        "You cannot specify both StackPolicyURL and StackPolicyBody");
  CHECK(ms::CheckStackPolicyInput("", "https://b.s3.amazonaws.com/p.json", "StackPolicy").message() ==
        "moonstack does not fetch StackPolicyURL: pass the policy as StackPolicyBody (the aws CLI: "
        "--stack-policy-body file://PATH)");
  CHECK(ms::CheckStackPolicyInput("", "https://x/p.json", "StackPolicyDuringUpdate").message() ==
        "moonstack does not fetch StackPolicyDuringUpdateURL: pass the policy as StackPolicyDuringUpdateBody (the "
        "aws CLI: --stack-policy-during-update-body file://PATH)");
  CHECK(ms::CheckStackPolicyInput("nope", "", "StackPolicyDuringUpdate").message() ==
        "Error validating stack policy: Invalid stack policy");
}

TEST_CASE("update restrictions: UpdatePolicy Allow", "[policy]") {
  auto parse = [](const std::string& json, ms::UpdateRestrictions* r) {
    ms::Value v;
    REQUIRE(ms::ParseJson(json, &v).ok());
    return ms::ParseUpdateRestrictions("R", v, r);
  };
  ms::UpdateRestrictions r;
  REQUIRE(ms::ParseUpdateRestrictions("R", ms::Value(), &r).ok());
  CHECK((r.allow_update && r.allow_replace));
  REQUIRE(parse(R"({"AutoScalingRollingUpdate": {}})", &r).ok());
  CHECK((r.allow_update && r.allow_replace));
  REQUIRE(parse(R"({"Allow": {"Update": false}})", &r).ok());
  CHECK((!r.allow_update && r.allow_replace));
  REQUIRE(parse(R"({"Allow": {"Replace": "false", "Update": "True"}})", &r).ok());
  CHECK((r.allow_update && !r.allow_replace));
  CHECK(parse(R"({"Allow": {"Replace": "no"}})", &r).message() ==
        "Invalid UpdatePolicy for resource R: Allow.Replace must be a boolean");
  CHECK(parse(R"({"Allow": {"Delete": false}})", &r).message() ==
        "Invalid UpdatePolicy for resource R: Allow has an unknown key Delete (valid: Update, Replace)");
  CHECK(parse(R"({"Allow": true})", &r).message() ==
        "Invalid UpdatePolicy for resource R: Allow must be an object with the keys Update and Replace");
}

TEST_CASE("run-time refusals: UpdateRefusal and DeleteRefusal", "[policy]") {
  using ms::UpdateBehavior;
  ms::ResourcePlan rp;
  rp.action = ms::ChangeAction::kModify;
  rp.replacement = ms::Replacement::kConditional;
  for (UpdateBehavior b : {UpdateBehavior::kNone, UpdateBehavior::kSome, UpdateBehavior::kReplace,
                           UpdateBehavior::kUnsupported}) {
    CHECK(ms::UpdateRefusal(rp, b).empty());
  }
  ms::ResourcePlan no_replace = rp;
  no_replace.allow_replace = false;
  CHECK(ms::UpdateRefusal(no_replace, UpdateBehavior::kReplace) == "replace is restricted for resource.");
  CHECK(ms::UpdateRefusal(no_replace, UpdateBehavior::kSome).empty());
  ms::ResourcePlan no_update = rp;
  no_update.allow_update = false;
  CHECK(ms::UpdateRefusal(no_update, UpdateBehavior::kNone) == "update is restricted for resource.");
  CHECK(ms::UpdateRefusal(no_update, UpdateBehavior::kSome) == "update is restricted for resource.");
  CHECK(ms::UpdateRefusal(no_update, UpdateBehavior::kReplace).empty());  // Heat: Update restricts in place only
  CHECK(ms::UpdateRefusal(no_update, UpdateBehavior::kUnsupported).empty());

  ms::ResourcePlan denied = rp;
  denied.policy_denies_replace = true;
  CHECK(ms::UpdateRefusal(denied, UpdateBehavior::kReplace) == "Action denied by stack policy");
  CHECK(ms::UpdateRefusal(denied, UpdateBehavior::kSome).empty());
  denied.policy_denies_modify = true;
  denied.allow_update = false;
  CHECK(ms::UpdateRefusal(denied, UpdateBehavior::kNone) == "Action denied by stack policy");  // policy first

  ms::ResourcePlan removed;
  removed.action = ms::ChangeAction::kRemove;
  CHECK(ms::DeleteRefusal(removed).empty());
  removed.policy_denies_delete = true;
  CHECK(ms::DeleteRefusal(removed) == "Action denied by stack policy");
  CHECK(ms::DeleteRefusal(denied).empty());  // not a removal
}
