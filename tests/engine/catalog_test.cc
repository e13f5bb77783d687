// ResourceCatalog: the embedded AWS resource types, their GetAtt attributes
// and top-level properties.
#include <catch2/catch.hpp>

#include <string>

#include "catalog/resource_catalog.h"

using ms::ResourceCatalog;
using ms::ResourceTypeInfo;

TEST_CASE("known AWS types are found, unknown ones are not", "[catalog]") {
  const ResourceCatalog& c = ResourceCatalog::Aws();
  CHECK(c.size() > 1000);
  for (const char* type : {"AWS::S3::Bucket", "AWS::KMS::Key", "AWS::EC2::Instance", "AWS::RDS::DBInstance",
                           "AWS::Lambda::Function", "AWS::IAM::Role", "AWS::SNS::Topic", "AWS::SQS::Queue",
                           "AWS::CloudFormation::WaitCondition", "AWS::CloudFormation::WaitConditionHandle",
                           "AWS::CloudFormation::Stack", "AWS::CloudFormation::CustomResource",
                           "AWS::SSM::Parameter", "Alexa::ASK::Skill"}) {
    INFO(type);
    const ResourceTypeInfo* info = c.Find(type);
    REQUIRE(info != nullptr);
    CHECK(info->type == type);
  }
  CHECK(c.Find("AWS::EC2::KeyXXXPair") == nullptr);
  CHECK(c.Find("AWS::DynamoTable") == nullptr);
  CHECK(c.Find("aws::s3::bucket") == nullptr);  // case-sensitive, as AWS
  CHECK(c.Find("") == nullptr);
  CHECK(c.Find("AWS::S3::Bucket ") == nullptr);
  CHECK(c.Find("Module") == nullptr);
  CHECK(c.Find("My::Org::Thing::MODULE") == nullptr);
  // types() is sorted and Find agrees with it.
  const auto& all = c.types();
  for (size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1].type < all[i].type);
  for (const auto& t : all) CHECK(c.Find(t.type) == &t);
}

TEST_CASE("GetAtt attributes", "[catalog]") {
  const ResourceCatalog& c = ResourceCatalog::Aws();
  const ResourceTypeInfo* key = c.Find("AWS::KMS::Key");
  REQUIRE(key != nullptr);
  CHECK(key->HasAttribute("Arn"));
  CHECK(key->HasAttribute("KeyId"));
  CHECK_FALSE(key->HasAttribute("ArnA"));
  CHECK_FALSE(key->HasAttribute("Ar"));
  CHECK_FALSE(key->HasAttribute("arn"));
  CHECK_FALSE(key->HasAttribute(""));
  CHECK_FALSE(key->AcceptsAnyAttribute());

  const ResourceTypeInfo* db = c.Find("AWS::RDS::DBInstance");
  REQUIRE(db != nullptr);
  CHECK(db->HasAttribute("Endpoint.Address"));
  CHECK(db->HasAttribute("Endpoint.Port"));
  CHECK_FALSE(db->HasAttribute("Endpoint.Nope"));

  const ResourceTypeInfo* bucket = c.Find("AWS::S3::Bucket");
  REQUIRE(bucket != nullptr);
  for (const char* a : {"Arn", "DomainName", "DualStackDomainName", "RegionalDomainName", "WebsiteURL"}) {
    INFO(a);
    CHECK(bucket->HasAttribute(a));
  }
  CHECK_FALSE(bucket->HasAttribute("BucketName"));  // a property, not an attribute

  const ResourceTypeInfo* fn = c.Find("AWS::Lambda::Function");
  REQUIRE(fn != nullptr);
  CHECK(fn->HasAttribute("Arn"));
  CHECK(fn->HasAttribute("SnapStartResponse.ApplyOn"));

  const ResourceTypeInfo* handle = c.Find("AWS::CloudFormation::WaitConditionHandle");
  REQUIRE(handle != nullptr);
  CHECK_FALSE(handle->HasAttribute("Data"));
  const ResourceTypeInfo* wait = c.Find("AWS::CloudFormation::WaitCondition");
  REQUIRE(wait != nullptr);
  CHECK(wait->HasAttribute("Data"));
}

TEST_CASE("nested stacks accept Outputs.<Name>", "[catalog]") {
  const ResourceTypeInfo* stack = ResourceCatalog::Aws().Find("AWS::CloudFormation::Stack");
  REQUIRE(stack != nullptr);
  CHECK(stack->HasAttribute("Outputs.VpcId"));
  CHECK(stack->HasAttribute("Outputs.X"));
  CHECK_FALSE(stack->HasAttribute("Outputs"));
  CHECK_FALSE(stack->HasAttribute("Arn"));
  CHECK_FALSE(stack->AcceptsAnyAttribute());
}

TEST_CASE("custom resources accept any attribute", "[catalog]") {
  const ResourceCatalog& c = ResourceCatalog::Aws();
  for (const char* type : {"Custom::Thing", "Custom::TagVpcPeeringConnection", "Custom::a-b_c@d",
                           "AWS::CloudFormation::CustomResource"}) {
    INFO(type);
    const ResourceTypeInfo* info = c.Find(type);
    REQUIRE(info != nullptr);
    CHECK(info->AcceptsAnyAttribute());
    CHECK(info->HasAttribute("Anything"));
    CHECK(info->HasAttribute("Nested.Name"));
    CHECK(info->open_properties);
    const auto* token = info->FindProperty("ServiceToken");
    REQUIRE(token != nullptr);
    CHECK(token->required);
  }
  CHECK(ResourceCatalog::IsCustomType("Custom::X"));
  CHECK_FALSE(ResourceCatalog::IsCustomType("Custom::"));
  CHECK_FALSE(ResourceCatalog::IsCustomType("Custom::a b"));
  CHECK_FALSE(ResourceCatalog::IsCustomType("Custom::" + std::string(61, 'x')));
  CHECK(c.Find("Custom::") == nullptr);
  CHECK(c.Find("Custom::a b") == nullptr);
}

TEST_CASE("top-level properties and their flags", "[catalog]") {
  const ResourceCatalog& c = ResourceCatalog::Aws();
  const ResourceTypeInfo* ec2 = c.Find("AWS::EC2::Instance");
  REQUIRE(ec2 != nullptr);
  CHECK_FALSE(ec2->open_properties);
  const auto* image = ec2->FindProperty("ImageId");
  REQUIRE(image != nullptr);
  CHECK(image->name == "ImageId");
  CHECK(image->create_only);
  CHECK_FALSE(image->read_only);
  const auto* itype = ec2->FindProperty("InstanceType");
  REQUIRE(itype != nullptr);
  CHECK_FALSE(itype->create_only);
  CHECK_FALSE(itype->required);
  const auto* instance_id = ec2->FindProperty("InstanceId");
  REQUIRE(instance_id != nullptr);
  CHECK(instance_id->read_only);
  CHECK(ec2->FindProperty("NoSuchProperty") == nullptr);
  CHECK(ec2->FindProperty("imageid") == nullptr);

  const ResourceTypeInfo* topic = c.Find("AWS::SNS::Topic");
  REQUIRE(topic != nullptr);
  const auto* name = topic->FindProperty("TopicName");
  REQUIRE(name != nullptr);
  CHECK(name->create_only);

  const ResourceTypeInfo* sg_ingress = c.Find("AWS::EC2::SecurityGroupIngress");
  REQUIRE(sg_ingress != nullptr);
  const auto* proto = sg_ingress->FindProperty("IpProtocol");
  REQUIRE(proto != nullptr);
  CHECK(proto->required);

  const ResourceTypeInfo* key = c.Find("AWS::KMS::Key");
  REQUIRE(key != nullptr);
  const auto* window = key->FindProperty("PendingWindowInDays");
  REQUIRE(window != nullptr);
  CHECK(window->write_only);

  // Properties are sorted, so FindProperty's binary search sees them all.
  for (const auto& t : c.types()) {
    for (const auto& p : t.properties) CHECK(t.FindProperty(p.name) == &p);
    for (const auto& a : t.attributes) CHECK(t.HasAttribute(a));
  }
}

TEST_CASE("Parse rejects malformed text and skips comments", "[catalog]") {
  ResourceCatalog c;
  std::string error;
  REQUIRE(ResourceCatalog::Parse("# comment\nA::B::C\t-\tX,Y.Z\tP:RC,Q\n\n", &c, &error));
  REQUIRE(c.size() == 1);
  const auto* t = c.Find("A::B::C");
  REQUIRE(t != nullptr);
  CHECK(t->HasAttribute("Y.Z"));
  REQUIRE(t->FindProperty("P") != nullptr);
  CHECK(t->FindProperty("P")->required);
  CHECK(t->FindProperty("P")->create_only);
  CHECK_FALSE(t->FindProperty("Q")->required);
  CHECK_FALSE(ResourceCatalog::Parse("A::B::C\n", &c, &error));
  CHECK_FALSE(ResourceCatalog::Parse("A::B::C\t-\t\tP:Z\n", &c, &error));
  CHECK_FALSE(ResourceCatalog::Parse("A::B::C\t-\t\t\nA::B::C\t-\t\t\n", &c, &error));
}

TEST_CASE("the embedded catalog text parses to the catalog in use", "[catalog]") {
  // Timing lives in bench/bench_template ("catalog load").
  std::string text = ResourceCatalog::AwsText();
  CHECK(text.size() > 100000);
  CHECK(text.rfind("# moonstack AWS resource catalog", 0) == 0);
  ResourceCatalog c;
  std::string error;
  REQUIRE(ResourceCatalog::Parse(text, &c, &error));
  CHECK(c.size() == ResourceCatalog::Aws().size());
}

TEST_CASE("name properties: the create-only property that names a resource", "[catalog]") {
  const ResourceCatalog& c = ResourceCatalog::Aws();
  const std::pair<const char*, const char*> cases[] = {
      {"AWS::S3::Bucket", "BucketName"},       {"AWS::SQS::Queue", "QueueName"},
      {"AWS::SNS::Topic", "TopicName"},        {"AWS::Lambda::Function", "FunctionName"},
      {"AWS::DynamoDB::Table", "TableName"},   {"AWS::Logs::LogGroup", "LogGroupName"},
      {"AWS::IAM::Role", "RoleName"},          {"AWS::Events::Rule", "Name"},
      {"AWS::RDS::DBInstance", "DBInstanceIdentifier"},
  };
  for (const auto& [type, name] : cases) {
    INFO(type);
    const ResourceTypeInfo* info = c.Find(type);
    REQUIRE(info != nullptr);
    CHECK(info->name_property == name);
    const ResourceTypeInfo::Property* p = info->FindProperty(name);
    REQUIRE(p != nullptr);
    CHECK(p->names_resource);
    CHECK(p->create_only);
  }
  CHECK(c.Find("AWS::EC2::VPC")->name_property.empty());
  CHECK(c.Find("AWS::EC2::RouteTable")->name_property.empty());
}
