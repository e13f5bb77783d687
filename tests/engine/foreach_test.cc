// AWS::LanguageExtensions: Fn::ForEach expansion.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "template/language_extensions.h"
#include "template/template.h"
#include "test_util.h"

namespace ms {
namespace {

using Lists = std::map<std::string, std::vector<std::string>>;

Status Expand(Value* doc, const Lists& lists = {}) {
  return ExpandLanguageExtensions(doc, [&lists](std::string_view name, std::vector<std::string>* out) {
    auto it = lists.find(std::string(name));
    if (it == lists.end()) return false;
    *out = it->second;
    return true;
  });
}

// Expands `yaml` and returns the result; fails the test on error.
Value Expanded(const std::string& yaml, const Lists& lists = {}) {
  Value doc = test::Doc(yaml);
  Status s = Expand(&doc, lists);
  INFO(s.message());
  REQUIRE(s.ok());
  return doc;
}

std::string ExpandError(const std::string& yaml, const Lists& lists = {}) {
  Value doc = test::Doc(yaml);
  Status s = Expand(&doc, lists);
  REQUIRE_FALSE(s.ok());
  return s.message();
}

std::vector<std::string> Keys(const Value& map) {
  std::vector<std::string> out;
  for (const Member& m : map.map()) out.push_back(m.key);
  return out;
}

const std::string kHeader = "Transform: AWS::LanguageExtensions\n";
const std::string kPrefix = "Transform AWS::LanguageExtensions failed with: ";

TEST_CASE("the transform is recognised as a string or in a list", "[foreach]") {
  CHECK(UsesLanguageExtensions(test::Doc("Transform: AWS::LanguageExtensions\nResources: {}\n")));
  CHECK(UsesLanguageExtensions(
      test::Doc("Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]\n")));
  CHECK_FALSE(UsesLanguageExtensions(test::Doc("Transform: AWS::Serverless-2016-10-31\n")));
  CHECK_FALSE(UsesLanguageExtensions(test::Doc("Resources: {}\n")));
}

TEST_CASE("without the transform nothing is expanded", "[foreach]") {
  const std::string yaml =
      "Resources:\n"
      "  Fn::ForEach::Topics:\n"
      "    - Name\n"
      "    - [A, B]\n"
      "    - Topic${Name}:\n"
      "        Type: AWS::SNS::Topic\n";
  Value doc = test::Doc(yaml);
  Value before = doc;
  REQUIRE(Expand(&doc).ok());
  CHECK(doc == before);
}

TEST_CASE("a loop in Resources replicates the fragment", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  First:\n"
                       "    Type: AWS::SNS::Topic\n"
                       "  'Fn::ForEach::Topics':\n"
                       "    - TopicName\n"
                       "    - [Success, Failure]\n"
                       "    - 'SnsTopic${TopicName}':\n"
                       "        Type: AWS::SNS::Topic\n"
                       "        Properties:\n"
                       "          TopicName: !Ref TopicName\n"
                       "          DisplayName: !Sub '${TopicName}-${AWS::Region}-${!TopicName}'\n"
                       "          Plain: '${TopicName}'\n"
                       "          Tags:\n"
                       "            - Key: !Sub 'k-&{TopicName}'\n"
                       "              Value: !Join ['.', [!Ref TopicName, fifo]]\n"
                       "          Nested:\n"
                       "            'Key${TopicName}': x\n"
                       "  Last:\n"
                       "    Type: AWS::SNS::Topic\n");
  const Value& resources = *doc.find("Resources");
  CHECK(Keys(resources) ==
        std::vector<std::string>{"First", "SnsTopicSuccess", "SnsTopicFailure", "Last"});
  CHECK(resources.find("SnsTopicFailure")->ToJson() ==
        test::Doc("Type: AWS::SNS::Topic\n"
                  "Properties:\n"
                  "  TopicName: Failure\n"
                  "  DisplayName: {Fn::Sub: 'Failure-${AWS::Region}-${!TopicName}'}\n"
                  "  Plain: '${TopicName}'\n"
                  "  Tags:\n"
                  "    - Key: {Fn::Sub: 'k-&{TopicName}'}\n"
                  "      Value: {Fn::Join: ['.', [Failure, fifo]]}\n"
                  "  Nested:\n"
                  "    'Key${TopicName}': x\n")
            .ToJson());
  // The transform declaration stays.
  CHECK(doc.find("Transform")->str() == "AWS::LanguageExtensions");
}

TEST_CASE("&{} drops non-alphanumeric characters from keys", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  Fn::ForEach::Buckets:\n"
                       "    - Name\n"
                       "    - [my-bucket.one, 'a_b c']\n"
                       "    - Bucket&{Name}:\n"
                       "        Type: AWS::S3::Bucket\n"
                       "        Properties:\n"
                       "          BucketName: !Ref Name\n");
  const Value& resources = *doc.find("Resources");
  CHECK(Keys(resources) == std::vector<std::string>{"Bucketmybucketone", "Bucketabc"});
  CHECK(resources.find("Bucketabc")->find("Properties")->find("BucketName")->str() == "a_b c");
}

TEST_CASE("produced names must be alphanumeric", "[foreach]") {
  CHECK(ExpandError(kHeader +
                    "Parameters:\n"
                    "  Names:\n"
                    "    Type: CommaDelimitedList\n"
                    "Resources:\n"
                    "  'Fn::ForEach::LoopName':\n"
                    "    - SNSName\n"
                    "    - !Ref Names\n"
                    "    - 'Topic${SNSName}':\n"
                    "        Type: AWS::SNS::Topic\n",
                    {{"Names", {"shigematsu-kodai", "kurameso-taro"}}}) ==
        kPrefix + "OutputKey 'Topicshigematsu-kodai' should be alphanumeric");
}

TEST_CASE("collections from list parameters", "[foreach]") {
  const std::string yaml = kHeader +
                           "Resources:\n"
                           "  Fn::ForEach::Queues:\n"
                           "    - QueueName\n"
                           "    - !Ref QueueNames\n"
                           "    - Queue${QueueName}:\n"
                           "        Type: AWS::SQS::Queue\n";
  Value doc = Expanded(yaml, {{"QueueNames", {"A", "B", "C"}}});
  CHECK(Keys(*doc.find("Resources")) == std::vector<std::string>{"QueueA", "QueueB", "QueueC"});
  // An empty list produces nothing.
  doc = Expanded(yaml, {{"QueueNames", {}}});
  CHECK(doc.find("Resources")->map().empty());
  CHECK(ExpandError(yaml) ==
        kPrefix + "Could not find a collection or could not be resolved for Fn::ForEach");
}

TEST_CASE("collections from Fn::FindInMap", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Mappings:\n"
                       "  Envs:\n"
                       "    Names:\n"
                       "      List: [Dev, Prod]\n"
                       "Resources:\n"
                       "  Fn::ForEach::Envs:\n"
                       "    - Env\n"
                       "    - !FindInMap [Envs, Names, List]\n"
                       "    - Topic${Env}:\n"
                       "        Type: AWS::SNS::Topic\n"
                       "  Fn::ForEach::Defaults:\n"
                       "    - D\n"
                       "    - !FindInMap [Envs, Names, Missing, {DefaultValue: [X]}]\n"
                       "    - Other${D}:\n"
                       "        Type: AWS::SNS::Topic\n");
  CHECK(Keys(*doc.find("Resources")) == std::vector<std::string>{"TopicDev", "TopicProd", "OtherX"});
}

TEST_CASE("malformed loops", "[foreach]") {
  const std::string layout = kPrefix + "Fn::ForEach layout is incorrect";
  // The collection is a string.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - A,B\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") == layout);
  // Not three elements.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [A]\n") == layout);
  // Not a list.
  CHECK(ExpandError(kHeader + "Resources:\n  Fn::ForEach::L: {X: [A]}\n") == layout);
  // The identifier is not a string.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - [X]\n"
                    "    - [A]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") == layout);
  // The fragment is not a map.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [A]\n"
                    "    - T${X}\n") == layout);
  // No loop name.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  'Fn::ForEach::':\n"
                    "    - X\n"
                    "    - [A]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") == layout);
  // A collection item that cannot be resolved.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [A, {Fn::GetAtt: [R, Arn]}]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "Could not find a collection or could not be resolved for Fn::ForEach");
  // The OutputKey does not use the identifier.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [A, B]\n"
                    "    - Topic: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "the OutputKey Topic of Fn::ForEach::L must contain ${X} or &{X}");
}

TEST_CASE("duplicate produced keys", "[foreach]") {
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [A, A]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "the key TA is produced more than once by Fn::ForEach");
  // A literal resource with the same name, before or after the loop.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  TB: {Type: AWS::SNS::Topic}\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [A, B]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "the key TB is produced more than once by Fn::ForEach");
  CHECK_FALSE(ExpandError(kHeader +
                          "Resources:\n"
                          "  Fn::ForEach::L:\n"
                          "    - X\n"
                          "    - [A, B]\n"
                          "    - T${X}: {Type: AWS::SNS::Topic}\n"
                          "  TA: {Type: AWS::SNS::Topic}\n")
                   .empty());
  // &{} can make two items collide.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - X\n"
                    "    - [a-b, ab]\n"
                    "    - T&{X}: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "the key Tab is produced more than once by Fn::ForEach");
}

TEST_CASE("loop names are unique and not logical IDs", "[foreach]") {
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Topics: {Type: AWS::SNS::Topic}\n"
                    "  Fn::ForEach::Topics:\n"
                    "    - X\n"
                    "    - [A]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "the loop name Topics conflicts with a logical ID in the Resources section");
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::Loop:\n"
                    "    - X\n"
                    "    - [A]\n"
                    "    - T${X}: {Type: AWS::SNS::Topic}\n"
                    "Outputs:\n"
                    "  Fn::ForEach::Loop:\n"
                    "    - X\n"
                    "    - [A]\n"
                    "    - O${X}: {Value: x}\n") ==
        kPrefix + "the loop name Loop is used more than once; loop names must be unique within "
                  "the template");
}

TEST_CASE("loops are only allowed in Resources, Conditions and Outputs", "[foreach]") {
  CHECK(ExpandError(kHeader +
                    "Mappings:\n"
                    "  Fn::ForEach::M:\n"
                    "    - X\n"
                    "    - [A]\n"
                    "    - M${X}: {k: {v: x}}\n"
                    "Resources: {}\n") ==
        kPrefix + "Fn::ForEach is not supported in the Mappings section; it is supported in the "
                  "Resources, Conditions and Outputs sections");
  CHECK_FALSE(ExpandError(kHeader +
                          "Parameters:\n"
                          "  P:\n"
                          "    Type: String\n"
                          "    Default: {Fn::ForEach::X: [X, [A], {a: b}]}\n"
                          "Resources: {}\n")
                   .empty());
}

TEST_CASE("nested loops", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  Fn::ForEach::Endpoints:\n"
                       "    - Endpoint\n"
                       "    - [E1, E2]\n"
                       "    - Fn::ForEach::Groups:\n"
                       "        - Group\n"
                       "        - [G1, G2, G3]\n"
                       "        - Ingress${Endpoint}${Group}:\n"
                       "            Type: AWS::EC2::SecurityGroupIngress\n"
                       "            Properties:\n"
                       "              GroupId: !Ref Endpoint\n"
                       "              SourceSecurityGroupId: !Ref Group\n"
                       "              Description: !Sub '${Endpoint} to ${Group}'\n"
                       "      Marker${Endpoint}:\n"
                       "        Type: AWS::SNS::Topic\n");
  const Value& resources = *doc.find("Resources");
  CHECK(Keys(resources) ==
        std::vector<std::string>{"IngressE1G1", "IngressE1G2", "IngressE1G3", "MarkerE1",
                                 "IngressE2G1", "IngressE2G2", "IngressE2G3", "MarkerE2"});
  const Value& props = *resources.find("IngressE2G3")->find("Properties");
  CHECK(props.find("GroupId")->str() == "E2");
  CHECK(props.find("SourceSecurityGroupId")->str() == "G3");
  CHECK(props.find("Description")->ToJson() == R"({"Fn::Sub":"E2 to G3"})");
}

TEST_CASE("an inner collection may use the outer identifier", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Mappings:\n"
                       "  Ports:\n"
                       "    Web: {List: ['80', '443']}\n"
                       "    Db: {List: ['5432']}\n"
                       "Resources:\n"
                       "  Fn::ForEach::Services:\n"
                       "    - Service\n"
                       "    - [Web, Db]\n"
                       "    - Fn::ForEach::Ports:\n"
                       "        - Port\n"
                       "        - !FindInMap [Ports, !Ref Service, List]\n"
                       "        - ${Service}Port${Port}:\n"
                       "            Type: AWS::SNS::Topic\n");
  CHECK(Keys(*doc.find("Resources")) ==
        std::vector<std::string>{"WebPort80", "WebPort443", "DbPort5432"});
}

TEST_CASE("a loop inside resource properties", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  Table:\n"
                       "    Type: AWS::DynamoDB::Table\n"
                       "    Properties:\n"
                       "      Fn::ForEach::Props:\n"
                       "        - P\n"
                       "        - [a, b]\n"
                       "        - VAR_${P}: !Sub 'value-${P}'\n"
                       "      Other: 1\n");
  const Value& props = *doc.find("Resources")->find("Table")->find("Properties");
  CHECK(Keys(props) == std::vector<std::string>{"VAR_a", "VAR_b", "Other"});
  CHECK(props.find("VAR_b")->ToJson() == R"({"Fn::Sub":"value-b"})");
}

TEST_CASE("loops in Conditions and Outputs", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Conditions:\n"
                       "  Fn::ForEach::Envs:\n"
                       "    - Env\n"
                       "    - [Dev, Prod]\n"
                       "    - Is${Env}: !Equals [!Ref Stage, !Ref Env]\n"
                       "Resources:\n"
                       "  Fn::ForEach::Buckets:\n"
                       "    - Env\n"
                       "    - [Dev, Prod]\n"
                       "    - Bucket${Env}:\n"
                       "        Type: AWS::S3::Bucket\n"
                       "        Condition: !Sub Is${Env}\n"
                       "Outputs:\n"
                       "  Fn::ForEach::BucketOutputs:\n"
                       "    - Identifier\n"
                       "    - [Dev, Prod]\n"
                       "    - Fn::ForEach::GetAttLoop:\n"
                       "        - Property\n"
                       "        - [Arn, DomainName]\n"
                       "        - Bucket${Identifier}${Property}:\n"
                       "            Value: !GetAtt [!Sub 'Bucket${Identifier}', !Ref Property]\n"
                       "            Export:\n"
                       "              Name: !Sub '${AWS::StackName}-${Identifier}-${Property}'\n");
  const Value& conditions = *doc.find("Conditions");
  CHECK(Keys(conditions) == std::vector<std::string>{"IsDev", "IsProd"});
  CHECK(conditions.find("IsProd")->ToJson() == R"({"Fn::Equals":[{"Ref":"Stage"},"Prod"]})");
  CHECK(doc.find("Resources")->find("BucketProd")->find("Condition")->str() == "IsProd");
  const Value& outputs = *doc.find("Outputs");
  CHECK(Keys(outputs) == std::vector<std::string>{"BucketDevArn", "BucketDevDomainName",
                                                  "BucketProdArn", "BucketProdDomainName"});
  CHECK(outputs.find("BucketProdArn")->find("Value")->ToJson() ==
        R"({"Fn::GetAtt":["BucketProd","Arn"]})");
}

TEST_CASE("Ref to an Fn::Sub names a copy", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  Fn::ForEach::Pairs:\n"
                       "    - X\n"
                       "    - [A, B]\n"
                       "    - Topic${X}:\n"
                       "        Type: AWS::SNS::Topic\n"
                       "      Sub${X}:\n"
                       "        Type: AWS::SNS::Subscription\n"
                       "        Properties:\n"
                       "          TopicArn: !Ref {Fn::Sub: 'Topic${X}'}\n"
                       "          Endpoint: !Ref {Fn::Sub: '${AWS::Region}${X}'}\n");
  const Value& props = *doc.find("Resources")->find("SubB")->find("Properties");
  CHECK(props.find("TopicArn")->ToJson() == R"({"Ref":"TopicB"})");
  // A variable left for the evaluator keeps the Fn::Sub.
  CHECK(props.find("Endpoint")->ToJson() == R"({"Ref":{"Fn::Sub":"${AWS::Region}B"}})");
}

TEST_CASE("an inner identifier shadows an outer one", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  Fn::ForEach::Outer:\n"
                       "    - X\n"
                       "    - [A]\n"
                       "    - Fn::ForEach::Inner:\n"
                       "        - X\n"
                       "        - [B]\n"
                       "        - T${X}:\n"
                       "            Type: AWS::SNS::Topic\n"
                       "            Properties: {TopicName: !Ref X}\n");
  CHECK(Keys(*doc.find("Resources")) == std::vector<std::string>{"TB"});
}

TEST_CASE("numbers and booleans in a collection are their text", "[foreach]") {
  Value doc = Expanded(kHeader +
                       "Resources:\n"
                       "  Fn::ForEach::L:\n"
                       "    - N\n"
                       "    - [1, 250, true]\n"
                       "    - T${N}x:\n"
                       "        Type: AWS::SNS::Topic\n"
                       "        Properties: {TopicName: !Ref N}\n");
  const Value& resources = *doc.find("Resources");
  CHECK(Keys(resources) == std::vector<std::string>{"T1x", "T250x", "Ttruex"});
  CHECK(resources.find("T250x")->find("Properties")->find("TopicName")->ToJson() == R"("250")");
  // "2.5" makes a logical ID that is not alphanumeric.
  CHECK(ExpandError(kHeader +
                    "Resources:\n"
                    "  Fn::ForEach::L:\n"
                    "    - N\n"
                    "    - [2.5]\n"
                    "    - T${N}: {Type: AWS::SNS::Topic}\n") ==
        kPrefix + "OutputKey 'T2.5' should be alphanumeric");
}

TEST_CASE("the expansion is bounded", "[foreach]") {
  std::string items = "[";
  for (int i = 0; i < 200; ++i) items += (i ? "," : "") + std::to_string(i);
  items += "]";
  std::string yaml = kHeader +
                     "Resources:\n"
                     "  Fn::ForEach::A:\n"
                     "    - X\n"
                     "    - " + items + "\n"
                     "    - Fn::ForEach::B:\n"
                     "        - Y\n"
                     "        - " + items + "\n"
                     "        - T${X}x${Y}:\n"
                     "            Type: AWS::SNS::Topic\n";
  CHECK(ExpandError(yaml) == kPrefix + "Fn::ForEach produces more than 20000 members");
}

TEST_CASE("LoadTemplate expands loops with parameter defaults", "[foreach]") {
  Template t;
  Status s = LoadTemplate(kHeader +
                              "Parameters:\n"
                              "  Names:\n"
                              "    Type: CommaDelimitedList\n"
                              "    Default: Alpha,Beta\n"
                              "Resources:\n"
                              "  Fn::ForEach::Topics:\n"
                              "    - Name\n"
                              "    - !Ref Names\n"
                              "    - Topic${Name}:\n"
                              "        Type: AWS::SNS::Topic\n"
                              "        Properties:\n"
                              "          TopicName: !Ref Name\n",
                          &t);
  INFO(s.message());
  REQUIRE(s.ok());
  REQUIRE(t.resources.size() == 2);
  CHECK(t.resources[0].logical_id == "TopicAlpha");
  CHECK(t.resources[1].logical_id == "TopicBeta");
  CHECK(t.resources[1].properties.find("TopicName")->str() == "Beta");
}

}  // namespace
}  // namespace ms
