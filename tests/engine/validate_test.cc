// ValidateTemplate: what validate-template checks before any stack exists.
#include <catch2/catch.hpp>

#include "eval/validate.h"

namespace {

std::string Validate(const std::string& text, ms::TemplateSummary* summary = nullptr) {
  ms::Template t;
  ms::TemplateSummary local;
  ms::Status s = ms::ValidateTemplate(text, &t, summary ? summary : &local);
  return s.ok() ? "OK" : s.message();
}

}  // namespace

TEST_CASE("both branches of an Fn::If on an unknown condition are checked", "[validate]") {
  const std::string head =
      "Parameters: {Env: {Type: String}}\n"
      "Conditions: {IsProd: !Equals [!Ref Env, prod], InUsEast1: !Equals [!Ref 'AWS::Region', us-east-1]}\n"
      "Resources:\n"
      "  Prod: {Type: AWS::SNS::Topic, Condition: IsProd}\n";
  // A reference to a conditional resource is fine where that condition may hold.
  CHECK(Validate(head + "  Q: {Type: AWS::SQS::Queue, Properties: {QueueName: !If [IsProd, !GetAtt Prod.TopicName, "
                        "x]}}\n") == "OK");
  // A malformed function in the branch this region would not take still fails:
  // the region is not known at validation either.
  CHECK(Validate(head + "  Q: {Type: AWS::SQS::Queue, Properties: {QueueName: !If [InUsEast1, x, !Select [a, b]]}}\n") ==
        "Template error: Fn::Select requires a list argument with two elements: an integer index and a list");
  CHECK(Validate(head + "  Q: {Type: AWS::SQS::Queue, Properties: {QueueName: !If [IsProd, !Join [x], y]}}\n")
            .rfind("Template error: every Fn::Join object requires two parameters", 0) == 0);
}

TEST_CASE("functions are checked where they stand", "[validate]") {
  CHECK(Validate("Resources: {Q: {Type: AWS::SQS::Queue, Properties: {QueueName: !Equals [a, b]}}}")
            .find("Fn::Equals") != std::string::npos);
  CHECK(Validate("Conditions: {C: !Equals [!Ref Q, x]}\nResources: {Q: {Type: AWS::SQS::Queue}}") ==
        "Template format error: Unresolved dependencies [Q]. Cannot reference resources in the Conditions block "
        "of the template");
  // In Outputs AWS accepts it and fails the deploy (tests/cli/cdk_items_cli_test.cc).
  CHECK(Validate("Resources: {Q: {Type: AWS::SQS::Queue}}\nOutputs: {O: {Value: !GetAtt Q.Nope}}") == "OK");
  CHECK(Validate("Resources: {Q: {Type: AWS::SQS::Queue}, R: {Type: AWS::SQS::Queue, Properties: "
                 "{QueueName: !GetAtt Q.Nope}}}") ==
        "Template error: resource Q does not support attribute type Nope in Fn::GetAtt");
}

TEST_CASE("resource types must exist", "[validate]") {
  CHECK(Validate("Resources: {A: {Type: AWS::Foo::Bar}, B: {Type: AWS::Foo::Bar}, C: {Type: AWS::Baz::Qux}}") ==
        "Template format error: Unrecognized resource types: [AWS::Foo::Bar, AWS::Baz::Qux]");
  CHECK(Validate("Resources: {A: {Type: Custom::Anything, Properties: {ServiceToken: x}}, "
                 "B: {Type: AWS::SNS::Topic, Properties: {TopicName: !GetAtt A.Whatever}}}") == "OK");
}

TEST_CASE("capabilities: IAM resources, named ones", "[validate]") {
  ms::TemplateSummary s;
  REQUIRE(Validate("Resources: {R: {Type: AWS::IAM::Role, Properties: {AssumeRolePolicyDocument: {}}}}", &s) ==
          "OK");
  CHECK(s.capabilities == std::vector<std::string>{"CAPABILITY_IAM"});
  CHECK(s.capabilities_reason == "The following resource(s) require capabilities: [AWS::IAM::Role]");
  REQUIRE(Validate("Resources: {R: {Type: AWS::IAM::Role, Properties: {RoleName: r, AssumeRolePolicyDocument: {}}}, "
                   "P: {Type: AWS::IAM::InstanceProfile, Properties: {Roles: [!Ref R]}}}",
                   &s) == "OK");
  CHECK(s.capabilities == std::vector<std::string>{"CAPABILITY_NAMED_IAM"});
  CHECK(s.capabilities_reason ==
        "The following resource(s) require capabilities: [AWS::IAM::Role, AWS::IAM::InstanceProfile]");
  REQUIRE(Validate("Resources: {T: {Type: AWS::SNS::Topic}}", &s) == "OK");
  CHECK(s.capabilities.empty());
}
