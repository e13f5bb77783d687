// LoadTemplate: sections, resource attributes and their AWS errors.
#include <catch2/catch.hpp>

#include "template/template.h"

using ms::LoadTemplate;
using ms::Status;
using ms::Template;

namespace {

std::string LoadError(const std::string& text) {
  Template t;
  Status s = LoadTemplate(text, &t);
  return s.ok() ? "OK" : s.message();
}

}  // namespace

TEST_CASE("a minimal template loads with its sections", "[template]") {
  Template t;
  Status s = LoadTemplate(R"(
AWSTemplateFormatVersion: 2010-09-09
Description: demo
Parameters:
  Env: {Type: String, Default: dev, AllowedValues: [dev, prod], NoEcho: 'true'}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Condition: IsProd
    DependsOn: [Queue]
    DeletionPolicy: Retain
    UpdateReplacePolicy: Snapshot
    Metadata: {a: b}
  Queue:
    Type: AWS::SQS::Queue
    Properties: {DelaySeconds: 5}
Outputs:
  Arn:
    Value: !Ref Topic
    Condition: IsProd
    Export: {Name: !Sub '${AWS::StackName}-arn'}
)", &t);
  INFO(s.message());
  REQUIRE(s.ok());
  CHECK(t.format_version == "2010-09-09");
  CHECK(t.description.str() == "demo");
  REQUIRE(t.parameters.size() == 1);
  CHECK(t.parameters[0].default_value == std::optional<std::string>("dev"));
  CHECK(t.parameters[0].allowed_values == std::vector<std::string>{"dev", "prod"});
  CHECK(t.parameters[0].no_echo);
  REQUIRE(t.resources.size() == 2);
  const ms::ResourceDecl* topic = t.FindResource("Topic");
  REQUIRE(topic != nullptr);
  CHECK(topic->type == "AWS::SNS::Topic");
  CHECK(topic->condition == "IsProd");
  CHECK(topic->depends_on == std::vector<std::string>{"Queue"});
  CHECK(topic->deletion_policy.str() == "Retain");
  CHECK(topic->properties.is_null());
  CHECK(t.FindResource("Queue")->properties.find("DelaySeconds")->str() == "5");
  REQUIRE(t.outputs.size() == 1);
  CHECK(t.outputs[0].condition == "IsProd");
  CHECK(t.outputs[0].export_name.function_name() == "Fn::Sub");
}

TEST_CASE("top-level structure errors use AWS's messages", "[template]") {
  CHECK(LoadError("Resources: {}") == "Template format error: At least one Resources member must be defined.");
  CHECK(LoadError("Description: x") == "Template format error: At least one Resources member must be defined.");
  CHECK(LoadError("[1, 2]") == "Template format error: unsupported structure.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic}}\nFormatVersion: x\nOther: 1") ==
        "Template format error: Invalid template property or properties [FormatVersion, Other]");
  CHECK(LoadError("AWSTemplateFormatVersion: '2010-09-10'\nResources: {A: {Type: AWS::SNS::Topic}}")
            .rfind("Template format error: '2010-09-10' is not a valid AWSTemplateFormatVersion", 0) == 0);
  CHECK(LoadError("Transform: AWS::Serverless-2016-10-31\nResources: {A: {Type: AWS::SNS::Topic}}")
            .find("AWS::Serverless-2016-10-31 is not supported") != std::string::npos);
  CHECK(LoadError("Transform: {key: ATransform}\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Key Name of transform definition must be a string.");
  CHECK(LoadError("Description: [a]\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Every Description member must be a string.");
}

TEST_CASE("resource declaration errors", "[template]") {
  CHECK(LoadError("Resources: {A: {Properties: {}}}") ==
        "Template format error: [/Resources/A] Every Resources object must contain a Type member.");
  CHECK(LoadError("Resources: {A: [1]}") == "Template format error: Any Resources member must be an object.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, Invalid: 1}}") ==
        "Invalid template resource property 'Invalid'");
  CHECK(LoadError("Resources: {my.Instance: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Resource name my.Instance is non alphanumeric.");
  CHECK(LoadError("Resources: {AWS::NoValue: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Resource name AWS::NoValue is non alphanumeric.");
  CHECK(LoadError("Parameters: {AWS::NoValue: {Type: String}}\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Parameter name AWS::NoValue is non alphanumeric.");
  CHECK(LoadError("Resources: {A: {Type: AWS.yaml::EC2::VPC}}") ==
        "Template format error: Unrecognized resource types: [AWS.yaml::EC2::VPC]");
  CHECK(LoadError("Resources: {A: {Type: !Ref T}}") ==
        "Template format error: [/Resources/A/Type] Every Type member must be a string.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, Condition: [C]}}") ==
        "Template format error: Every Condition member in Resources must be a string.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, DeletionPolicy: CopyRegion}}") ==
        "Template format error: Unrecognized DeletionPolicy CopyRegion for resource A");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, DeletionPolicy: [Snapshot]}}") ==
        "Template format error: Every DeletionPolicy member must be a string.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, DeletionPolicy: !Cidr [a, 1, 2]}}") ==
        "Template format error: Every DeletionPolicy member must be a string.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, CreationPolicy: !Ref P}}") ==
        "Template format error: [/Resources/A/CreationPolicy] Every CreationPolicy member must be an object.");
  CHECK(LoadError("Parameters: {A: {Type: String}}\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Resource and parameter names must be unique: A is declared as both.");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic, DependsOn: [{Ref: B}]}}") ==
        "Template format error: [/Resources/A/DependsOn] Every DependsOn value must be a string.");
}

TEST_CASE("policies may be chosen by Ref, Fn::If or Fn::FindInMap", "[template]") {
  CHECK(LoadError(R"(
Parameters: {P: {Type: String}}
Resources:
  A: {Type: AWS::SNS::Topic, DeletionPolicy: !Ref P, UpdateReplacePolicy: RetainExceptOnCreate}
  B: {Type: AWS::SNS::Topic, CreationPolicy: !If [C, {ResourceSignal: {Count: 1}}, {ResourceSignal: {Count: 2}}]}
)") == "OK");
}

TEST_CASE("parameter declaration errors", "[template]") {
  CHECK(LoadError("Parameters: {P: {Default: x}}\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Every Parameters object must contain a Type member.");
  CHECK(LoadError("Parameters: {P: {Type: String, Default: !Ref AWS::Region}}\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Every Default member must be a string.");
  CHECK(LoadError("Parameters: {P: {Type: String, Bogus: 1}}\nResources: {A: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Invalid template parameter property 'Bogus'");
}

TEST_CASE("output declaration errors", "[template]") {
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic}}\nOutputs: {O: {Description: d}}") ==
        "Template format error: Every Outputs member must contain a Value object");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic}}\nOutputs: {O: null}") ==
        "Template format error: Every Outputs member must contain a Value object");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic}}\nOutputs: {O: {Value: null}}") ==
        "[/Outputs/O/Value] 'null' values are not allowed in templates");
  CHECK(LoadError("Resources: {A: {Type: AWS::SNS::Topic}}\nOutputs: {O: {Value: x, Export: {Bad: y}}}") ==
        "Template format error: Output O is malformed. Every Export member must contain a Name.");
}

TEST_CASE("mapping shape errors", "[template]") {
  CHECK(LoadError("Mappings: {A: x}\nResources: {R: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Every Mappings member A must be a map");
  CHECK(LoadError("Mappings: {A: {K: {V: {Ref: X}}}}\nResources: {R: {Type: AWS::SNS::Topic}}") ==
        "Template format error: Every Mappings attribute must be a String or a List.");
}
