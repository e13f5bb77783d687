// --template-url through the CLI: a template put in the simulated S3 with
// `world call s3 PutObject` creates, updates, validates and plans a change
// set as TemplateBody would; a missing bucket or key, a malformed URL and a
// template over 1 MB get AWS's messages; file://PATH works in embedded mode.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

const char* kQueue = R"({"Resources": {"Q": {"Type": "AWS::SQS::Queue"}}})";
const char* kTwoQueues = R"({"Resources": {"Q": {"Type": "AWS::SQS::Queue"}, "R": {"Type": "AWS::SQS::Queue"}}})";

// Puts `text` into bucket `bucket` (made first) under `key` with `world call`.
void PutTemplate(const ms::test::CliFixture& cli, const std::string& bucket, const std::string& key,
                 const std::string& text) {
  cli("world call s3 CreateBucket '{\"Bucket\":\"" + bucket + "\"}'");
  nlohmann::json req = {{"Bucket", bucket}, {"Key", key}, {"Body", text}};
  cli.Write("put.json", req.dump());
  cli.Json("world call s3 PutObject \"$(cat put.json)\"");
}

std::string ErrorOf(const ms::test::CliFixture& cli, const std::string& args) {
  ms::test::CommandResult r = cli(args);
  CHECK(r.exit_code != 0);
  return r.out;
}

}  // namespace

TEST_CASE("template url cli: create, update, validate and a change set from the simulated S3",
          "[cli][template_url]") {
  ms::test::CliFixture cli("template_url_cli", "s3");
  PutTemplate(cli, "tmpl-bucket", "app/queue.json", kQueue);
  cli("world call s3 PutObject '{\"Bucket\":\"tmpl-bucket\",\"Key\":\"app/two.json\",\"Body\":" +
      nlohmann::json(kTwoQueues).dump() + "}'");

  cli.Json("create-stack --stack-name s --template-url https://tmpl-bucket.s3.amazonaws.com/app/queue.json");
  CHECK(cli.Status("s") == "CREATE_COMPLETE");
  CHECK(cli.Json("list-stack-resources --stack-name s")["StackResourceSummaries"].size() == 1);

  auto validated = cli.Json("validate-template --template-url https://s3.us-east-1.amazonaws.com/tmpl-bucket/app/two.json");
  CHECK(validated["Parameters"].empty());

  cli.Json("create-change-set --stack-name s --change-set-name cs --template-url "
           "https://tmpl-bucket.s3-us-east-1.amazonaws.com/app/two.json");
  auto cs = cli.Json("describe-change-set --stack-name s --change-set-name cs");
  REQUIRE(cs["Changes"].size() == 1);
  CHECK(cs["Changes"][0]["ResourceChange"]["LogicalResourceId"] == "R");

  cli.Json("update-stack --stack-name s --template-url https://s3.amazonaws.com/tmpl-bucket/app/two.json");
  CHECK(cli.Status("s") == "UPDATE_COMPLETE");
  CHECK(cli.Json("list-stack-resources --stack-name s")["StackResourceSummaries"].size() == 2);
}

TEST_CASE("template url cli: AWS's errors, and file:// in embedded mode", "[cli][template_url]") {
  ms::test::CliFixture cli("template_url_cli", "errors");
  PutTemplate(cli, "tmpl-bucket", "queue.json", kQueue);
  const std::string help =
      " For more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html";
  CHECK_THAT(ErrorOf(cli, "create-stack --stack-name s --template-url https://nope-bucket.s3.amazonaws.com/queue.json"),
             Catch::Contains("S3 error: The specified bucket does not exist" + help));
  CHECK_THAT(ErrorOf(cli, "create-stack --stack-name s --template-url https://tmpl-bucket.s3.amazonaws.com/missing.json"),
             Catch::Contains("S3 error: The specified key does not exist." + help));
  CHECK_THAT(ErrorOf(cli, "create-stack --stack-name s --template-url https://example.com/queue.json"),
             Catch::Contains("TemplateURL must be a supported URL."));
  CHECK_THAT(ErrorOf(cli, "create-stack --stack-name s --template-url s3://tmpl-bucket/queue.json"),
             Catch::Contains("S3 error: Domain name specified in tmpl-bucket is not a valid S3 domain"));

  // Over 1 MB: a template padded with a long Description.
  std::string big = std::string(R"({"Description": ")") + std::string(1048576, 'x') + R"(", "Resources": {"Q": {"Type": "AWS::SQS::Queue"}}})";
  cli.Write("big.json", big);
  CHECK_THAT(ErrorOf(cli, "create-stack --stack-name s --template-url file://" + cli.dir + "/big.json"),
             Catch::Contains("Template may not exceed 1048576 bytes in size."));
  // Nothing was created by any of them.
  CHECK_THAT(cli("describe-stacks --stack-name s").out, Catch::Contains("Stack with id s does not exist"));

  const std::string t = cli.Write("t.json", kQueue);
  cli.Json("create-stack --stack-name s --template-url file://" + t);
  CHECK(cli.Status("s") == "CREATE_COMPLETE");
}
