// S3 through the CLI as a user meets it: a bucket with a generated name and
// its Ref / Fn::GetAtt values, an object put out of band with `world call`
// (a world record of its own), the delete of a non-empty bucket refused with
// S3's text, and the stack deleted once the bucket is empty; a bucket policy
// S3 refuses (MalformedPolicy) failing its stack.
#include <catch2/catch.hpp>

#include "cli_fixture.h"
#include "stack_outputs.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

using Run = ms::test::CommandResult;

const char* kBucket = R"({
  "Resources": {
    "Data": {"Type": "AWS::S3::Bucket", "Properties": {"VersioningConfiguration": {"Status": "Enabled"}}},
    "Policy": {"Type": "AWS::S3::BucketPolicy", "Properties": {"Bucket": {"Ref": "Data"}, "PolicyDocument":
      {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                      "Resource": {"Fn::Sub": "${Data.Arn}/*"}}]}}}
  },
  "Outputs": {
    "Name": {"Value": {"Ref": "Data"}},
    "Arn": {"Value": {"Fn::GetAtt": ["Data", "Arn"]}},
    "Regional": {"Value": {"Fn::GetAtt": ["Data", "RegionalDomainName"]}},
    "Website": {"Value": {"Fn::GetAtt": ["Data", "WebsiteURL"]}}
  }
})";

using ms::test::Output;

}  // namespace

TEST_CASE("s3: a bucket's names, an object put out of band, a non-empty bucket's delete refused", "[cli][s3]") {
  ms::test::CliFixture cli("s3_cli", "bucket");
  std::string t = cli.Write("t.json", kBucket);
  cli.Json("create-stack --stack-name Media-Stack --template-body file://" + t);
  REQUIRE(cli.Status("Media-Stack") == "CREATE_COMPLETE");
  auto stack = cli.Json("describe-stacks --stack-name Media-Stack")["Stacks"][0];
  const std::string name = Output(stack, "Name");
  CHECK(std::regex_match(name, std::regex("media-stack-data-[a-z0-9]{12}")));
  CHECK(Output(stack, "Arn") == "arn:aws:s3:::" + name);
  CHECK(Output(stack, "Regional") == name + ".s3.us-east-1.amazonaws.com");
  CHECK(Output(stack, "Website") == "http://" + name + ".s3-website-us-east-1.amazonaws.com");

  cli.Json("world call s3 PutObject '{\"Bucket\":\"" + name + "\",\"Key\":\"a.txt\",\"Body\":\"hi\"}'");
  auto objects = cli.Json("world list --kind s3.object")["Records"];
  REQUIRE(objects.size() == 1);
  CHECK(objects[0]["Id"] == name + "/a.txt");

  const size_t before = cli.Events("Media-Stack", 0).size();
  cli("delete-stack --stack-name Media-Stack");
  CHECK(cli.Status("Media-Stack") == "DELETE_FAILED");
  auto events = cli.Events("Media-Stack", before);
  REQUIRE(events.size() == 6);
  CHECK(events[0] == "Media-Stack DELETE_IN_PROGRESS User Initiated");
  CHECK(events[1] == "Policy DELETE_IN_PROGRESS ");
  CHECK(events[2] == "Policy DELETE_COMPLETE ");
  CHECK(events[3] == "Data DELETE_IN_PROGRESS ");
  CHECK(std::regex_match(events[4], std::regex(
      "Data DELETE_FAILED The bucket you tried to delete is not empty \\(Service: Amazon S3; Status Code: 409; "
      "Error Code: BucketNotEmpty; Request ID: [A-Z0-9]{16}; S3 Extended Request ID: [0-9a-f]+; Proxy: null\\)")));
  CHECK(events[5] == "Media-Stack DELETE_FAILED The following resource(s) failed to delete: [Data]. ");

  cli.Json("world call s3 DeleteObject '{\"Bucket\":\"" + name + "\",\"Key\":\"a.txt\"}'");
  cli("delete-stack --stack-name Media-Stack");
  CHECK(cli("describe-stacks --stack-name Media-Stack").exit_code == 255);
  CHECK(cli.Json("world list --kind s3.bucket")["Records"].empty());
}

TEST_CASE("s3: a bucket policy S3 will not take fails its stack with S3's MalformedPolicy, and the bucket goes",
          "[cli][s3]") {
  // An object action on the bucket's own ARN: "Action does not apply to any
  // resource(s) in statement", as S3 answers PutBucketPolicy.
  ms::test::CliFixture cli("s3_cli", "malformed_policy");
  std::string t = cli.Write("t.json", R"({"Resources": {
    "Data": {"Type": "AWS::S3::Bucket"},
    "Policy": {"Type": "AWS::S3::BucketPolicy", "Properties": {"Bucket": {"Ref": "Data"}, "PolicyDocument":
      {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                      "Resource": {"Fn::GetAtt": ["Data", "Arn"]}}]}}}}})");
  cli("create-stack --stack-name bad-policy --template-body file://" + t);
  CHECK(cli.Status("bad-policy") == "ROLLBACK_COMPLETE");
  auto events = cli.Events("bad-policy", 0);
  REQUIRE(events.size() == 11);
  CHECK(events[3] == "Data CREATE_COMPLETE ");
  CHECK(events[4] == "Policy CREATE_IN_PROGRESS ");
  CHECK(std::regex_match(events[5], std::regex(
      "Policy CREATE_FAILED Action does not apply to any resource\\(s\\) in statement \\(Service: Amazon S3; "
      "Status Code: 400; Error Code: MalformedPolicy; Request ID: [A-Z0-9]{16}; S3 Extended Request ID: [0-9a-f]+; "
      "Proxy: null\\)")));
  CHECK(events[6] == "bad-policy ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Policy]. ");
  CHECK(events[7] == "Policy DELETE_COMPLETE ");
  CHECK(events[9] == "Data DELETE_COMPLETE ");
  CHECK(events[10] == "bad-policy ROLLBACK_COMPLETE ");
  CHECK(cli.Json("world list --kind s3.bucket")["Records"].empty());
}
