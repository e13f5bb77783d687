// Template parameters: types, declarations, resolution, constraints, world
// checks. Messages are AWS's (see engine/eval/parameters.cc for sources).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "eval/environment.h"
#include "eval/parameters.h"
#include "template/template.h"

namespace ms {
namespace {

ParameterDecl Decl(const std::string& name, const std::string& type) {
  ParameterDecl p;
  p.name = name;
  p.type = type;
  return p;
}

Template WithParams(std::vector<ParameterDecl> params) {
  Template t;
  for (ParameterDecl& p : params) {
    t.parameter_index[p.name] = t.parameters.size();
    t.parameters.push_back(std::move(p));
  }
  return t;
}

ParameterInput Given(const std::string& key, const std::string& value) {
  ParameterInput in;
  in.key = key;
  in.value = value;
  return in;
}

ParameterInput UsePrevious(const std::string& key) {
  ParameterInput in;
  in.key = key;
  in.use_previous_value = true;
  return in;
}

// Resolves one parameter p given `value`; returns the status.
Status ResolveOne(const ParameterDecl& p, const std::string& value, ParameterValues* out) {
  Template t = WithParams({p});
  return ResolveParameters(t, {Given(p.name, value)}, {}, out);
}

Status ResolveOne(const ParameterDecl& p, const std::string& value) {
  ParameterValues out;
  return ResolveOne(p, value, &out);
}

std::vector<std::string> Strings(const Value& v) {
  std::vector<std::string> out;
  for (const Value& item : v.list()) out.push_back(item.str());
  return out;
}

Template Load(const std::string& yaml) {
  Template t;
  Status s = LoadTemplate(yaml, &t);
  INFO(s.message());
  REQUIRE(s.ok());
  return t;
}

const char kResources[] = "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n";

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

const char* const kAwsSpecific[] = {
    "AWS::EC2::AvailabilityZone::Name", "AWS::EC2::Image::Id",
    "AWS::EC2::Instance::Id",           "AWS::EC2::KeyPair::KeyName",
    "AWS::EC2::SecurityGroup::GroupName", "AWS::EC2::SecurityGroup::Id",
    "AWS::EC2::Subnet::Id",             "AWS::EC2::Volume::Id",
    "AWS::EC2::VPC::Id",                "AWS::Route53::HostedZone::Id",
};

TEST_CASE("every documented parameter type is known", "[params]") {
  for (const char* t : {"String", "Number", "List<Number>", "List<String>", "CommaDelimitedList",
                        "AWS::SSM::Parameter::Name", "AWS::SSM::Parameter::Value<String>",
                        "AWS::SSM::Parameter::Value<List<String>>",
                        "AWS::SSM::Parameter::Value<CommaDelimitedList>",
                        "AWS::SSM::Parameter::Value<Number>",
                        "AWS::SSM::Parameter::Value<AWS::SSM::Parameter::Name>"}) {
    INFO(t);
    CHECK(IsKnownParameterType(t));
  }
  for (const char* base : kAwsSpecific) {
    std::string b = base;
    INFO(b);
    CHECK(IsKnownParameterType(b));
    CHECK(IsKnownParameterType("List<" + b + ">"));
    CHECK(IsKnownParameterType("AWS::SSM::Parameter::Value<" + b + ">"));
    CHECK(IsKnownParameterType("AWS::SSM::Parameter::Value<List<" + b + ">>"));
  }
}

TEST_CASE("unknown parameter types", "[params]") {
  for (const char* t : {"", "string", "Strin", "Integer", "List", "List<>", "list<String>",
                        "List<List<String>>", "List<CommaDelimitedList>",
                        "List<AWS::SSM::Parameter::Value<String>>",  // documented as unsupported
                        "AWS::SSM::Parameter::Value<Test>", "AWS::SSM::Parameter::Value<>",
                        "AWS::SSM::Parameter::Value<AWS::SSM::Parameter::Value<String>>",
                        "AWS::EC2::VPC::Id ", "AWS::S3::Bucket::Name"}) {
    INFO(t);
    CHECK_FALSE(IsKnownParameterType(t));
  }
}

TEST_CASE("list types, AWS-specific element types, SSM types", "[params]") {
  CHECK(IsListParameterType("CommaDelimitedList"));
  CHECK(IsListParameterType("List<Number>"));
  CHECK(IsListParameterType("List<AWS::EC2::Subnet::Id>"));
  CHECK(IsListParameterType("AWS::SSM::Parameter::Value<List<String>>"));
  CHECK(IsListParameterType("AWS::SSM::Parameter::Value<CommaDelimitedList>"));
  CHECK_FALSE(IsListParameterType("String"));
  CHECK_FALSE(IsListParameterType("Number"));
  CHECK_FALSE(IsListParameterType("AWS::SSM::Parameter::Value<String>"));

  CHECK(AwsSpecificElementType("AWS::EC2::VPC::Id") == "AWS::EC2::VPC::Id");
  CHECK(AwsSpecificElementType("List<AWS::EC2::Subnet::Id>") == "AWS::EC2::Subnet::Id");
  CHECK(AwsSpecificElementType("String").empty());
  CHECK(AwsSpecificElementType("List<Number>").empty());
  CHECK(AwsSpecificElementType("AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>").empty());

  std::string inner;
  CHECK(IsSsmParameterType("AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>", &inner));
  CHECK(inner == "AWS::EC2::Image::Id");
  CHECK(IsSsmParameterType("AWS::SSM::Parameter::Value<List<String>>", &inner));
  CHECK(inner == "List<String>");
  CHECK_FALSE(IsSsmParameterType("AWS::SSM::Parameter::Name"));
  CHECK_FALSE(IsSsmParameterType("String"));
}

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

TEST_CASE("declarations: unrecognized type", "[params]") {
  Template t = WithParams({Decl("P", "NotString")});
  Status s = ValidateParameterDecls(t);
  CHECK(s.message() == "Template format error: Unrecognized parameter type: NotString");
  t = WithParams({Decl("P", "AWS::SSM::Parameter::Value<Test>")});
  CHECK(ValidateParameterDecls(t).message() ==
        "Template format error: Unrecognized parameter type: AWS::SSM::Parameter::Value<Test>");
}

TEST_CASE("declarations: names, missing Type, count", "[params]") {
  CHECK(ValidateParameterDecls(WithParams({Decl("AWS::NoValue", "String")})).message() ==
        "Template format error: Parameter name AWS::NoValue is non alphanumeric.");
  CHECK(ValidateParameterDecls(WithParams({Decl("P", "")})).message() ==
        "Template format error: Every Parameters object must contain a Type member.");

  std::vector<ParameterDecl> many;
  for (int i = 0; i < 200; ++i) many.push_back(Decl("P" + std::to_string(i), "String"));
  CHECK(ValidateParameterDecls(WithParams(many)).ok());
  many.push_back(Decl("P200", "String"));
  CHECK(ValidateParameterDecls(WithParams(many)).message() ==
        "Template format error: Parameter count 201 is greater than max allowed 200");
}

TEST_CASE("declarations: a Default that is a function", "[params]") {
  // E2014 in cfn-lint; the loader rejects the shape before any value check.
  Template t;
  CHECK(ms::LoadTemplate("Parameters: {P: {Type: String, Default: !Ref AWS::NoValue}}\n"
                         "Resources: {A: {Type: AWS::SNS::Topic}}",
                         &t)
            .message() == "Template format error: Every Default member must be a string.");
  CHECK(ms::LoadTemplate("Parameters: {P: {Type: String, AllowedValues: 'vpc!@#$'}}\n"
                         "Resources: {A: {Type: AWS::SNS::Topic}}",
                         &t)
            .message() == "Template format error: Every AllowedValues member must be a list.");
}

// The cases of cfn-lint's bad/parameters/default.yaml (E2015): a Default
// outside its own constraints is rejected with the value's message.
TEST_CASE("declarations: Default must satisfy the constraints", "[params]") {
  ParameterDecl pattern = Decl("myAllowedPattern", "String");
  pattern.default_value = "vpc!@#$";
  pattern.allowed_pattern = "^[a-zA-Z0-9]*$";
  CHECK(ValidateParameterDecls(WithParams({pattern})).message() ==
        "Parameter 'myAllowedPattern' must match pattern ^[a-zA-Z0-9]*$");

  ParameterDecl min_value = Decl("myMinValue", "Number");
  min_value.default_value = "0";
  min_value.min_value = 1;
  CHECK(ValidateParameterDecls(WithParams({min_value})).message() ==
        "Parameter 'myMinValue' must be a number not less than 1");

  ParameterDecl max_value = Decl("myMaxValue", "Number");
  max_value.default_value = "1";
  max_value.max_value = 0;
  CHECK(ValidateParameterDecls(WithParams({max_value})).message() ==
        "Parameter 'myMaxValue' must be a number not greater than 0");

  ParameterDecl allowed = Decl("myAllowedValue", "String");
  allowed.default_value = "us-east-1a";
  allowed.allowed_values = {"us-east-1b", "us-east-1c", "us-east-1d"};
  CHECK(ValidateParameterDecls(WithParams({allowed})).message() ==
        "Parameter 'myAllowedValue' must be one of AllowedValues");

  ParameterDecl min_length = Decl("myMinLength", "String");
  min_length.default_value = "abc";
  min_length.min_length = 5;
  CHECK(ValidateParameterDecls(WithParams({min_length})).message() ==
        "Parameter 'myMinLength' must contain at least 5 characters");

  ParameterDecl max_length = Decl("myMaxLength", "String");
  max_length.default_value = "abc";
  max_length.max_length = 1;
  CHECK(ValidateParameterDecls(WithParams({max_length})).message() ==
        "Parameter 'myMaxLength' must contain at most 1 characters");

  // CommaDelimitedList: per element since December 2022.
  ParameterDecl cdl_pattern = Decl("CDLAllowedPattern", "CommaDelimitedList");
  cdl_pattern.default_value = "1,2";
  cdl_pattern.allowed_pattern = "[a-z]*$";
  cdl_pattern.constraint_description = "Alphanumeric string of any length.";
  CHECK(ValidateParameterDecls(WithParams({cdl_pattern})).message() ==
        "Parameter CDLAllowedPattern failed to satisfy constraint: Alphanumeric string of any length.");

  ParameterDecl cdl_values = Decl("CDLAllowedValues", "CommaDelimitedList");
  cdl_values.default_value = "three";
  cdl_values.allowed_values = {"one", "two", "three,four"};
  CHECK_FALSE(ValidateParameterDecls(WithParams({cdl_values})).ok());

  // Elements are trimmed: "three, four" has elements "three" and "four".
  ParameterDecl cdl_spaces = Decl("CDLAllowedValuesWithSpaces", "CommaDelimitedList");
  cdl_spaces.default_value = "three,four";
  cdl_spaces.allowed_values = {"one", "two", "three, four"};
  CHECK_FALSE(ValidateParameterDecls(WithParams({cdl_spaces})).ok());

  ParameterDecl ok = Decl("Ok", "CommaDelimitedList");
  ok.default_value = "one, two";
  ok.allowed_values = {"one", "two"};
  CHECK(ValidateParameterDecls(WithParams({ok})).ok());
}

TEST_CASE("declarations: a valid Parameters section through the loader", "[params]") {
  Template t = Load(std::string("Parameters:\n"
                                "  DBPort:\n"
                                "    Default: 3306\n"
                                "    Type: Number\n"
                                "    MinValue: 1150\n"
                                "    MaxValue: 65535\n"
                                "  DBPwd:\n"
                                "    NoEcho: true\n"
                                "    Type: String\n"
                                "    MinLength: 1\n"
                                "    MaxLength: 41\n"
                                "    AllowedPattern: ^[a-zA-Z0-9]*$\n"
                                "  Subnets:\n"
                                "    Type: List<AWS::EC2::Subnet::Id>\n"
                                "  Image:\n"
                                "    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>\n"
                                "    Default: /aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2\n") +
                    kResources);
  CHECK(ValidateParameterDecls(t).ok());
}

// The patterns themselves are tested in java_regex_test.cc.
TEST_CASE("declarations: invalid AllowedPattern is an error, never a crash", "[params]") {
  ParameterDecl bad = Decl("P", "String");
  bad.allowed_pattern = "(abc";
  CHECK(ValidateParameterDecls(WithParams({bad})).message() ==
        "Template format error: Parameter 'P' AllowedPattern must be a valid regular expression: "
        "Unclosed group");
  for (const char* pattern : {"[a-", "abc)", "\\1", "(?<=a)b", "((a{1000}){1000}){1000}"}) {
    INFO(pattern);
    ParameterDecl p = Decl("P", "String");
    p.allowed_pattern = pattern;
    Status s = ValidateParameterDecls(WithParams({p}));
    CHECK_FALSE(s.ok());
    CHECK(s.message().rfind("Template format error: Parameter 'P' AllowedPattern must be a valid "
                            "regular expression", 0) == 0);
    CHECK_FALSE(ResolveOne(p, "abc").ok());
  }
}

// ---------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------

TEST_CASE("missing values are reported together, in template order", "[params]") {
  ParameterDecl b = Decl("Bravo", "String");
  ParameterDecl a = Decl("Alpha", "String");
  ParameterDecl c = Decl("Charlie", "String");
  c.default_value = "x";
  Template t = WithParams({b, a, c});
  ParameterValues out;
  CHECK(ResolveParameters(t, {}, {}, &out).message() == "Parameters: [Bravo, Alpha] must have values");
  CHECK(ResolveParameters(t, {Given("Alpha", "1")}, {}, &out).message() ==
        "Parameters: [Bravo] must have values");
  REQUIRE(ResolveParameters(t, {Given("Alpha", "1"), Given("Bravo", "")}, {}, &out).ok());
  REQUIRE(out.list.size() == 3);
  CHECK(out.list[0].name == "Bravo");
  CHECK(out.list[0].value == Value::String(""));  // empty is a value
  CHECK(out.Find("Charlie")->text == "x");
  CHECK(out.Find("Nope") == nullptr);
}

TEST_CASE("unknown parameters", "[params]") {
  Template t = WithParams({Decl("A", "String")});
  ParameterValues out;
  CHECK(ResolveParameters(t, {Given("A", "1"), Given("X", "2"), Given("Y", "3"), Given("X", "4")},
                          {}, &out)
            .message() == "Parameters: [X, Y] do not exist in the template");
  // Unknown keys are reported before missing values.
  Template t2 = WithParams({Decl("A", "String"), Decl("B", "String")});
  CHECK(ResolveParameters(t2, {Given("Z", "1")}, {}, &out).message() ==
        "Parameters: [Z] do not exist in the template");
  CHECK(ResolveParameters(Template(), {Given("Z", "1")}, {}, &out).message() ==
        "Parameter values specified for a template which does not require them.");
  CHECK(ResolveParameters(Template(), {}, {}, &out).ok());
}

TEST_CASE("given, previous and default values", "[params]") {
  ParameterDecl a = Decl("A", "String");
  a.default_value = "default";
  Template t = WithParams({a});
  std::map<std::string, std::string> previous{{"A", "old"}};
  ParameterValues out;

  REQUIRE(ResolveParameters(t, {}, previous, &out).ok());
  CHECK(out.list[0].text == "default");  // not given: the default, not the previous value
  REQUIRE(ResolveParameters(t, {UsePrevious("A")}, previous, &out).ok());
  CHECK(out.list[0].text == "old");
  REQUIRE(ResolveParameters(t, {Given("A", "new")}, previous, &out).ok());
  CHECK(out.list[0].text == "new");

  CHECK(ResolveParameters(t, {UsePrevious("A")}, {}, &out).message() ==
        "Cannot specify usePreviousValue as true for a parameter key not in the previous template");
  ParameterInput both = UsePrevious("A");
  both.value = "x";
  CHECK(ResolveParameters(t, {both}, previous, &out).message() ==
        "Invalid input for parameter key A. Cannot specify usePreviousValue as true and non empty "
        "value for a parameter");
  both.value = "";
  CHECK(ResolveParameters(t, {both}, previous, &out).ok());

  // The previous value is checked against the new constraints.
  ParameterDecl strict = Decl("A", "String");
  strict.allowed_values = {"new"};
  CHECK(ResolveParameters(WithParams({strict}), {UsePrevious("A")}, previous, &out).message() ==
        "Parameter 'A' must be one of AllowedValues");
}

TEST_CASE("NoEcho values are masked for display", "[params]") {
  ParameterDecl p = Decl("Password", "String");
  p.no_echo = true;
  ParameterValues out;
  REQUIRE(ResolveOne(p, "hunter2", &out).ok());
  CHECK(out.list[0].no_echo);
  CHECK(out.list[0].text == "hunter2");  // the real value stays available
  CHECK(DisplayValue(out.list[0]) == "****");
  REQUIRE(ResolveOne(Decl("Plain", "String"), "visible", &out).ok());
  CHECK(DisplayValue(out.list[0]) == "visible");
}

// ---------------------------------------------------------------------------
// Types of values
// ---------------------------------------------------------------------------

TEST_CASE("Number values", "[params]") {
  ParameterDecl n = Decl("Value", "Number");
  for (const char* ok : {"0", "-0", "+5", "42", "3.14", ".5", "5.", "1e3", "1E-3", "-2.5e+10",
                         "007"}) {
    INFO(ok);
    ParameterValues out;
    REQUIRE(ResolveOne(n, ok, &out).ok());
    CHECK(out.list[0].value == Value::String(ok));  // the text as given, a String
  }
  for (const char* bad : {"", " 5", "5 ", "abc", "1e", "e3", "--1", "0x10", "Infinity", "NaN",
                          "1,000", "1.2.3", "."}) {
    INFO(bad);
    CHECK(ResolveOne(n, bad).message() == "Parameter 'Value' must be a number.");
  }
}

TEST_CASE("Number bounds", "[params]") {
  ParameterDecl n = Decl("AvailabilityZoneCount", "Number");
  n.min_value = 1;
  n.max_value = 3;
  CHECK(ResolveOne(n, "1").ok());
  CHECK(ResolveOne(n, "3").ok());
  CHECK(ResolveOne(n, "2.5").ok());
  CHECK(ResolveOne(n, "0").message() ==
        "Parameter 'AvailabilityZoneCount' must be a number not less than 1");
  CHECK(ResolveOne(n, "4").message() ==
        "Parameter 'AvailabilityZoneCount' must be a number not greater than 3");
  CHECK(ResolveOne(n, "3e0").ok());
  CHECK(ResolveOne(n, "1e3").message() ==
        "Parameter 'AvailabilityZoneCount' must be a number not greater than 3");
  n.min_value = 0.5;
  CHECK(ResolveOne(n, "0.25").message() ==
        "Parameter 'AvailabilityZoneCount' must be a number not less than 0.5");
  n.min_value = 0;
  CHECK(ResolveOne(n, "-0").ok());
}

TEST_CASE("String lengths and patterns", "[params]") {
  ParameterDecl s = Decl("Name", "String");
  s.min_length = 0;
  CHECK(ResolveOne(s, "").ok());
  s.min_length = 1;
  CHECK(ResolveOne(s, "").message() == "Parameter 'Name' must contain at least 1 characters");
  s.min_length.reset();
  s.max_length = 3;
  CHECK(ResolveOne(s, "abc").ok());
  CHECK(ResolveOne(s, "abcd").message() == "Parameter 'Name' must contain at most 3 characters");
  // Lengths count UTF-16 code units, as Java does: é is 1, an emoji 2.
  CHECK(ResolveOne(s, "\xC3\xA9\xC3\xA9\xC3\xA9").ok());
  CHECK(ResolveOne(s, "a\xF0\x9F\x98\x80").ok());
  CHECK_FALSE(ResolveOne(s, "ab\xF0\x9F\x98\x80").ok());

  ParameterDecl p = Decl("Name", "String");
  p.allowed_pattern = "[a-z]+";
  CHECK(ResolveOne(p, "abc").ok());
  // The pattern must match the whole value.
  CHECK(ResolveOne(p, "abc1").message() == "Parameter 'Name' must match pattern [a-z]+");
  CHECK(ResolveOne(p, "").message() == "Parameter 'Name' must match pattern [a-z]+");
}

TEST_CASE("ConstraintDescription replaces the constraint messages", "[params]") {
  ParameterDecl p = Decl("CreateVPNEndpoint", "String");
  p.allowed_values = {"false", "true"};
  p.constraint_description = "Must specify 'true' or 'false'";
  CHECK(ResolveOne(p, "maybe").message() ==
        "Parameter CreateVPNEndpoint failed to satisfy constraint: Must specify 'true' or 'false'");
  ParameterDecl n = Decl("Port", "Number");
  n.min_value = 10;
  n.constraint_description = "must be at least 10";
  CHECK(ResolveOne(n, "5").message() ==
        "Parameter Port failed to satisfy constraint: must be at least 10");
  // Not a constraint: the type check keeps its own message.
  CHECK(ResolveOne(n, "x").message() == "Parameter 'Port' must be a number.");
}

TEST_CASE("CommaDelimitedList values", "[params]") {
  ParameterDecl p = Decl("L", "CommaDelimitedList");
  ParameterValues out;
  REQUIRE(ResolveOne(p, "test,dev,prod", &out).ok());
  CHECK(Strings(out.list[0].value) == std::vector<std::string>{"test", "dev", "prod"});
  CHECK(out.list[0].text == "test,dev,prod");
  // "each member string is space trimmed"
  REQUIRE(ResolveOne(p, " 10.0.48.0/24, 10.0.112.0/24 ,10.0.176.0/24 ", &out).ok());
  CHECK(Strings(out.list[0].value) ==
        std::vector<std::string>{"10.0.48.0/24", "10.0.112.0/24", "10.0.176.0/24"});
  // "one more than the total number of commas": empty members stay.
  REQUIRE(ResolveOne(p, "a,,b,", &out).ok());
  CHECK(Strings(out.list[0].value) == std::vector<std::string>{"a", "", "b", ""});
  REQUIRE(ResolveOne(p, "", &out).ok());
  CHECK(Strings(out.list[0].value) == std::vector<std::string>{""});

  ParameterDecl allowed = Decl("L", "CommaDelimitedList");
  allowed.allowed_values = {"a", "b"};
  CHECK(ResolveOne(allowed, "a, b,a").ok());
  CHECK(ResolveOne(allowed, "a,c").message() == "Parameter 'L' must be one of AllowedValues");

  ParameterDecl pattern = Decl("Profiles", "CommaDelimitedList");
  pattern.allowed_pattern = "\\w+";
  CHECK(ResolveOne(pattern, "dev,test").ok());
  CHECK(ResolveOne(pattern, "dev").ok());
  CHECK_FALSE(ResolveOne(pattern, "dev,").ok());  // the empty member fails \w+

  ParameterDecl lengths = Decl("L", "CommaDelimitedList");
  lengths.max_length = 2;
  CHECK(ResolveOne(lengths, "ab, cd").ok());
  CHECK(ResolveOne(lengths, "ab,cde").message() == "Parameter 'L' must contain at most 2 characters");
}

TEST_CASE("List<Number> values", "[params]") {
  ParameterDecl p = Decl("Ports", "List<Number>");
  ParameterValues out;
  REQUIRE(ResolveOne(p, "80,20", &out).ok());
  CHECK(Strings(out.list[0].value) == std::vector<std::string>{"80", "20"});
  REQUIRE(ResolveOne(p, "80, 443", &out).ok());
  CHECK(Strings(out.list[0].value) == std::vector<std::string>{"80", "443"});
  CHECK(ResolveOne(p, "80,x").message() == "Parameter 'Ports' must be a number.");
  CHECK(ResolveOne(p, "80,,443").message() == "Parameter 'Ports' must be a number.");
  CHECK(ResolveOne(p, "").message() == "Parameter 'Ports' must be a number.");
  p.max_value = 1000;
  CHECK(ResolveOne(p, "80,8080").message() == "Parameter 'Ports' must be a number not greater than 1000");
}

TEST_CASE("AWS-specific values resolve like strings and lists", "[params]") {
  ParameterValues out;
  REQUIRE(ResolveOne(Decl("Vpc", "AWS::EC2::VPC::Id"), "vpc-123", &out).ok());
  CHECK(out.list[0].value == Value::String("vpc-123"));
  REQUIRE(ResolveOne(Decl("Subnets", "List<AWS::EC2::Subnet::Id>"), "subnet-1, subnet-2", &out).ok());
  CHECK(Strings(out.list[0].value) == std::vector<std::string>{"subnet-1", "subnet-2"});
  // String constraints apply to AWS-specific types (cfn-lint #2193).
  ParameterDecl sg = Decl("Sg", "AWS::EC2::SecurityGroup::Id");
  sg.min_length = 1;
  CHECK(ResolveOne(sg, "").message() == "Parameter 'Sg' must contain at least 1 characters");
}

TEST_CASE("SSM parameters are unknown until the workflow resolves them", "[params]") {
  ParameterDecl p = Decl("Image", "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>");
  ParameterValues out;
  REQUIRE(ResolveOne(p, "/images/latest", &out).ok());
  CHECK(out.list[0].text == "/images/latest");
  CHECK(out.list[0].value == Value::Unknown({"Image"}));
  // A list SSM type takes one key; commas are not split.
  ParameterDecl l = Decl("L", "AWS::SSM::Parameter::Value<List<String>>");
  REQUIRE(ResolveOne(l, "/a,b", &out).ok());
  CHECK(out.list[0].value == Value::Unknown({"L"}));
  CHECK(out.list[0].text == "/a,b");
  // Constraints apply to the key.
  ParameterDecl k = Decl("K", "AWS::SSM::Parameter::Value<String>");
  k.allowed_pattern = "/[a-z/]+";
  CHECK(ResolveOne(k, "/ok/key").ok());
  CHECK(ResolveOne(k, "no-slash").message() == "Parameter 'K' must match pattern /[a-z/]+");
}

TEST_CASE("values are at most 4096 bytes", "[params]") {
  ParameterDecl p = Decl("P", "String");
  CHECK(ResolveOne(p, std::string(4096, 'a')).ok());
  CHECK(ResolveOne(p, std::string(4097, 'a')).message() ==
        "Parameter 'P' value must be no longer than 4096 bytes");
  // The longest value against a pattern that backtracking matchers choke on.
  p.allowed_pattern = "(a*)*b|[a-z]*";
  CHECK(ResolveOne(p, std::string(4096, 'a')).ok());
}

// ---------------------------------------------------------------------------
// The world: AWS-specific values and SSM parameters.
// ---------------------------------------------------------------------------

class FakeWorld : public EvalEnvironment {
 public:
  std::set<std::string> existing;  // "type|value"
  std::map<std::string, std::string> ssm;

  bool AwsValueExists(std::string_view type, std::string_view value) const override {
    return existing.count(std::string(type) + "|" + std::string(value)) != 0;
  }
  bool SsmParameter(std::string_view name, std::string* value) const override {
    auto it = ssm.find(std::string(name));
    if (it == ssm.end()) return false;
    *value = it->second;
    return true;
  }
};

TEST_CASE("AWS-specific values must exist at workflow start", "[params]") {
  FakeWorld world;
  world.existing = {"AWS::EC2::VPC::Id|vpc-1", "AWS::EC2::Subnet::Id|subnet-1",
                    "AWS::EC2::Subnet::Id|subnet-2"};
  Template t = WithParams({Decl("VpcId", "AWS::EC2::VPC::Id"),
                           Decl("Subnets", "List<AWS::EC2::Subnet::Id>"),
                           Decl("Name", "String")});
  ParameterValues values;
  REQUIRE(ResolveParameters(t, {Given("VpcId", "vpc-1"), Given("Subnets", "subnet-1, subnet-2"),
                                Given("Name", "n")},
                            {}, &values)
              .ok());
  CHECK(CheckParametersAgainstWorld(world, &values).ok());

  REQUIRE(ResolveParameters(t, {Given("VpcId", "vpc-9"), Given("Subnets", "subnet-1"),
                                Given("Name", "n")},
                            {}, &values)
              .ok());
  CHECK(CheckParametersAgainstWorld(world, &values).message() ==
        "Parameter validation failed: parameter value vpc-9 for parameter name VpcId does not exist");

  REQUIRE(ResolveParameters(t, {Given("VpcId", "vpc-1"), Given("Subnets", "subnet-1,subnet-3"),
                                Given("Name", "n")},
                            {}, &values)
              .ok());
  CHECK(CheckParametersAgainstWorld(world, &values).message() ==
        "Parameter validation failed: parameter value subnet-3 for parameter name Subnets does not exist");
}

TEST_CASE("SSM parameters resolve at workflow start", "[params]") {
  FakeWorld world;
  world.ssm = {{"/ami/latest", "ami-123"}, {"/cidrs", "10.0.0.0/16,10.1.0.0/16"}, {"/type", "t3.micro"}};
  world.existing = {"AWS::EC2::Image::Id|ami-123"};
  Template t = WithParams({Decl("Image", "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>"),
                           Decl("Cidrs", "AWS::SSM::Parameter::Value<List<String>>"),
                           Decl("Type", "AWS::SSM::Parameter::Value<String>"),
                           Decl("Key", "AWS::SSM::Parameter::Name")});
  ParameterValues values;
  REQUIRE(ResolveParameters(t, {Given("Image", "/ami/latest"), Given("Cidrs", "/cidrs"),
                                Given("Type", "/type"), Given("Key", "/type")},
                            {}, &values)
              .ok());
  REQUIRE(CheckParametersAgainstWorld(world, &values).ok());
  CHECK(values.Find("Image")->ssm_resolved == std::optional<std::string>("ami-123"));
  CHECK(values.Find("Image")->value == Value::String("ami-123"));
  CHECK(values.Find("Image")->text == "/ami/latest");
  CHECK(Strings(values.Find("Cidrs")->value) ==
        std::vector<std::string>{"10.0.0.0/16", "10.1.0.0/16"});
  CHECK(values.Find("Type")->value == Value::String("t3.micro"));
  CHECK_FALSE(values.Find("Key")->ssm_resolved.has_value());
  CHECK(values.Find("Key")->value == Value::String("/type"));

  // Every missing key at once.
  REQUIRE(ResolveParameters(t, {Given("Image", "/nope"), Given("Cidrs", "/cidrs"),
                                Given("Type", "/gone"), Given("Key", "/type")},
                            {}, &values)
              .ok());
  CHECK(CheckParametersAgainstWorld(world, &values).message() ==
        "Unable to fetch parameters [/nope, /gone] from parameter store for this account.");

  // The SSM value of an AWS-specific type must exist too.
  world.ssm["/ami/latest"] = "ami-gone";
  REQUIRE(ResolveParameters(t, {Given("Image", "/ami/latest"), Given("Cidrs", "/cidrs"),
                                Given("Type", "/type"), Given("Key", "/type")},
                            {}, &values)
              .ok());
  CHECK(CheckParametersAgainstWorld(world, &values).message() ==
        "Parameter validation failed: parameter value ami-gone for parameter name Image does not exist");
}

}  // namespace
}  // namespace ms
