// Evaluator: the Conditions section and the Rules section.
#include <catch2/catch.hpp>

#include "eval/evaluator.h"
#include "test_util.h"

using ms::EvalEnvironment;
using ms::Evaluator;
using ms::ParameterValues;
using ms::PseudoParameters;
using ms::Section;
using ms::Status;
using ms::Template;
using ms::Value;

namespace {

const char* kBase = R"(
Parameters:
  Env: {Type: String, Default: prod}
  Size: {Type: Number, Default: '3'}
  Names: {Type: CommaDelimitedList, Default: 'a,b'}
  Vpc: {Type: 'AWS::EC2::VPC::Id', Default: vpc-1}
  OtherVpc: {Type: 'AWS::EC2::VPC::Id', Default: vpc-2}
  Subnets: {Type: 'List<AWS::EC2::Subnet::Id>', Default: 'subnet-1,subnet-2'}
Mappings:
  M:
    us-east-1: {Stage: prod}
Resources:
  Bucket: {Type: AWS::S3::Bucket}
)";

// The base template with `sections` (YAML: Conditions/Rules) swapped in
// after loading, so malformed sections reach the evaluator unfiltered.
struct Fixture {
  Template t;
  ParameterValues params;
  PseudoParameters pseudo;
  EvalEnvironment env;

  explicit Fixture(const std::string& sections, std::map<std::string, std::string> values = {},
                   bool language_extensions = false) {
    Status s = ms::LoadTemplate(kBase, &t);
    INFO(s.message());
    REQUIRE(s.ok());
    Value doc = ms::test::Doc(sections);
    if (const Value* c = doc.find("Conditions")) t.conditions = *c;
    if (const Value* r = doc.find("Rules")) t.rules = *r;
    if (language_extensions) t.transforms.push_back("AWS::LanguageExtensions");
    params = ms::test::Params(t, values);
  }

  // "OK" or the error of EvaluateConditions; fills `ev`'s conditions.
  std::string Conditions(Evaluator* ev) {
    Status s = ev->EvaluateConditions();
    return s.ok() ? "OK" : s.message();
  }

  // Each condition as name=0/1, in template order, or the error.
  std::string Values() {
    Evaluator ev(t, params, pseudo, env);
    std::string err = Conditions(&ev);
    if (err != "OK") return "ERROR " + err;
    std::string out;
    for (const ms::Member& m : t.conditions.map()) {
      out += (out.empty() ? "" : " ") + m.key + "=" + (ev.ConditionValue(m.key) ? "1" : "0");
    }
    return out;
  }

  std::string Rules() {
    Evaluator ev(t, params, pseudo, env);
    Status c = ev.EvaluateConditions();
    if (!c.ok()) return "CONDITIONS " + c.message();
    Status s = ev.CheckRules();
    return s.ok() ? "OK" : s.message();
  }
};

std::string Cond(const std::string& yaml, std::map<std::string, std::string> values = {}) {
  return Fixture("Conditions:\n" + yaml, std::move(values)).Values();
}

}  // namespace

TEST_CASE("conditions: Equals, And, Or, Not, Condition", "[eval]") {
  CHECK(Cond("  P: !Equals [!Ref Env, prod]\n  D: !Equals [dev, !Ref Env]") == "P=1 D=0");
  CHECK(Cond("  P: !Equals [!Ref Env, prod]", {{"Env", "dev"}}) == "P=0");
  // Values compare as strings: 3 equals '3'.
  CHECK(Cond("  N: !Equals [!Ref Size, 3]\n  B: !Equals [true, 'true']") == "N=1 B=1");
  CHECK(Cond("  A: !And [!Equals [a, a], !Equals [b, b]]\n  B: !And [!Equals [a, a], !Equals [a, b]]") == "A=1 B=0");
  CHECK(Cond("  O: !Or [!Equals [a, b], !Equals [b, b]]\n  N: !Or [!Equals [a, b], !Equals [c, d]]") == "O=1 N=0");
  CHECK(Cond("  X: !Not [!Equals [a, b]]") == "X=1");
  CHECK(Cond("  Region: !Equals [!Ref AWS::Region, us-east-1]\n  Acct: !Equals [!Ref AWS::AccountId, '1']") ==
        "Region=1 Acct=0");
  // Value functions inside Fn::Equals.
  CHECK(Cond("  Empty: !Equals [!Join ['', !Ref Names], '']\n"
             "  First: !Equals [!Select [0, !Ref Names], a]\n"
             "  Split: !Equals [!Select [1, !Split ['-', !Ref AWS::Region]], east]\n"
             "  Map: !Equals [!FindInMap [M, !Ref AWS::Region, Stage], !Ref Env]\n"
             "  Sub: !Equals [!Sub '${Env}-${AWS::Region}', prod-us-east-1]") ==
        "Empty=0 First=1 Split=1 Map=1 Sub=1");
  CHECK(Cond("  Empty: !Equals [!Join ['', !Ref Names], '']", {{"Names", ""}}) == "Empty=1");
  // Ten operands is the maximum.
  std::string ten = "[";
  for (int i = 0; i < 10; ++i) ten += std::string(i ? ", " : "") + "!Equals [a, a]";
  ten += "]";
  CHECK(Cond("  T: !And " + ten + "\n  O: !Or " + ten) == "T=1 O=1");
}

TEST_CASE("conditions referring to conditions, in any order", "[eval]") {
  CHECK(Cond("  C: !And [!Condition B, !Condition A]\n  B: !Not [!Condition A]\n  A: !Equals [!Ref Env, dev]") ==
        "C=0 B=1 A=0");
  CHECK(Cond("  Alias: !Condition IsProd\n  IsProd: !Equals [!Ref Env, prod]") == "Alias=1 IsProd=1");
  CHECK(Cond("  C: !Or [!Condition B, !Equals [x, y]]\n  B: !Condition A\n  A: !Equals [!Ref Env, prod]") ==
        "C=1 B=1 A=1");
  // Fn::If inside a condition uses another condition.
  CHECK(Cond("  A: !Equals [!Ref Env, prod]\n  Pick: !Equals [!If [A, yes, no], yes]") == "A=1 Pick=1");
  // A long chain is ordered without recursion.
  std::string chain;
  for (int i = 0; i < 2000; ++i) chain += "  C" + std::to_string(i) + ": !Not [!Condition C" + std::to_string(i + 1) + "]\n";
  chain += "  C2000: !Equals [a, a]\n";
  Fixture f("Conditions:\n" + chain);
  Evaluator ev(f.t, f.params, f.pseudo, f.env);
  REQUIRE(f.Conditions(&ev) == "OK");
  CHECK(ev.ConditionValue("C2000"));
  CHECK(!ev.ConditionValue("C1999"));
  CHECK(ev.ConditionValue("C0"));
  CHECK(ev.Included(""));
  CHECK(ev.Included("C0"));
  CHECK(!ev.Included("C1"));
  CHECK(!ev.ConditionValue("NoSuchCondition"));
}

TEST_CASE("condition cycles and missing conditions", "[eval]") {
  CHECK(Cond("  A: !Condition A") == "ERROR Template format error: Circular dependency between conditions: [A]");
  CHECK(Cond("  A: !Not [!Condition B]\n  B: !And [!Condition A, !Equals [a, a]]\n  C: !Equals [a, a]") ==
        "ERROR Template format error: Circular dependency between conditions: [A, B]");
  CHECK(Cond("  A: !Equals [!If [B, x, y], x]\n  B: !Condition A") ==
        "ERROR Template format error: Circular dependency between conditions: [A, B]");
  CHECK(Cond("  A: !Not [!Condition Missing]") ==
        "ERROR Template format error: Unresolved condition dependencies [Missing] in the Conditions block of the template");
  CHECK(Cond("  A: !Equals [!If [Missing, x, y], x]") ==
        "ERROR Template error: unresolved condition dependency Missing in Fn::If");
}

TEST_CASE("conditions may not use resources", "[eval]") {
  CHECK(Cond("  A: !Equals [!Ref Bucket, x]") ==
        "ERROR Template format error: Unresolved dependencies [Bucket]. Cannot reference resources in the "
        "Conditions block of the template");
  CHECK(Cond("  A: !Equals [!GetAtt Bucket.Arn, x]") ==
        "ERROR Template format error: Unresolved dependencies [Bucket]. Cannot reference resources in the "
        "Conditions block of the template");
  CHECK(Cond("  A: !Equals [!Sub '${Bucket}', x]") ==
        "ERROR Template format error: Unresolved dependencies [Bucket]. Cannot reference resources in the "
        "Conditions block of the template");
  CHECK(Cond("  A: !Equals [!Ref Nothing, x]") ==
        "ERROR Template format error: Unresolved dependencies [Nothing]. Cannot reference resources in the "
        "Conditions block of the template");
  CHECK(Cond("  A: !Equals [!ImportValue x, x]") == "ERROR Template error: Cannot use Fn::ImportValue in Conditions");
}

TEST_CASE("malformed conditions give AWS's errors", "[eval]") {
  const std::string kBoolean =
      "ERROR Template format error: Conditions can only be boolean operations on parameters and other conditions";
  CHECK(Cond("  A: 'true'") == kBoolean);
  CHECK(Cond("  A: !Ref Env") == kBoolean);
  CHECK(Cond("  A: !Join ['', [a]]") == kBoolean);
  CHECK(Cond("  A: {Fn::Equals: [a, a], Other: 1}") == kBoolean);
  const std::string kEquals = "ERROR Template error: every Fn::Equals object requires a list of 2 string parameters.";
  CHECK(Cond("  A: !Equals [a]") == kEquals);
  CHECK(Cond("  A: !Equals [a, b, c]") == kEquals);
  CHECK(Cond("  A: !Equals [!Ref Names, '']") == kEquals);
  CHECK(Cond("  A: !Equals [{k: v}, '']") == kEquals);
  CHECK(Cond("  A: {Fn::Equals: a}") == kEquals);
  const std::string kAnd =
      "ERROR Template error: every Fn::And object requires a list of at least 2 and at most 10 boolean parameters.";
  CHECK(Cond("  A: !And [!Equals [a, a]]") == kAnd);
  CHECK(Cond("  A: !And [!Equals [a, a], 'true']") == kAnd);
  CHECK(Cond("  A: !And [!Equals [a, a], !Ref Env]") == kAnd);
  std::string eleven = "[";
  for (int i = 0; i < 11; ++i) eleven += std::string(i ? ", " : "") + "!Equals [a, a]";
  eleven += "]";
  CHECK(Cond("  A: !And " + eleven) == kAnd);
  CHECK(Cond("  A: !Or " + eleven) ==
        "ERROR Template error: every Fn::Or object requires a list of at least 2 and at most 10 boolean parameters.");
  const std::string kNot = "ERROR Template error: Fn::Not requires a list argument with one function token";
  CHECK(Cond("  A: !Not [!Equals [a, a], !Equals [a, a]]") == kNot);
  CHECK(Cond("  A: !Not ['true']") == kNot);
  CHECK(Cond("  A: {Fn::Not: {Fn::Equals: [a, a]}}") == kNot);
  CHECK(Cond("  A: !Condition [B]") == "ERROR Template format error: Every Condition member must be a string.");
  CHECK(Cond("  A: !Equals [!Contains [[a], a], 'true']") ==
        "ERROR Template format error: Fn::Contains is only supported in the Rules block of the template");
}

TEST_CASE("Fn::Length in conditions with AWS::LanguageExtensions", "[eval]") {
  Fixture f("Conditions:\n  Three: !Equals [{Fn::Length: !Ref Names}, 2]\n", {}, true);
  CHECK(f.Values() == "Three=1");
}

TEST_CASE("a condition on a value not known yet is false", "[eval]") {
  Fixture f("Conditions:\n  A: !Equals [!Ref Env, prod]\n  B: !Not [!Equals [!Ref Env, prod]]\n");
  f.params.list.clear();  // no values: validate-template before parameters
  CHECK(f.Values() == "A=0 B=0");
}

TEST_CASE("rules: assertions pass and fail with AssertDescription", "[eval]") {
  const char* rules = R"(
Rules:
  ProdSize:
    RuleCondition: !Equals [!Ref Env, prod]
    Assertions:
      - Assert: !Contains [['3', '4'], !Ref Size]
        AssertDescription: Prod needs size 3 or 4
  Names:
    Assertions:
      - Assert: !EachMemberIn [!Ref Names, [a, b, c, x]]
        AssertDescription: names must be a, b, c or x
      - Assert: !Not [!EachMemberEquals [!Ref Names, x]]
)";
  CHECK(Fixture(rules).Rules() == "OK");
  CHECK(Fixture(rules, {{"Size", "5"}}).Rules() == "Prod needs size 3 or 4");
  // The RuleCondition is false: the rule is not checked.
  CHECK(Fixture(rules, {{"Size", "5"}, {"Env", "dev"}}).Rules() == "OK");
  CHECK(Fixture(rules, {{"Names", "a,z"}}).Rules() == "names must be a, b, c or x");
  CHECK(Fixture(rules, {{"Names", "x,x"}}).Rules() == "Template error: Assertion failed for rule Names");
}

TEST_CASE("rules: the CDK bootstrap version check", "[eval]") {
  const char* rules = R"(
Rules:
  CheckBootstrapVersion:
    Assertions:
      - Assert: {Fn::Not: [{Fn::Contains: [['1', '2', '3', '4', '5'], {Ref: Size}]}]}
        AssertDescription: CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.
)";
  CHECK(Fixture(rules, {{"Size", "21"}}).Rules() == "OK");
  CHECK(Fixture(rules, {{"Size", "3"}}).Rules() ==
        "CDK bootstrap stack version 6 required. Please run 'cdk bootstrap' with a recent version of the CDK CLI.");
}

TEST_CASE("rules: Fn::RefAll, Fn::ValueOf, Fn::If and Fn::Equals", "[eval]") {
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !EachMemberIn [!RefAll 'AWS::EC2::VPC::Id', [vpc-1, vpc-2]]
      - Assert: !Contains [!RefAll 'List<AWS::EC2::Subnet::Id>', subnet-2]
      - Assert: !Equals [!Ref Names, [a, b]]
      - Assert: !Or [!Equals [!Ref AWS::Region, us-east-1], !Equals [!Ref AWS::Region, eu-west-1]]
)").Rules() == "OK");
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !Contains [!RefAll 'AWS::EC2::VPC::Id', vpc-9]
        AssertDescription: no vpc-9
)").Rules() == "no vpc-9");
  // Attributes of AWS values are not known: the assertion is not failed.
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !EachMemberEquals [!ValueOfAll ['AWS::EC2::Subnet::Id', VpcId], !Ref Vpc]
      - Assert: !Equals [!ValueOf [Vpc, CidrBlock], 10.0.0.0/16]
)").Rules() == "OK");
  CHECK(Fixture(R"(
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Rules:
  R:
    Assertions:
      - Assert: !Equals [!If [IsProd, big, small], big]
        AssertDescription: if
)").Rules() == "OK");
}

TEST_CASE("rules: functions AWS does not allow there", "[eval]") {
  CHECK(Fixture(R"(
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Rules:
  R:
    RuleCondition: !Condition IsProd
    Assertions:
      - Assert: !Equals [a, a]
)").Rules() == "Template format error: Following functions are not supported in the Rules block of the template: [Condition].");
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !Equals [!Join ['', [a]], a]
)").Rules() == "Template format error: Following functions are not supported in the Rules block of the template: [Fn::Join].");
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !Equals [!Ref Bucket, a]
)").Rules() == "Template format error: Unresolved dependencies [Bucket]. Cannot reference resources in the Rules block of the template");
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: 'true'
)").Rules() == "Template format error: Every RuleCondition and Assert must be a rule-specific intrinsic function that returns true or false");
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !Contains [a, a]
)").Rules() == "Template error: every Fn::Contains object requires two parameters, (1) a list of strings and (2) a string");
  CHECK(Fixture(R"(
Rules:
  R:
    Assertions:
      - Assert: !Equals [!ValueOf [NoParam, VpcId], x]
)").Rules() == "Template format error: Unresolved dependencies [NoParam]. Cannot reference resources in the Rules block of the template");
}

TEST_CASE("Evaluate in the Conditions section", "[eval]") {
  Fixture f("Conditions:\n  IsProd: !Equals [!Ref Env, prod]\n");
  Evaluator ev(f.t, f.params, f.pseudo, f.env);
  REQUIRE(ev.EvaluateConditions().ok());
  Value out;
  REQUIRE(ev.Evaluate(ms::test::Doc(R"({"Fn::And": [{"Condition": "IsProd"}, {"Fn::Equals": ["a", "a"]}]})"),
                      Section::kConditions, &out).ok());
  CHECK(out.ToJson() == "true");
}
