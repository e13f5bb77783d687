// Evaluator: intrinsic functions in resource properties and outputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

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

// A loaded template with parameter values (defaults unless overridden),
// evaluated conditions, and helpers returning results as JSON text.
struct Fixture {
  Template t;
  ParameterValues params;
  PseudoParameters pseudo;
  EvalEnvironment env;
  std::unique_ptr<Evaluator> ev;

  explicit Fixture(const std::string& yaml, std::map<std::string, std::string> values = {}) {
    Status s = ms::LoadTemplate(yaml, &t);
    INFO(s.message());
    REQUIRE(s.ok());
    params = ms::test::Params(t, values);
    ev = std::make_unique<Evaluator>(t, params, pseudo, env);
    Status c = ev->EvaluateConditions();
    INFO(c.message());
    REQUIRE(c.ok());
  }

  // Evaluates the YAML expression `expr` ("!Ref X", "{a: b}", ...).
  std::string Eval(const std::string& expr, Section where = Section::kResourceProperties) {
    Value doc = ms::test::Doc("V: " + expr);
    Value out;
    Status s = ev->Evaluate(*doc.find("V"), where, &out);
    return s.ok() ? out.ToJson() : "ERROR " + s.message();
  }
};

const char* kBase = R"(
Transform: AWS::LanguageExtensions
Parameters:
  Env: {Type: String, Default: prod}
  Count: {Type: Number, Default: '2'}
  Subnets: {Type: CommaDelimitedList, Default: 'subnet-a,subnet-b,subnet-c'}
  AttrName: {Type: String, Default: Arn}
  NoDefault: {Type: String}
Mappings:
  RegionMap:
    us-east-1: {AMI: ami-111, Zones: [a, b]}
    eu-west-1: {AMI: ami-222}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsDev: !Not [!Condition IsProd]
Resources:
  Bucket:
    Type: AWS::S3::Bucket
  Stack:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: 'https://example.com/t.yaml'}
  DevQueue:
    Type: AWS::SQS::Queue
    Condition: IsDev
Outputs:
  B: {Value: !Ref Bucket}
)";

const char* kPlain = R"(
Parameters:
  Env: {Type: String, Default: prod}
Mappings:
  RegionMap:
    us-east-1: {AMI: ami-111}
Resources:
  Bucket:
    Type: AWS::S3::Bucket
)";

}  // namespace

TEST_CASE("Ref: parameters, pseudo parameters and resources", "[eval]") {
  Fixture f(kBase, {{"Env", "prod"}});
  CHECK(f.Eval("!Ref Env") == R"("prod")");
  CHECK(f.Eval("!Ref Count") == R"("2")");
  CHECK(f.Eval("!Ref Subnets") == R"(["subnet-a","subnet-b","subnet-c"])");
  CHECK(f.Eval("!Ref AWS::Region") == R"("us-east-1")");
  CHECK(f.Eval("!Ref AWS::AccountId") == R"("123456789012")");
  CHECK(f.Eval("!Ref AWS::StackName") == R"("stack")");
  CHECK(f.Eval("!Ref AWS::StackId") ==
        R"("arn:aws:cloudformation:us-east-1:123456789012:stack/stack/00000000-0000-0000-0000-000000000000")");
  CHECK(f.Eval("!Ref AWS::Partition") == R"("aws")");
  CHECK(f.Eval("!Ref AWS::URLSuffix") == R"("amazonaws.com")");
  CHECK(f.Eval("!Ref AWS::NotificationARNs") == "[]");
  f.pseudo.notification_arns = {"arn:aws:sns:us-east-1:123456789012:t"};
  CHECK(f.Eval("!Ref AWS::NotificationARNs") == R"(["arn:aws:sns:us-east-1:123456789012:t"])");
  CHECK(f.Eval("!Ref Bucket") == R"({"Unknown":["Bucket"]})");
  // A declared parameter without a value yet is not known.
  CHECK(f.Eval("!Ref NoDefault") == R"({"Unknown":["NoDefault"]})");
  CHECK(f.Eval("{Ref: [Env]}") == "ERROR Template format error: Every Ref object must have a single String value.");
  CHECK(f.Eval("!Ref Nope") ==
        "ERROR Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template");
}

TEST_CASE("Ref of a resource whose condition is false", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!Ref DevQueue") ==
        "ERROR Template format error: Unresolved resource dependencies [DevQueue] in the Resources block of the template");
  CHECK(f.Eval("!Ref DevQueue", Section::kOutputs) ==
        "ERROR Unresolved resource dependencies [DevQueue] in the Outputs block of the template");
  CHECK(f.Eval("!GetAtt DevQueue.Arn") ==
        "ERROR Template format error: Unresolved resource dependencies [DevQueue] in the Resources block of the template");
  CHECK(f.Eval("!Sub '${DevQueue}'") ==
        "ERROR Template format error: Unresolved resource dependencies [DevQueue] in the Resources block of the template");
  // Not an error in the branch that is not taken.
  CHECK(f.Eval("!If [IsDev, !Ref DevQueue, none]") == R"("none")");
}

TEST_CASE("SSM parameter types use the resolved SSM value", "[eval]") {
  Fixture f(R"(
Parameters:
  Env: {Type: String, Default: prod}
  Ami: {Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: /aws/ami}
  Names: {Type: 'AWS::SSM::Parameter::Value<List<String>>', Default: /names}
Resources:
  Bucket:
    Type: AWS::S3::Bucket
)");
  Evaluator ev(f.t, f.params, f.pseudo, f.env);
  Value out;
  REQUIRE(ev.Evaluate(ms::test::Doc(R"({"Ref": "Ami"})"), Section::kResourceProperties, &out).ok());
  CHECK(out.ToJson() == R"({"Unknown":["Ami"]})");
  f.params.list[1].ssm_resolved = "ami-0abc";
  f.params.list[2].ssm_resolved = "a,b";
  REQUIRE(ev.Evaluate(ms::test::Doc(R"({"Ref": "Ami"})"), Section::kResourceProperties, &out).ok());
  CHECK(out.ToJson() == R"("ami-0abc")");
  REQUIRE(ev.Evaluate(ms::test::Doc(R"({"Ref": "Names"})"), Section::kResourceProperties, &out).ok());
  CHECK(out.ToJson() == R"(["a","b"])");
}

TEST_CASE("AWS::NoValue removes members and list items", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("{A: 1, B: !Ref AWS::NoValue, C: x}") == R"({"A":1,"C":"x"})");
  CHECK(f.Eval("[a, !Ref AWS::NoValue, b]") == R"(["a","b"])");
  CHECK(f.Eval("!Ref AWS::NoValue") == "null");
  CHECK(f.Eval("{Tags: [{Key: k, Value: !If [IsProd, !Ref AWS::NoValue, v]}]}") == R"({"Tags":[{"Key":"k"}]})");
  CHECK(f.Eval("[!If [IsProd, !Ref AWS::NoValue, dev], !If [IsDev, x, !Ref AWS::NoValue], last]") ==
        R"(["last"])");
  CHECK(f.Eval("{Name: !If [IsDev, dev-name, !Ref AWS::NoValue]}") == "{}");
  CHECK(f.Eval("!Join [',', [a, !Ref AWS::NoValue, b]]") == R"("a,b")");
}

TEST_CASE("Fn::If picks a branch by a named condition", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!If [IsProd, big, small]") == R"("big")");
  CHECK(f.Eval("!If [IsDev, big, small]") == R"("small")");
  CHECK(f.Eval("!If [IsProd, [a, b], {c: d}]") == R"(["a","b"])");
  CHECK(f.Eval("!If [IsProd, !If [IsDev, x, y], z]") == R"("y")");
  CHECK(f.Eval("!If [Missing, a, b]") == "ERROR Template error: unresolved condition dependency Missing in Fn::If");
  CHECK(f.Eval("!If [!Equals [a, a], x, y]") ==
        "ERROR Template error: Fn::If requires a list argument with the first element being a condition");
  CHECK(f.Eval("!If [IsProd, x]") == "ERROR Template error: Fn::If requires a list argument with three elements");
  CHECK(f.Eval("{Fn::If: IsProd}") ==
        "ERROR Template error: Fn::If requires a list argument with the first element being a condition");
}

TEST_CASE("Fn::GetAtt in list and dotted forms", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!GetAtt Bucket.Arn") == R"({"Unknown":["Bucket.Arn"]})");
  CHECK(f.Eval("!GetAtt [Bucket, Arn]") == R"({"Unknown":["Bucket.Arn"]})");
  // The attribute may contain dots: split at the first one.
  CHECK(f.Eval("!GetAtt Stack.Outputs.VpcId") == R"({"Unknown":["Stack.Outputs.VpcId"]})");
  CHECK(f.Eval("!GetAtt [Stack, Outputs.VpcId]") == R"({"Unknown":["Stack.Outputs.VpcId"]})");
  // The attribute may be a Ref to a parameter.
  CHECK(f.Eval("!GetAtt [Bucket, !Ref AttrName]") == R"({"Unknown":["Bucket.Arn"]})");
  const std::string kShape =
      "ERROR Template error: every Fn::GetAtt object requires two non-empty parameters, the resource "
      "name and the resource attribute";
  CHECK(f.Eval("!GetAtt Bucket") == kShape);
  CHECK(f.Eval("!GetAtt Bucket.") == kShape);
  CHECK(f.Eval("!GetAtt .Arn") == kShape);
  CHECK(f.Eval("!GetAtt [Bucket]") == kShape);
  CHECK(f.Eval("!GetAtt [Bucket, '']") == kShape);
  CHECK(f.Eval("!GetAtt ['', Arn]") == kShape);
  CHECK(f.Eval("!GetAtt [Bucket, Arn, X]") == kShape);
  CHECK(f.Eval("!GetAtt Nope.Arn") == "ERROR Template error: instance of Fn::GetAtt references undefined resource Nope");
}

TEST_CASE("Fn::Join", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!Join ['-', [a, b, c]]") == R"("a-b-c")");
  CHECK(f.Eval("!Join ['', []]") == R"("")");
  CHECK(f.Eval("!Join [',', !Ref Subnets]") == R"("subnet-a,subnet-b,subnet-c")");
  CHECK(f.Eval("!Join [',', !GetAZs '']") == R"("us-east-1a,us-east-1b,us-east-1c")");
  CHECK(f.Eval("!Join [':', [1, true, x]]") == R"("1:true:x")");
  // One unknown element makes the result unknown, with every ref.
  CHECK(f.Eval("!Join ['', ['arn:', !Ref Bucket, /, !GetAtt Stack.Outputs.X, !Ref Bucket]]") ==
        R"({"Unknown":["Bucket","Stack.Outputs.X"]})");
  CHECK(f.Eval("!Join [',', !GetAtt Bucket.List]") == R"({"Unknown":["Bucket.List"]})");
  const std::string kShape =
      "ERROR Template error: every Fn::Join object requires two parameters, (1) a string delimiter and "
      "(2) a list of strings to be joined or a function that returns a list of strings (such as "
      "Fn::GetAZs) to be joined.";
  CHECK(f.Eval("!Join [',']") == kShape);
  CHECK(f.Eval("!Join [',', a, b]") == kShape);
  CHECK(f.Eval("!Join [',', notalist]") == kShape);
  CHECK(f.Eval("!Join [[','], [a]]") == kShape);
  CHECK(f.Eval("!Join [',', [a, [b]]]") == kShape);
  CHECK(f.Eval("{Fn::Join: ','}") == kShape);
}

TEST_CASE("Fn::Sub", "[eval]") {
  Fixture f(kBase, {{"Env", "prod"}});
  CHECK(f.Eval("!Sub 'arn:${AWS::Partition}:s3:::${Env}-bucket'") == R"("arn:aws:s3:::prod-bucket")");
  CHECK(f.Eval("!Sub 'echo ${!HOME} ${AWS::Region}'") == R"("echo ${HOME} us-east-1")");
  CHECK(f.Eval("!Sub 'no variables'") == R"("no variables")");
  CHECK(f.Eval("!Sub '${Count}'") == R"("2")");
  // Variables map: values may be functions, and shadow template names.
  CHECK(f.Eval("!Sub ['${A}-${Env}-${B}', {A: !Join ['.', [x, y]], B: !Select [1, !Ref Subnets], Env: dev}]") ==
        R"("x.y-dev-subnet-b")");
  CHECK(f.Eval("!Sub ['${Inner}!', {Inner: !Sub '${AWS::StackName}-${Env}'}]") == R"("stack-prod!")");
  CHECK(f.Eval("!Sub ['${X}', {X: !If [IsProd, p, d]}]") == R"("p")");
  // Resources and attributes are not known before they exist.
  CHECK(f.Eval("!Sub '${Bucket}/${Bucket.Arn}/${Stack.Outputs.Name}'") ==
        R"({"Unknown":["Bucket","Bucket.Arn","Stack.Outputs.Name"]})");
  CHECK(f.Eval("!Sub ['${V}', {V: !GetAtt Bucket.DomainName}]") == R"({"Unknown":["Bucket.DomainName"]})");
  // An unused unknown variable does not make the result unknown.
  CHECK(f.Eval("!Sub ['fixed', {V: !Ref Bucket}]") == R"("fixed")");
  CHECK(f.Eval("!Sub '${Nope}'") ==
        "ERROR Template format error: Unresolved resource dependencies [Nope] in the Resources block of the template");
  CHECK(f.Eval("!Sub '${Subnets}'") ==
        "ERROR Template error: variable Subnets in Fn::Sub expression does not resolve to a string");
  CHECK(f.Eval("!Sub '${fe_err:-none}'") ==
        "ERROR Template error: variable names in Fn::Sub syntax must contain only alphanumeric "
        "characters, underscores, periods, and colons");
  const std::string kShape =
      "ERROR Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. "
      "Specify a string as first argument, and an optional second argument to specify a mapping of "
      "values to replace in the string";
  CHECK(f.Eval("!Sub ['${A}']") == kShape);
  CHECK(f.Eval("!Sub ['${A}', [a]]") == kShape);
  CHECK(f.Eval("!Sub [!Ref Env, {}]") == kShape);
  CHECK(f.Eval("{Fn::Sub: {a: b}}") == kShape);
  CHECK(f.Eval("!Sub ['${A}', {A: [x]}]") ==
        "ERROR Template error: every value of the context object of every Fn::Sub object must be a "
        "string or a function that returns a string");
}

TEST_CASE("Fn::Select", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!Select [1, [a, b, c]]") == R"("b")");
  CHECK(f.Eval("!Select ['2', [a, b, c]]") == R"("c")");
  CHECK(f.Eval("!Select [0, !GetAZs '']") == R"("us-east-1a")");
  CHECK(f.Eval("!Select [!Ref Count, !Ref Subnets]") == R"("subnet-c")");
  CHECK(f.Eval("!Select [1, [a, {k: v}]]") == R"({"k":"v"})");
  CHECK(f.Eval("!Select [0, !Split [',', !Ref Bucket]]") == R"({"Unknown":["Bucket"]})");
  CHECK(f.Eval("!Select [1, [a, !Ref Bucket]]") == R"({"Unknown":["Bucket"]})");
  CHECK(f.Eval("!Select [3, [a, b, c]]") == "ERROR Template error: Fn::Select cannot select nonexistent value at index 3");
  CHECK(f.Eval("!Select [-1, [a]]") == "ERROR Template error: Fn::Select cannot select nonexistent value at index -1");
  CHECK(f.Eval("!Select [0, []]") == "ERROR Template error: Fn::Select cannot select nonexistent value at index 0");
  const std::string kShape =
      "ERROR Template error: Fn::Select requires a list argument with two elements: an integer index and a list";
  CHECK(f.Eval("!Select [x, [a, b]]") == kShape);
  CHECK(f.Eval("!Select ['1.5', [a, b]]") == kShape);
  CHECK(f.Eval("!Select [0]") == kShape);
  CHECK(f.Eval("!Select [0, notalist]") == kShape);
  CHECK(f.Eval("!Select [true, [a]]") == kShape);
}

TEST_CASE("Fn::Split", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!Split [',', 'a,b,,c']") == R"(["a","b","","c"])");
  CHECK(f.Eval("!Split ['::', 'a::b']") == R"(["a","b"])");
  CHECK(f.Eval("!Split [',', '']") == R"([""])");
  CHECK(f.Eval("!Select [2, !Split ['-', !Sub '${AWS::Region}']]") == R"("1")");
  CHECK(f.Eval("!Split [',', !GetAtt Bucket.Csv]") == R"({"Unknown":["Bucket.Csv"]})");
  const std::string kShape =
      "ERROR Template error: every Fn::Split object requires two parameters, (1) a string delimiter and "
      "(2) a string to be split or a function that returns a string to be split.";
  CHECK(f.Eval("!Split [',']") == kShape);
  CHECK(f.Eval("!Split [',', [a]]") == kShape);
  CHECK(f.Eval("!Split ['', abc]") == kShape);
}

TEST_CASE("Fn::GetAZs and Fn::Base64", "[eval]") {
  Fixture f(kBase);
  const std::string kZones = R"(["us-east-1a","us-east-1b","us-east-1c"])";
  CHECK(f.Eval("!GetAZs ''") == kZones);
  CHECK(f.Eval("{Fn::GetAZs: null}") == kZones);
  CHECK(f.Eval("!GetAZs {Ref: AWS::Region}") == kZones);
  CHECK(f.Eval("!GetAZs eu-west-1") == R"(["eu-west-1a","eu-west-1b","eu-west-1c"])");
  CHECK(f.Eval("!GetAZs [a]") == "ERROR Template error: every Fn::GetAZs object must have a String-typed value.");
  CHECK(f.Eval("!Base64 'hello world'") == R"("aGVsbG8gd29ybGQ=")");
  CHECK(f.Eval("!Base64 ''") == R"("")");
  CHECK(f.Eval("!Base64 ab") == R"("YWI=")");
  CHECK(f.Eval("{Fn::Base64: !Sub \"#!/bin/bash\\necho ${AWS::Region}\"}") == R"("IyEvYmluL2Jhc2gKZWNobyB1cy1lYXN0LTE=")");
  CHECK(f.Eval("{Fn::Base64: !Ref Bucket}") == R"({"Unknown":["Bucket"]})");
  CHECK(f.Eval("!Base64 [a]") == "ERROR Template error: every Fn::Base64 object must have a String-typed value.");
}

TEST_CASE("Fn::Cidr as a function", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!Cidr ['10.0.0.0/16', 2, '8']") == R"(["10.0.0.0/24","10.0.1.0/24"])");
  CHECK(f.Eval("!Select [1, !Cidr [!GetAtt Bucket.CidrBlock, 4, 8]]") == R"({"Unknown":["Bucket.CidrBlock"]})");
  CHECK(f.Eval("!Cidr ['10.0.0.0/16', 2]") ==
        "ERROR Template error: every Fn::Cidr object requires three parameters, (1) an IP block, (2) the "
        "number of subnets (1 to 256) and (3) the number of subnet bits");
  CHECK(f.Eval("!Cidr ['10.0.0.0/24', 9, 5]") ==
        "ERROR Template error: Fn::Cidr cannot fit 9 subnets with 5 cidrBits in 10.0.0.0/24");
}

TEST_CASE("Fn::FindInMap", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!FindInMap [RegionMap, !Ref AWS::Region, AMI]") == R"("ami-111")");
  CHECK(f.Eval("!FindInMap [RegionMap, us-east-1, Zones]") == R"(["a","b"])");
  CHECK(f.Eval("!FindInMap [RegionMap, ap-south-1, AMI]") ==
        "ERROR Template error: Unable to get mapping for RegionMap::ap-south-1::AMI");
  CHECK(f.Eval("!FindInMap [Nope, us-east-1, AMI]") ==
        "ERROR Template error: Unable to get mapping for Nope::us-east-1::AMI");
  // With AWS::LanguageExtensions: a DefaultValue and any function in the keys.
  CHECK(f.Eval("!FindInMap [RegionMap, ap-south-1, AMI, {DefaultValue: ami-default}]") == R"("ami-default")");
  CHECK(f.Eval("!FindInMap [RegionMap, us-east-1, AMI, {DefaultValue: ami-default}]") == R"("ami-111")");
  CHECK(f.Eval("!FindInMap [RegionMap, !Join ['-', [eu, west, '1']], AMI]") == R"("ami-222")");
  CHECK(f.Eval("!FindInMap [RegionMap, !Ref Bucket, AMI]") == R"({"Unknown":["Bucket"]})");
  const std::string kShape =
      "ERROR Template error: every Fn::FindInMap object requires three parameters, the map name, map "
      "key and the attribute for return value";
  CHECK(f.Eval("!FindInMap [RegionMap, us-east-1]") == kShape);
  CHECK(f.Eval("!FindInMap [RegionMap, us-east-1, AMI, other]") == kShape);
  CHECK(f.Eval("!FindInMap [RegionMap, !Ref Subnets, AMI]") == kShape);
}

TEST_CASE("Fn::FindInMap without AWS::LanguageExtensions", "[eval]") {
  Fixture f(kPlain);
  CHECK(f.Eval("!FindInMap [RegionMap, !Ref AWS::Region, AMI]") == R"("ami-111")");
  const std::string kShape =
      "ERROR Template error: every Fn::FindInMap object requires three parameters, the map name, map "
      "key and the attribute for return value";
  CHECK(f.Eval("!FindInMap [RegionMap, us-east-1, AMI, {DefaultValue: x}]") == kShape);
  // Only Ref and Fn::FindInMap may compute a key (AWS rejects Fn::Join, Fn::Sub).
  CHECK(f.Eval("!FindInMap [RegionMap, !Sub '${AWS::Region}', AMI]") == kShape);
}

TEST_CASE("Fn::ImportValue", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!ImportValue shared-vpc") == R"({"Unknown":["Export:shared-vpc"]})");
  CHECK(f.Eval("{Fn::ImportValue: !Sub '${Env}-vpc'}") == R"({"Unknown":["Export:prod-vpc"]})");
  const std::string kDepends =
      "ERROR Template error: the attribute in Fn::ImportValue must not depend on any resources, "
      "imported values, or Fn::GetAZs";
  CHECK(f.Eval("{Fn::ImportValue: !Ref Bucket}") == kDepends);
  CHECK(f.Eval("{Fn::ImportValue: !Sub '${Bucket.Arn}-x'}") == kDepends);
  CHECK(f.Eval("{Fn::ImportValue: !Select [0, !GetAZs '']}") == kDepends);
  CHECK(f.Eval("{Fn::ImportValue: !ImportValue x}") == kDepends);
  CHECK(f.Eval("!ImportValue [a]") == "ERROR Template error: every Fn::ImportValue object requires a string export name");
}

TEST_CASE("Fn::Length and Fn::ToJsonString need AWS::LanguageExtensions", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!Length [a, b, c]") == "3");
  CHECK(f.Eval("{Fn::Length: !Ref Subnets}") == "3");
  CHECK(f.Eval("{Fn::Length: !Split [',', 'a,b']}") == "2");
  CHECK(f.Eval("!Length []") == "0");
  CHECK(f.Eval("{Fn::Length: !GetAtt Bucket.List}") == R"({"Unknown":["Bucket.List"]})");
  CHECK(f.Eval("!Length abc") == "ERROR Transform AWS::LanguageExtensions failed with: Fn::Length layout is incorrect");
  CHECK(f.Eval("!ToJsonString {a: !Ref Env, b: [1, true], c: {d: null}}") ==
        R"("{\"a\":\"prod\",\"b\":[1,true],\"c\":{\"d\":null}}")");
  CHECK(f.Eval("!ToJsonString [x, !Ref AWS::Region]") == R"("[\"x\",\"us-east-1\"]")");
  CHECK(f.Eval("!ToJsonString {arn: !GetAtt Bucket.Arn}") == R"({"Unknown":["Bucket.Arn"]})");
  CHECK(f.Eval("!ToJsonString plain") ==
        "ERROR Transform AWS::LanguageExtensions failed with: Fn::ToJsonString layout is incorrect");

  Fixture plain(kPlain);
  const std::string kList =
      " Supported functions are: [Fn::Base64, Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, "
      "Fn::Split, Fn::FindInMap, Fn::Select, Ref, Fn::Equals, Fn::If, Fn::Not, Condition, Fn::And, "
      "Fn::Or, Fn::Contains, Fn::EachMemberEquals, Fn::EachMemberIn, Fn::ValueOf, Fn::ValueOfAll, "
      "Fn::RefAll, Fn::Sub, Fn::Cidr]";
  CHECK(plain.Eval("!Length [a]") == "ERROR Template Error: Encountered unsupported function: Fn::Length" + kList);
  CHECK(plain.Eval("{Fn::ToJsonString: {a: b}}") ==
        "ERROR Template Error: Encountered unsupported function: Fn::ToJsonString" + kList);
}

TEST_CASE("unknown and misplaced functions", "[eval]") {
  Fixture f(kBase);
  const std::string kList =
      " Supported functions are: [Fn::Base64, Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, "
      "Fn::Split, Fn::FindInMap, Fn::Select, Ref, Fn::Equals, Fn::If, Fn::Not, Condition, Fn::And, "
      "Fn::Or, Fn::Contains, Fn::EachMemberEquals, Fn::EachMemberIn, Fn::ValueOf, Fn::ValueOfAll, "
      "Fn::RefAll, Fn::Sub, Fn::Cidr]";
  CHECK(f.Eval("{Fn::Foo: x}") == "ERROR Template Error: Encountered unsupported function: Fn::Foo" + kList);
  // AWS rejects a wrongly cased function name the same way.
  CHECK(f.Eval("{fn::GetAtt: [Bucket, Arn]}") ==
        "ERROR Template Error: Encountered unsupported function: fn::GetAtt" + kList);
  CHECK(f.Eval("{Props: {Fn::GetAZ: ''}}") == "ERROR Template Error: Encountered unsupported function: Fn::GetAZ" + kList);
  CHECK(f.Eval("{Fn::Transform: {Name: AWS::Include, Parameters: {Location: s3://b/k}}}") ==
        "ERROR Template error: Fn::Transform is not supported: moonstack does not run macros (AWS::Include runs "
        "when a stack or a change set is created or updated)");
  // Condition functions belong in Conditions and Rules.
  CHECK(f.Eval("!Equals [a, a]") ==
        "ERROR Template format error: Fn::Equals is only supported in the Conditions and Rules blocks of "
        "the template; use Fn::If with a named condition");
  CHECK(f.Eval("{Value: !Not [!Equals [a, b]]}", Section::kOutputs) ==
        "ERROR Template format error: Fn::Not is only supported in the Conditions and Rules blocks of the "
        "template; use Fn::If with a named condition");
  CHECK(f.Eval("!Contains [[a], a]") ==
        "ERROR Template format error: Fn::Contains is only supported in the Rules block of the template");
  // Outside Conditions, "Condition" is an ordinary key (IAM policies use it).
  CHECK(f.Eval("{Condition: {StringEquals: {'aws:SourceAccount': !Ref AWS::AccountId}}}") ==
        R"({"Condition":{"StringEquals":{"aws:SourceAccount":"123456789012"}}})");
  CHECK(f.Eval("{Condition: IsProd}") == R"({"Condition":"IsProd"})");
}

TEST_CASE("DeletionPolicy expressions may not use resources", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("!If [IsProd, Retain, Delete]", Section::kResourcePolicy) == R"("Retain")");
  CHECK(f.Eval("!FindInMap [RegionMap, us-east-1, AMI]", Section::kResourcePolicy) == R"("ami-111")");
  CHECK(f.Eval("!Ref Bucket", Section::kResourcePolicy) ==
        "ERROR Template format error: DeletionPolicy and UpdateReplacePolicy cannot reference resources: [Bucket]");
}

TEST_CASE("unknown values nest inside plain data", "[eval]") {
  Fixture f(kBase);
  CHECK(f.Eval("{Arn: !GetAtt Bucket.Arn, List: [!Ref Bucket, x], N: 5}") ==
        R"({"Arn":{"Unknown":["Bucket.Arn"]},"List":[{"Unknown":["Bucket"]},"x"],"N":5})");
  CHECK(f.Eval("{Fn::If: [IsProd, {Ref: Bucket}, b], Other: 1}") ==
        R"({"Fn::If":["IsProd",{"Unknown":["Bucket"]},"b"],"Other":1})");
}

TEST_CASE("deep nesting fails cleanly", "[eval]") {
  Fixture f(kBase);
  for (const char* fn : {"Fn::Base64", "Fn::Length", "Fn::Join"}) {
    Value v = Value::String("x");
    for (int i = 0; i < 2000; ++i) {
      Value outer = Value::MakeMap();
      if (std::string(fn) == "Fn::Join") {
        outer.set(fn, Value::MakeList({Value::String(","), Value::MakeList({std::move(v)})}));
      } else {
        outer.set(fn, std::move(v));
      }
      v = std::move(outer);
    }
    Value out;
    Status s = f.ev->Evaluate(v, Section::kResourceProperties, &out);
    CHECK(s.message() == "Template format error: template nesting is too deep.");
  }
  Value list = Value::String("x");
  for (int i = 0; i < 5000; ++i) list = Value::MakeList({std::move(list)});
  Value out;
  CHECK(f.ev->Evaluate(list, Section::kResourceProperties, &out).message() ==
        "Template format error: template nesting is too deep.");
  // Release iteratively: the recursive destructor would be the deep part.
  while (list.is_list() && !list.list().empty()) {
    Value inner = std::move(list.mutable_list()[0]);
    list = std::move(inner);
  }
}

TEST_CASE("evaluating 10000 chained resources gives every value", "[eval]") {
  // Timing lives in bench/bench_template; this checks the results at scale.
  std::string yaml =
      "Parameters:\n  Env: {Type: String, Default: prod}\n  Subnets: {Type: CommaDelimitedList, Default: 'a,b,c'}\n"
      "Conditions:\n  IsProd: !Equals [!Ref Env, prod]\nResources:\n  Base: {Type: AWS::SNS::Topic}\n";
  for (int i = 0; i < 10000; ++i) {
    std::string id = "Res" + std::to_string(i);
    std::string prev = i == 0 ? "Base" : "Res" + std::to_string(i - 1);
    yaml += "  " + id + ":\n    Type: AWS::SNS::Topic\n    Properties:\n"
            "      TopicName: !Sub '${AWS::StackName}-${Env}-" + id + "'\n"
            "      Other: !Ref " + prev + "\n"
            "      Subnet: !Select [1, !Ref Subnets]\n"
            "      Size: !If [IsProd, large, small]\n"
            "      Tags: [{Key: a, Value: !Join ['-', [x, !Ref Env]]}, {Key: b, Value: !GetAtt " + prev + ".Arn}]\n";
  }
  Fixture f(yaml);
  Value out;
  for (const ms::ResourceDecl& r : f.t.resources) {
    if (r.properties.is_null()) continue;
    REQUIRE(f.ev->Evaluate(r.properties, Section::kResourceProperties, &out).ok());
  }
  CHECK(out.find("Size")->str() == "large");
  CHECK(out.find("Subnet")->str() == "b");
  CHECK(out.find("Other")->unknown_refs() == std::vector<std::string>{"Res9998"});
}
