// The update planner against seed 000's update-stack runs (tests 1, 4-30):
// what counts as a change, replacement and its cascade, and the causes a
// change set shows. The deployed stack is built directly as ResourceRecords
// (evaluated as a create would, physical IDs "<Logical>-1"), then planned
// against a new template / parameters with the fakes of fake_providers.h.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/evaluator.h"
#include "fake_providers.h"
#include "graph/graph.h"
#include "plan/planner.h"
#include "eval/validate.h"
#include "template/template_cache.h"
#include "plan/property_diff.h"
#include "stack/stack_environment.h"
#include "template/template.h"
#include "test_util.h"

using ms::ChangeAction;
using ms::Plan;
using ms::ResourcePlan;
using ms::Status;
using ms::UpdateBehavior;
using ms::Value;

namespace {

struct Deployed {
  ms::StackRecord stack;
  std::vector<ms::ResourceRecord> resources;
};

struct Harness {
  ms::plantest::PlanFakeProviders providers;
  std::unique_ptr<ms::ProviderSession> session;
  ms::PseudoParameters pseudo;

  Harness() {
    REQUIRE(providers.NewSession(&session).ok());
    pseudo.stack_name = "s";
    pseudo.stack_id = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1";
  }

  // The stack as create-stack would leave it.
  Deployed Deploy(const std::string& body, const std::map<std::string, std::string>& params = {}) {
    Deployed d;
    d.stack.id = pseudo.stack_id;
    d.stack.name = pseudo.stack_name;
    d.stack.status = ms::StackStatus::kCreateComplete;
    d.stack.template_body = body;
    ms::Template t;
    Status s = ms::LoadTemplate(body, &t);
    INFO(s.message());
    REQUIRE(s.ok());
    std::vector<ms::ParameterInput> given;
    for (const auto& [k, v] : params) given.push_back({k, v, false});
    ms::ParameterValues values;
    s = ms::ResolveParameters(t, given, {}, &values);
    INFO(s.message());
    REQUIRE(s.ok());
    for (const ms::ResolvedParameter& p : values.list) d.stack.parameters.push_back({p.name, p.text, p.no_echo, ""});
    ms::StackEnvironment env(nullptr, nullptr, nullptr);
    ms::Evaluator ev(t, values, pseudo, env);
    REQUIRE(ev.EvaluateConditions().ok());
    ms::DependencyGraph::Inclusion included = [&](const ms::ResourceDecl& r) { return ev.Included(r.condition); };
    ms::ConditionOracle oracle = [&](std::string_view c) -> std::optional<bool> { return ev.ConditionValue(c); };
    ms::DependencyGraph g;
    REQUIRE(ms::DependencyGraph::Build(t, &included, &oracle, &g).ok());
    d.resources.reserve(g.size());  // env keeps pointers to the records
    for (int node : g.order()) {
      const ms::ResourceDecl& decl = g.resource(node);
      Value props = Value::MakeMap();
      if (!decl.properties.is_null()) REQUIRE(ev.Evaluate(decl.properties, ms::Section::kResourceProperties, &props).ok());
      ms::ResourceRecord r;
      r.stack_id = d.stack.id;
      r.logical_id = decl.logical_id;
      r.type = decl.type;
      r.status = ms::ResourceStatus::kCreateComplete;
      r.physical_id = decl.logical_id + "-1";
      s = session->Validate(decl.type, ms::HookContext{}, props, &r.properties);
      INFO(s.message());
      REQUIRE(s.ok());
      r.attributes = Value::MakeMap();
      for (const std::string& a : providers.Schema(decl.type)->attributes) {
        r.attributes.set(a, Value::String(a + ":" + r.physical_id));
      }
      d.resources.push_back(std::move(r));
      env.SetResource(&d.resources.back());
    }
    validate_before = providers.validate_calls;
    return d;
  }

  Plan MakePlan(const Deployed& d, const std::string& body, std::vector<ms::ParameterInput> params = {},
                bool with_session = true) {
    ms::PlanInput in;
    in.stack = &d.stack;
    in.resources = &d.resources;
    in.template_body = body;
    in.parameters = std::move(params);
    in.pseudo = pseudo;
    in.runtime = &providers;
    in.session = with_session ? session.get() : nullptr;
    in.ssm = ssm;
    in.exports = [](const std::string& name, std::string* value) {
      if (name != "shared-vpc") return false;
      *value = "vpc-shared";
      return true;
    };
    Plan p;
    Status s = ms::MakePlan(in, &p);
    INFO(s.message());
    REQUIRE(s.ok());
    return p;
  }

  // Every parameter of `d` again, unchanged (UsePreviousValue), with
  // `changes` given values.
  static std::vector<ms::ParameterInput> Params(const Deployed& d, const std::map<std::string, std::string>& changes) {
    std::vector<ms::ParameterInput> out;
    for (const ms::StackParameterValue& p : d.stack.parameters) {
      auto it = changes.find(p.key);
      if (it == changes.end()) {
        out.push_back({p.key, std::nullopt, true});
      } else {
        out.push_back({p.key, it->second, false});
      }
    }
    return out;
  }

  int validate_before = 0;
  std::function<bool(std::string_view, std::string*)> ssm;  // parameter store, for MakePlan
};

// "Logical Action[ Replacement]" of every resource, in plan order.
std::vector<std::string> Actions(const Plan& p) {
  std::vector<std::string> out;
  for (const ResourcePlan& r : p.resources) {
    std::string a = r.action == ChangeAction::kNone ? "None" : ms::ChangeActionName(r.action);
    if (r.action == ChangeAction::kModify) a += std::string(" ") + ms::ReplacementName(r.replacement);
    out.push_back(r.logical_id + " " + a);
  }
  return out;
}

// "Attribute[.Name] RequiresRecreation Evaluation ChangeSource[ CausingEntity]".
std::vector<std::string> Details(const Plan& p, const std::string& id) {
  const ResourcePlan* r = p.Find(id);
  REQUIRE(r != nullptr);
  std::vector<std::string> out;
  for (const ms::ChangeDetail& d : r->details) {
    std::string s = ms::TargetAttributeName(d.attribute);
    if (!d.name.empty()) s += "." + d.name;
    s += std::string(" ") + ms::RecreationName(d.requires_recreation) + " " + ms::EvaluationName(d.evaluation) + " " +
         ms::ChangeSourceName(d.source);
    if (!d.causing_entity.empty()) s += " " + d.causing_entity;
    out.push_back(s);
  }
  return out;
}

// `s` with its one `from` replaced by `to`.
std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

const ResourcePlan& Res(const Plan& p, const std::string& id) {
  const ResourcePlan* r = p.Find(id);
  REQUIRE(r != nullptr);
  return *r;
}

// Seed 000 tests 1, 4-6: two instances using both parameters.
std::string Instances(const std::string& a, const std::string& b, const std::string& extra = "") {
  return R"({
  "AWSTemplateFormatVersion": "2010-09-09",
  "Description": "two instances",
  "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String", "Default": "t2.micro"})" +
         extra + R"(},
  "Resources": {
    ")" + a + R"(": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}},
    ")" + b + R"(": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}}
  },
  "Outputs": {"Id": {"Value": {"Ref": ")" + a + R"("}}}
})";
}

const std::map<std::string, std::string> kImage = {{"ImageId", "ami-1"}};

// Seed 000 tests 7, 8: VPC <- Subnet <- Instance1.
std::string Network(const std::string& vpc_extra = "") {
  return R"({
  "Parameters": {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}, "CidrBlock": {"Type": "String"}},
  "Resources": {
    "VPC": {"Type": "Test::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "CidrBlock"})" + vpc_extra + R"(}},
    "Subnet": {"Type": "Test::EC2::Subnet", "Properties": {"VpcId": {"Ref": "VPC"}, "CidrBlock": "10.0.1.0/24"}},
    "Instance1": {"Type": "Test::EC2::Instance", "Properties": {"SubnetId": {"Ref": "Subnet"},
      "ImageId": {"Ref": "ImageId"}, "InstanceType": {"Ref": "InstanceType"}}}
  }
})";
}
const std::map<std::string, std::string> kNetworkParams = {
    {"ImageId", "ami-1"}, {"InstanceType", "t2.micro"}, {"CidrBlock", "10.0.0.0/16"}};

// Seed 000 tests 9, 10: a Role and a Policy naming it.
std::string Iam(const std::string& role_props, const std::string& policy_roles = R"([{"Ref": "Role"}])") {
  return R"({"Resources": {
    "Role": {"Type": "Test::IAM::Role", "Properties": )" + role_props + R"(},
    "Policy": {"Type": "Test::IAM::Policy", "Properties": {"PolicyName": "p", "Roles": )" + policy_roles + R"(}}
  }})";
}

}  // namespace

TEST_CASE("plan: no change at all is an empty plan (seed 000 test 1)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  Plan p = h.MakePlan(d, Instances("Instance1", "Instance2"), Harness::Params(d, {}));
  CHECK(p.empty());
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 None", "Instance2 None"});
  CHECK(h.providers.validate_calls == h.validate_before);  // equal evaluated properties: nothing to coerce
  // The same values given explicitly are no change either.
  CHECK(h.MakePlan(d, Instances("Instance1", "Instance2"), {{"ImageId", std::string("ami-1"), false}}).empty());
}

TEST_CASE("plan: whitespace, Description, format version, Outputs, top-level Metadata change nothing (tests 11-15, 22-24)",
          "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  auto params = Harness::Params(d, {});
  std::string body = Instances("Instance1", "Instance2");

  std::string spaced;  // whitespace outside values (test 11)
  for (char c : body) spaced += c == ',' ? std::string(" ,\n  ") : std::string(1, c);
  CHECK(h.MakePlan(d, spaced, params).empty());

  std::string described = Replace(body, "two instances", "another description");  // test 12
  CHECK(h.MakePlan(d, described, params).empty());

  std::string no_version = Replace(body, R"("AWSTemplateFormatVersion": "2010-09-09",)", "");  // test 13
  CHECK(h.MakePlan(d, no_version, params).empty());

  std::string outputs = Replace(body, R"({"Id": {"Value": {"Ref": "Instance1"}}})",  // test 14
                                R"({"Id": {"Value": {"Ref": "Instance2"}}, "More": {"Value": "x"}})");
  CHECK(h.MakePlan(d, outputs, params).empty());

  std::string metadata = body;  // tests 22-24: top-level Metadata added
  metadata.insert(1, R"("Metadata": {"Owner": "someone"},)");
  CHECK(h.MakePlan(d, metadata, params).empty());

  // YAML of the same template is the same stack.
  const char* yaml = R"(
AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  ImageId: {Type: String}
  InstanceType: {Type: String, Default: t2.micro}
Resources:
  Instance1:
    Type: Test::EC2::Instance
    Properties: {InstanceType: !Ref InstanceType, ImageId: !Ref ImageId}
  Instance2:
    Type: Test::EC2::Instance
    Properties: {ImageId: !Ref ImageId, InstanceType: !Ref InstanceType}
)";
  CHECK(h.MakePlan(d, yaml, params).empty());
}

TEST_CASE("plan: resources added and removed (seed 000 test 4)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  Plan p = h.MakePlan(d, Instances("Instance2", "Instance3"), Harness::Params(d, {}));
  CHECK_FALSE(p.empty());
  CHECK(Actions(p) == std::vector<std::string>{"Instance2 None", "Instance3 Add", "Instance1 Remove"});
  CHECK(Res(p, "Instance1").physical_id == "Instance1-1");
  CHECK(Res(p, "Instance1").node == -1);
  CHECK(Res(p, "Instance3").properties.ToJson() == R"({"ImageId":"ami-1","InstanceType":"t2.micro"})");
  CHECK(p.Count(ChangeAction::kAdd) == 1);
  CHECK(p.Count(ChangeAction::kRemove) == 1);
}

TEST_CASE("plan: a parameter change updates with some interruption (seed 000 test 5)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  Plan p = h.MakePlan(d, Instances("Instance2", "Instance3"), Harness::Params(d, {{"InstanceType", "t2.small"}}));
  CHECK(Actions(p) == std::vector<std::string>{"Instance2 Modify False", "Instance3 Add", "Instance1 Remove"});
  const ResourcePlan& r = Res(p, "Instance2");
  CHECK(r.behavior == UpdateBehavior::kSome);  // the provider's DecideUpdate for a non-metal type
  CHECK(h.providers.decide_calls == 1);
  CHECK(Details(p, "Instance2") == std::vector<std::string>{"Properties.InstanceType Never Static ParameterReference InstanceType"});
  CHECK(r.changed_properties == std::vector<std::string>{"InstanceType"});
  CHECK(r.details[0].before.ToJson() == R"("t2.micro")");
  CHECK(r.details[0].after.ToJson() == R"("t2.small")");
  CHECK(r.details[0].change == ms::AttributeChange::kModify);
  CHECK(r.scope == std::vector<ms::TargetAttribute>{ms::TargetAttribute::kProperties});
  CHECK_FALSE(r.dynamic);
  CHECK_FALSE(r.metadata_only);
}

TEST_CASE("plan: replacement wins over some interruption (seed 000 test 6)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  Plan p = h.MakePlan(d, Instances("Instance1", "Instance2"),
                      Harness::Params(d, {{"InstanceType", "t2.small"}, {"ImageId", "ami-2"}}));
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 Modify True", "Instance2 Modify True"});
  CHECK(Res(p, "Instance2").behavior == UpdateBehavior::kReplace);
  CHECK(Details(p, "Instance2") == std::vector<std::string>{
                                       "Properties.ImageId Always Static ParameterReference ImageId",
                                       "Properties.InstanceType Never Static ParameterReference InstanceType",
                                   });
}

TEST_CASE("plan: replacement cascades through Ref as Dynamic changes (seed 000 test 7)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Network(), kNetworkParams);
  Plan p = h.MakePlan(d, Network(), Harness::Params(d, {{"CidrBlock", "10.1.0.0/16"}}));
  CHECK(Actions(p) == std::vector<std::string>{"VPC Modify True", "Subnet Modify Conditional", "Instance1 Modify Conditional"});
  CHECK(Details(p, "VPC") == std::vector<std::string>{"Properties.CidrBlock Always Static ParameterReference CidrBlock"});
  CHECK(Details(p, "Subnet") == std::vector<std::string>{"Properties.VpcId Always Dynamic ResourceReference VPC"});
  CHECK(Details(p, "Instance1") == std::vector<std::string>{"Properties.SubnetId Always Dynamic ResourceReference Subnet"});
  const ResourcePlan& subnet = Res(p, "Subnet");
  CHECK(subnet.dynamic);
  CHECK(subnet.behavior == UpdateBehavior::kReplace);
  CHECK(subnet.properties.find("VpcId")->is_unknown());
  CHECK(subnet.details[0].before.ToJson() == R"("VPC-1")");
}

TEST_CASE("plan: no cascade when the referenced value is unchanged (seed 000 test 8)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Network(), kNetworkParams);
  Plan p = h.MakePlan(d, Network(R"(, "Tags": [{"Key": "Name", "Value": "main"}])"), Harness::Params(d, {}));
  CHECK(Actions(p) == std::vector<std::string>{"VPC Modify False", "Subnet None", "Instance1 None"});
  CHECK(Details(p, "VPC") == std::vector<std::string>{"Properties.Tags Never Static DirectModification"});
  CHECK(Res(p, "VPC").details[0].change == ms::AttributeChange::kAdd);
  CHECK(Res(p, "VPC").behavior == UpdateBehavior::kNone);
}

TEST_CASE("plan: a replaced role makes its policy update in place, dynamically (seed 000 test 9)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Iam(R"({"Path": "/a/"})"));
  Plan p = h.MakePlan(d, Iam(R"({"Path": "/b/"})"));
  CHECK(Actions(p) == std::vector<std::string>{"Role Modify True", "Policy Modify False"});
  CHECK(Details(p, "Policy") == std::vector<std::string>{"Properties.Roles Never Dynamic ResourceReference Role"});
  CHECK(Res(p, "Policy").behavior == UpdateBehavior::kNone);
  CHECK(Res(p, "Policy").dynamic);
}

TEST_CASE("plan: an in-place role update leaves its policy alone (seed 000 test 10)", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Iam(R"({"Path": "/a/"})"));
  Plan p = h.MakePlan(d, Iam(R"({"Path": "/a/", "Policies": ["p1"]})"));
  CHECK(Actions(p) == std::vector<std::string>{"Role Modify False", "Policy None"});
}

TEST_CASE("plan: GetAtt of a resource updated in place is Dynamic, of a metadata-only update is not", "[plan]") {
  Harness h;
  const std::string by_arn = R"([{"Fn::GetAtt": ["Role", "Arn"]}])";
  Deployed d = h.Deploy(Iam(R"({"Path": "/a/"})", by_arn));
  Plan p = h.MakePlan(d, Iam(R"({"Path": "/a/", "Policies": ["p1"]})", by_arn));
  CHECK(Actions(p) == std::vector<std::string>{"Role Modify False", "Policy Modify False"});
  CHECK(Details(p, "Policy") == std::vector<std::string>{"Properties.Roles Never Dynamic ResourceAttribute Role.Arn"});

  const std::string role_with_metadata = R"({"Type": "Test::IAM::Role", "Metadata": {"v": 2}, "Properties": {"Path": "/a/"}})";
  std::string body = Iam(R"({"Path": "/a/"})", by_arn);
  std::string changed = Replace(body, R"({"Type": "Test::IAM::Role", "Properties": {"Path": "/a/"}})", role_with_metadata);
  p = h.MakePlan(d, changed);
  CHECK(Actions(p) == std::vector<std::string>{"Role Modify False", "Policy None"});
  CHECK(Res(p, "Role").metadata_only);
}

TEST_CASE("plan: unused parameters, mappings and conditions change nothing (tests 16, 18, 21)", "[plan]") {
  Harness h;
  auto body = [](const std::string& unused_map, const std::string& cond4) {
    return R"({
  "Parameters": {"ImageId": {"Type": "String"}, "ImageId2": {"Type": "String"}},
  "Mappings": {"Unused": {"k": {"v": ")" + unused_map + R"("}}},
  "Conditions": {"C1": {"Fn::Equals": ["x", "x"]}, "C4": {"Fn::Equals": ["x", ")" + cond4 + R"("]}},
  "Resources": {"Instance1": {"Type": "Test::EC2::Instance", "Condition": "C1", "Properties": {"ImageId": {"Ref": "ImageId"}}}}
})";
  };
  Deployed d = h.Deploy(body("a", "x"), {{"ImageId", "ami-1"}, {"ImageId2", "ami-2"}});
  CHECK(h.MakePlan(d, body("a", "x"), Harness::Params(d, {{"ImageId2", "ami-9"}})).empty());  // test 16
  CHECK(h.MakePlan(d, body("b", "x"), Harness::Params(d, {})).empty());                        // test 18
  CHECK(h.MakePlan(d, body("a", "y"), Harness::Params(d, {})).empty());                        // test 21
}

TEST_CASE("plan: an equal value behind a different reference is no change (seed 000 test 17)", "[plan]") {
  Harness h;
  auto body = [](const std::string& ref) {
    return R"({
  "Parameters": {"ImageId": {"Type": "String"}, "ImageId2": {"Type": "String"}},
  "Resources": {"Instance2": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": {"Ref": ")" + ref + R"("}}}}
})";
  };
  Deployed d = h.Deploy(body("ImageId"), {{"ImageId", "ami-1"}, {"ImageId2", "ami-1"}});
  CHECK(h.MakePlan(d, body("ImageId2"), Harness::Params(d, {})).empty());

  // A Ref to a resource written out as its physical ID is the same value too.
  Deployed n = h.Deploy(Network(), kNetworkParams);
  std::string literal = Replace(Network(), R"({"Ref": "VPC"})", R"("VPC-1")");
  CHECK(h.MakePlan(n, literal, Harness::Params(n, {})).empty());
}

TEST_CASE("plan: a used mapping's change is a direct modification (seed 000 test 19)", "[plan]") {
  Harness h;
  auto body = [](const std::string& ami) {
    return R"({
  "Mappings": {"Images": {"us-east-1": {"Ami": ")" + ami + R"("}}},
  "Resources": {"Instance1": {"Type": "Test::EC2::Instance",
    "Properties": {"ImageId": {"Fn::FindInMap": ["Images", {"Ref": "AWS::Region"}, "Ami"]}}}}
})";
  };
  Deployed d = h.Deploy(body("ami-1"));
  Plan p = h.MakePlan(d, body("ami-2"));
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 Modify True"});
  CHECK(Details(p, "Instance1") == std::vector<std::string>{"Properties.ImageId Always Static DirectModification"});
}

TEST_CASE("plan: a Condition flip adds and removes resources (seed 000 test 20)", "[plan]") {
  Harness h;
  auto body = [](const char* c1, const char* c2, const char* c3) {
    return std::string(R"({"Conditions": {)") + R"("Condition1": {"Fn::Equals": ["x", ")" + c1 + R"("]},)" +
           R"("Condition2": {"Fn::Equals": ["x", ")" + c2 + R"("]},)" + R"("Condition3": {"Fn::Equals": ["x", ")" +
           c3 + R"("]}},
  "Resources": {
    "Instance1": {"Type": "Test::EC2::Instance", "Condition": "Condition1", "Properties": {"ImageId": "ami-1"}},
    "Instance2": {"Type": "Test::EC2::Instance", "Condition": "Condition2", "Properties": {"ImageId": "ami-1"}},
    "Instance3": {"Type": "Test::EC2::Instance", "Condition": "Condition3", "Properties": {"ImageId": "ami-1"}}}})";
  };
  Deployed d = h.Deploy(body("x", "x", "y"));
  REQUIRE(d.resources.size() == 2);
  Plan p = h.MakePlan(d, body("y", "x", "x"));
  CHECK(Actions(p) == std::vector<std::string>{"Instance2 None", "Instance3 Add", "Instance1 Remove"});
}

TEST_CASE("plan: a resource Metadata change alone updates without a provider call (seed 000 test 26)", "[plan]") {
  Harness h;
  auto body = [](const std::string& meta) {
    return R"({"Parameters": {"Who": {"Type": "String"}}, "Resources": {"Instance1": {"Type": "Test::EC2::Instance",
      "Metadata": )" + meta + R"(, "Properties": {"ImageId": "ami-1"}}}})";
  };
  Deployed d = h.Deploy(body(R"({"a": 1, "b": "x"})"), {{"Who", "me"}});
  CHECK(h.MakePlan(d, body(R"({"b": "x", "a": 1})"), Harness::Params(d, {})).empty());  // key order
  Plan p = h.MakePlan(d, body(R"({"a": 2, "b": "x"})"), Harness::Params(d, {}));
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 Modify False"});
  const ResourcePlan& r = Res(p, "Instance1");
  CHECK(r.metadata_only);
  CHECK(r.changed_properties.empty());
  CHECK(r.scope == std::vector<ms::TargetAttribute>{ms::TargetAttribute::kMetadata});
  CHECK(Details(p, "Instance1") == std::vector<std::string>{"Metadata Never Static DirectModification"});
  CHECK(r.metadata.ToJson() == R"({"a":2,"b":"x"})");

  // Metadata that uses a parameter: the parameter is the cause.
  Deployed m = h.Deploy(body(R"({"owner": {"Ref": "Who"}})"), {{"Who", "me"}});
  p = h.MakePlan(m, body(R"({"owner": {"Ref": "Who"}})"), Harness::Params(m, {{"Who", "you"}}));
  CHECK(Details(p, "Instance1") == std::vector<std::string>{"Metadata Never Static ParameterReference Who"});
  CHECK(Res(p, "Instance1").metadata_only);
}

TEST_CASE("plan: CreationPolicy, DeletionPolicy, UpdatePolicy, DependsOn alone change nothing but are carried (27-30)",
          "[plan]") {
  Harness h;
  auto body = [](const std::string& attrs2, const std::string& extra = "") {
    return R"({"Resources": {
    "Instance1": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": "ami-1"}},
    "Instance2": {"Type": "Test::EC2::Instance", )" + attrs2 + R"( "Properties": {"ImageId": "ami-1"}},
    "Instance3": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": "ami-1"}})" + extra + R"(}})";
  };
  Deployed d = h.Deploy(body(R"("DependsOn": "Instance1",)"));

  Plan p = h.MakePlan(d, body(R"("DependsOn": "Instance3",)"));  // tests 28, 29
  CHECK(p.empty());
  CHECK(Res(p, "Instance2").policy_changes == std::vector<std::string>{"DependsOn"});

  p = h.MakePlan(d, body(R"("DependsOn": "Instance1", "CreationPolicy": {"ResourceSignal": {"Timeout": "PT5M"}},
                          "DeletionPolicy": "Retain", "UpdateReplacePolicy": "Retain",
                          "UpdatePolicy": {"AutoScalingReplacingUpdate": {"WillReplace": true}},)"));  // test 27, note
  CHECK(p.empty());
  CHECK(Res(p, "Instance2").policy_changes ==
        std::vector<std::string>{"CreationPolicy", "DeletionPolicy", "UpdatePolicy", "UpdateReplacePolicy"});

  // Test 30: with another change the update runs, in the new order.
  p = h.MakePlan(d, body(R"("DependsOn": "Instance3",)", R"(, "Dummy": {"Type": "Test::CFN::WaitConditionHandle"})"));
  CHECK_FALSE(p.empty());
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 None", "Instance3 None", "Dummy Add", "Instance2 None"});
  const ResourcePlan& i2 = Res(p, "Instance2");
  CHECK(i2.policy_changes == std::vector<std::string>{"DependsOn"});
  CHECK(p.graph.dependencies(i2.node) == std::vector<int>{p.graph.Find("Instance3")});
}

TEST_CASE("plan: conditional update behaviour is the provider's decision when old and new are known", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  Plan p = h.MakePlan(d, Instances("Instance1", "Instance2"), Harness::Params(d, {{"InstanceType", "m5.metal"}}));
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 Modify True", "Instance2 Modify True"});
  CHECK(Details(p, "Instance1") == std::vector<std::string>{"Properties.InstanceType Always Static ParameterReference InstanceType"});
  CHECK(Res(p, "Instance1").details[0].decided);
  CHECK(Res(p, "Instance1").behavior == UpdateBehavior::kReplace);

  // Without a session to ask, it is Conditional.
  p = h.MakePlan(d, Instances("Instance1", "Instance2"), Harness::Params(d, {{"InstanceType", "m5.metal"}}),
                 /*with_session=*/false);
  CHECK(Actions(p) == std::vector<std::string>{"Instance1 Modify Conditional", "Instance2 Modify Conditional"});
  CHECK(Details(p, "Instance1") ==
        std::vector<std::string>{"Properties.InstanceType Conditionally Static ParameterReference InstanceType"});
  CHECK_FALSE(Res(p, "Instance1").details[0].decided);
  CHECK(Res(p, "Instance1").behavior == UpdateBehavior::kNone);  // nothing decided yet
}

TEST_CASE("plan: a conditional property whose new value is Dynamic stays Conditional", "[plan]") {
  Harness h;
  auto body = [](const std::string& path) {
    return R"({"Resources": {
    "Role": {"Type": "Test::IAM::Role", "Properties": {"Path": ")" + path + R"("}},
    "Instance1": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": "ami-1",
      "InstanceType": {"Fn::Join": ["-", ["t2", {"Ref": "Role"}]]}}}}})";
  };
  Deployed d = h.Deploy(body("/a/"));
  int decides = h.providers.decide_calls;
  Plan p = h.MakePlan(d, body("/b/"));
  CHECK(Actions(p) == std::vector<std::string>{"Role Modify True", "Instance1 Modify Conditional"});
  CHECK(Details(p, "Instance1") ==
        std::vector<std::string>{"Properties.InstanceType Conditionally Dynamic ResourceReference Role"});
  CHECK(h.providers.decide_calls == decides);  // nothing to decide on yet
}

TEST_CASE("plan: a conditional property stays Conditional while another property is Dynamic", "[plan]") {
  Harness h;
  auto body = [](const std::string& path, const std::string& type) {
    return R"({"Resources": {
    "Role": {"Type": "Test::IAM::Role", "Properties": {"Path": ")" + path + R"("}},
    "Instance1": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": {"Fn::Join": ["-", ["ami", {"Ref": "Role"}]]},
      "InstanceType": ")" + type + R"("}}}})";
  };
  Deployed d = h.Deploy(body("/a/", "t2.micro"));
  int decides = h.providers.decide_calls;
  Plan p = h.MakePlan(d, body("/b/", "m5.metal"));  // the provider's update function would see ImageId unknown
  CHECK(Actions(p) == std::vector<std::string>{"Role Modify True", "Instance1 Modify Conditional"});
  CHECK(h.providers.decide_calls == decides);
}

TEST_CASE("plan: a type change is a replacement", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(R"({"Resources": {"R": {"Type": "Test::IAM::Role", "Properties": {"Path": "/"}},
    "P": {"Type": "Test::IAM::Policy", "Properties": {"Roles": [{"Ref": "R"}]}}}})");
  Plan p = h.MakePlan(d, R"({"Resources": {"R": {"Type": "Custom::Thing", "Properties": {"Path": "/"}},
    "P": {"Type": "Test::IAM::Policy", "Properties": {"Roles": [{"Ref": "R"}]}}}})");
  CHECK(Actions(p) == std::vector<std::string>{"R Modify True", "P Modify False"});
  CHECK(Res(p, "R").type_changed);
  CHECK(Res(p, "R").old_type == "Test::IAM::Role");
  CHECK(Res(p, "R").type == "Custom::Thing");
  CHECK(Details(p, "P") == std::vector<std::string>{"Properties.Roles Never Dynamic ResourceReference R"});
}

TEST_CASE("plan: a property whose update is unsupported is a modify that fails at run time (seed 000 test 32)",
          "[plan]") {
  Harness h;
  Deployed d = h.Deploy(R"({"Resources": {"W": {"Type": "Test::CFN::WaitCondition", "Properties": {"Timeout": "300"}}}})");
  Plan p = h.MakePlan(d, R"({"Resources": {"W": {"Type": "Test::CFN::WaitCondition", "Properties": {"Timeout": "600"}}}})");
  CHECK(Actions(p) == std::vector<std::string>{"W Modify False"});
  CHECK(Res(p, "W").behavior == UpdateBehavior::kUnsupported);
  CHECK(Details(p, "W") == std::vector<std::string>{"Properties.Timeout Never Static DirectModification"});
}

TEST_CASE("plan: values compare as CloudFormation sends them, removed properties", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(R"({"Resources": {"W": {"Type": "Test::CFN::WaitCondition",
    "Properties": {"Timeout": 300, "Count": "1.10", "Handle": "h"}}}})");
  // 300 and "300" are the same string; map key order does not matter.
  CHECK(h.MakePlan(d, R"({"Resources": {"W": {"Type": "Test::CFN::WaitCondition",
    "Properties": {"Handle": "h", "Count": "1.10", "Timeout": "300"}}}})").empty());
  // 1.10 and 1.1 are different strings; a dropped property is a removal.
  Plan p = h.MakePlan(d, R"({"Resources": {"W": {"Type": "Test::CFN::WaitCondition",
    "Properties": {"Count": 1.1, "Timeout": 300}}}})");
  CHECK(Details(p, "W") == std::vector<std::string>{"Properties.Count Never Static DirectModification",
                                                    "Properties.Handle Never Static DirectModification"});
  CHECK(Res(p, "W").details[1].change == ms::AttributeChange::kRemove);
  CHECK(Res(p, "W").changed_properties == std::vector<std::string>{"Count", "Handle"});
  // AWS::NoValue removes the property as leaving it out does.
  p = h.MakePlan(d, R"({"Resources": {"W": {"Type": "Test::CFN::WaitCondition",
    "Properties": {"Count": "1.10", "Timeout": 300, "Handle": {"Ref": "AWS::NoValue"}}}}})");
  CHECK(Details(p, "W") == std::vector<std::string>{"Properties.Handle Never Static DirectModification"});
}

TEST_CASE("plan: new properties are coerced by the provider before comparing, invalid ones fail at run time", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(R"({"Resources": {"I": {"Type": "Test::EC2::Instance", "Properties": {"Ports": ["80", "443"]}}}})");
  CHECK(h.MakePlan(d, R"({"Resources": {"I": {"Type": "Test::EC2::Instance", "Properties": {"Ports": "80,443"}}}})").empty());
  CHECK(h.providers.validate_calls == h.validate_before + 1);

  Plan p = h.MakePlan(d, R"({"Resources": {"I": {"Type": "Test::EC2::Instance",
    "Properties": {"Ports": ["80", "443"], "Bogus": 1}}}})");
  CHECK(Actions(p) == std::vector<std::string>{"I Modify False"});
  CHECK(Res(p, "I").error == "Encountered unsupported property Bogus");
}

TEST_CASE("plan: Fn::ImportValue resolves through the export lookup, a missing export fails that resource", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(R"({"Resources": {"S": {"Type": "Test::EC2::Subnet", "Properties": {"VpcId": "vpc-shared"}}}})");
  CHECK(h.MakePlan(d, R"({"Resources": {"S": {"Type": "Test::EC2::Subnet",
    "Properties": {"VpcId": {"Fn::ImportValue": "shared-vpc"}}}}})").empty());
  Plan p = h.MakePlan(d, R"({"Resources": {"S": {"Type": "Test::EC2::Subnet",
    "Properties": {"VpcId": {"Fn::ImportValue": "nope"}}}}})");
  CHECK(Actions(p) == std::vector<std::string>{"S Modify False"});
  CHECK(Res(p, "S").error == "No export named nope found. Rollback requested by user.");
}

TEST_CASE("plan: SSM parameter types compare by the value they resolve to", "[plan]") {
  Harness h;
  auto body = [](const char* type) {
    return std::string(R"({"Parameters": {"Ami": {"Type": ")") + type + R"("}},
      "Resources": {"I": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": {"Ref": "Ami"}}}}})";
  };
  // Deployed from /images/latest, which resolved to ami-7.
  Deployed d = h.Deploy(body("String"), {{"Ami", "ami-7"}});
  d.stack.template_body = body("AWS::SSM::Parameter::Value<String>");
  d.stack.parameters[0].value = "/images/latest";
  d.stack.parameters[0].resolved_value = "ami-7";
  const std::string ssm_body = body("AWS::SSM::Parameter::Value<String>");
  CHECK(h.MakePlan(d, ssm_body, Harness::Params(d, {})).empty());  // no lookup: the deployed resolution
  h.ssm = [](std::string_view name, std::string* v) {
    *v = name == "/images/latest" ? "ami-8" : "ami-7";
    return true;
  };
  Plan p = h.MakePlan(d, ssm_body, Harness::Params(d, {}));
  CHECK(Actions(p) == std::vector<std::string>{"I Modify True"});
  CHECK(Details(p, "I") == std::vector<std::string>{"Properties.ImageId Always Static ParameterReference Ami"});
  CHECK(h.MakePlan(d, ssm_body, Harness::Params(d, {{"Ami", "/images/pinned"}})).empty());  // another name, same value
}

TEST_CASE("plan: synchronous errors of the new template and parameters", "[plan]") {
  Harness h;
  Deployed d = h.Deploy(Instances("Instance1", "Instance2"), kImage);
  ms::PlanInput in;
  in.stack = &d.stack;
  in.resources = &d.resources;
  in.runtime = &h.providers;
  in.session = h.session.get();
  const std::string body = Instances("Instance1", "Instance2");
  in.template_body = body;
  in.parameters = {{"InstanceType", std::string("t2.small"), false}};  // ImageId missing, no default
  Plan p;
  Status s = ms::MakePlan(in, &p);
  CHECK(s.message() == "Parameters: [ImageId] must have values");
  const std::string unresolved =
      R"({"Resources": {"A": {"Type": "Test::IAM::Policy", "Properties": {"Roles": [{"Ref": "Nope"}]}}}})";
  in.template_body = unresolved;
  in.parameters = {};
  s = ms::MakePlan(in, &p);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("Nope") != std::string::npos);
}

TEST_CASE("plan: SameValue and KnownPartsDiffer", "[plan]") {
  auto v = [](const char* json) { return ms::test::Doc(json); };
  CHECK(ms::SameValue(v(R"({"a": [1, "x"], "b": true})"), v(R"({"b": "true", "a": ["1", "x"]})")));
  CHECK_FALSE(ms::SameValue(v(R"({"a": [1, "x"]})"), v(R"({"a": ["x", 1]})")));  // list order matters
  CHECK_FALSE(ms::SameValue(v("1.10"), v("1.1")));
  Value partly = Value::MakeList({Value::String("x"), Value::Unknown({"R"})});
  CHECK_FALSE(ms::SameValue(partly, partly));  // unknown is never known to be equal
  CHECK_FALSE(ms::KnownPartsDiffer(v(R"(["x", "y"])"), partly));
  CHECK(ms::KnownPartsDiffer(v(R"(["z", "y"])"), partly));
  CHECK(ms::UnknownRefs(Value::MakeMap({{"a", Value::Unknown({"B.Arn"})}, {"b", partly}})) ==
        std::vector<std::string>{"B.Arn", "R"});
}

TEST_CASE("plan: validation's graph is reused only for a template without conditions", "[plan]") {
  Harness h;
  auto plan_with_graph = [&](const Deployed& d, const std::string& body, ms::DependencyGraph* graph) {
    ms::PlanInput in;
    in.stack = &d.stack;
    in.resources = &d.resources;
    in.template_body = body;
    REQUIRE(ms::CachedTemplate(body, &in.new_template).ok());
    ms::TemplateSummary summary;
    REQUIRE(ms::ValidateLoadedTemplate(*in.new_template, &summary, &h.providers, graph).ok());
    in.new_graph = graph;
    in.pseudo = h.pseudo;
    in.runtime = &h.providers;
    in.session = h.session.get();
    Plan p;
    Status s = ms::MakePlan(in, &p);
    INFO(s.message());
    REQUIRE(s.ok());
    return p;
  };
  // Conditions: the unconditional graph would include Instance1 and plan it as an Add.
  const std::string conditional = R"({"Conditions": {"No": {"Fn::Equals": ["x", "y"]}},
    "Resources": {
      "Instance1": {"Type": "Test::EC2::Instance", "Condition": "No", "Properties": {"ImageId": "ami-1"}},
      "Instance2": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": "ami-1"}}}})";
  Deployed d = h.Deploy(conditional);
  ms::DependencyGraph g;
  Plan p = plan_with_graph(d, Replace(conditional, "ami-1\"}}}}", "ami-2\"}}}}"), &g);
  CHECK(Actions(p) == std::vector<std::string>{"Instance2 Modify True"});  // Instance1 stays out
  CHECK(g.size() == 2);  // not taken

  // No conditions: the same graph, taken instead of built again.
  const std::string plain = R"({"Resources": {
      "Instance1": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": "ami-1"}},
      "Instance2": {"Type": "Test::EC2::Instance", "Properties": {"ImageId": {"Ref": "Instance1"}}}}})";
  Deployed d2 = h.Deploy(plain);
  ms::DependencyGraph g2;
  const std::string changed = Replace(plain, "ami-1", "ami-2");
  Plan taken = plan_with_graph(d2, changed, &g2);
  CHECK(g2.size() == 0);  // moved into the plan
  CHECK(Actions(taken) == Actions(h.MakePlan(d2, changed)));
}
