// The real CDK CLI against `moonstack serve`, as a user runs it: only
// AWS_ENDPOINT_URL and dummy credentials set. `cdk bootstrap`, `cdk deploy`
// of a default-synthesizer app (the template published to the simulated S3
// as an asset and read back by TemplateURL), a deploy of a changed property
// (CDK first deletes its old change set by a name that no longer exists),
// `cdk destroy`. (`cdk diff` works too, by hand: each CLI run costs seconds
// of Node start-up, and the test stays well under a minute.) The app is the committed cloud assembly
// of examples/cdk/bucket-policy (-c version=1 and 2, written by
// scripts/cdk_synth.sh), so nothing is synthesized here.
//
// The CLI comes from $MOONSTACK_CDK, else scripts/install_cdk.sh (the npm
// registry, once); without either the test is skipped with the reason.
// Every command runs under `timeout`, so the test never hangs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>

#include "cdk/install_script.h"
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

const std::string kAssembly = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/assembly/bucket-policy/";

// The cdk executable, or "" with `why` set.
std::string FindCdk(std::string* why) {
  if (const char* given = std::getenv("MOONSTACK_CDK"); given != nullptr && *given != '\0') return given;
  return ms::test::RunInstallScript("install_cdk.sh", "CDK CLI", why);  // at the pinned version
}

}  // namespace

TEST_CASE("cdk bootstrap, deploy, update and destroy against serve", "[cdk][server][e2e]") {
  std::string why;
  const std::string cdk = FindCdk(&why);
  if (cdk.empty()) {
    std::cout << "SKIPPED cdk deploy end to end: " << why << std::endl;
    WARN("skipped: " << why);
    return;
  }
  Server s("cdk_deploy", "0");
  const std::string url = "http://127.0.0.1:" + std::to_string(s.port());
  // What a user sets, and nothing else: the CLI's version check, notices
  // and Node's warnings off so that nothing reaches the network.
  const std::string env = s.Env() + "AWS_ENDPOINT_URL=" + url +
                          " CDK_DISABLE_VERSION_CHECK=1 NODE_NO_WARNINGS=1 AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE=1"
                          " CDK_HOME=" + s.dir() + "/cdk-home ";
  auto run = [&](const std::string& args) {
    Run r = Sh("cd " + s.dir() + " && " + env + "timeout 30 " + cdk + " " + args + " --no-notices");
    INFO("cdk " << args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);  // the next command would fail the same way: stop here
    return r.out;
  };
  auto stacks = [&] {
    return s.Python(R"(
s3 = boto3.client('s3', endpoint_url=')" + url + R"(', region_name='us-east-1')
out = {x['StackName']: x['StackStatus'] for x in cf.list_stacks()['StackSummaries']}
app = [x for x in cf.describe_stacks()['Stacks'] if x['StackName'] == 'BucketPolicy']
bucket = [o['OutputValue'] for o in app[0].get('Outputs', []) if o['OutputKey'] == 'BucketName'] if app else []
out['versioning'] = s3.get_bucket_versioning(Bucket=bucket[0]).get('Status', 'Off') if bucket else None
out['buckets'] = sorted(b['Name'] for b in s3.list_buckets()['Buckets'])
print(json.dumps(out))
)");
  };

  run("bootstrap aws://123456789012/us-east-1 --app " + kAssembly + "v1");
  json after = stacks();
  CHECK(after["CDKToolkit"] == "CREATE_COMPLETE");
  CHECK(after["buckets"] == json::array({"cdk-hnb659fds-assets-123456789012-us-east-1"}));

  std::string out = run("deploy --app " + kAssembly + "v1 --require-approval never");
  CHECK(out.find("Published BucketPolicy Template") != std::string::npos);  // to the simulated S3
  after = stacks();
  CHECK(after["BucketPolicy"] == "CREATE_COMPLETE");
  CHECK(after["versioning"] == "Off");
  CHECK(after["buckets"].size() == 2);  // the app's bucket beside the assets bucket

  run("deploy --app " + kAssembly + "v2 --require-approval never");  // versioning on, a lifecycle rule
  after = stacks();
  CHECK(after["BucketPolicy"] == "UPDATE_COMPLETE");
  CHECK(after["versioning"] == "Enabled");

  run("destroy --app " + kAssembly + "v2 --force");
  after = stacks();
  CHECK(after["BucketPolicy"] == "DELETE_COMPLETE");
  CHECK(after["CDKToolkit"] == "CREATE_COMPLETE");
}

}  // namespace ms::test::server
