// `cdk bootstrap`'s template (`cdk bootstrap --show-template`, committed as
// tests/cdk/fixtures/bootstrap/bootstrap.yaml) deploys as the CDK CLI deploys
// it, and what it leaves — the /cdk-bootstrap/hnb659fds/version parameter —
// is what every synthesized app's CheckBootstrapVersion rule then reads.
#include <catch2/catch.hpp>

#include "cli/cli_fixture.h"

#include <nlohmann/json.hpp>
#include <string>

namespace {

const std::string kFixtures = std::string(MOONSTACK_SOURCE_DIR) + "/tests/cdk/fixtures/";

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("cdk_bootstrap", name) {}
};

}  // namespace

TEST_CASE("cdk bootstrap: the bootstrap template deploys and creates the version parameter", "[cdk][cli]") {
  Cli cli("deploy");
  ms::test::CommandResult boot = cli("deploy --template-file " + kFixtures + "bootstrap/bootstrap.yaml" +
                                     " --stack-name CDKToolkit --capabilities CAPABILITY_NAMED_IAM");
  INFO(boot.out);
  REQUIRE(boot.exit_code == 0);
  CHECK(cli.Status("CDKToolkit") == "CREATE_COMPLETE");
  nlohmann::json p = cli.Json(R"(world call ssm GetParameter '{"Name":"/cdk-bootstrap/hnb659fds/version"}')");
  CHECK(p["Parameter"]["Value"] == "33");  // the template's BootstrapVersion (aws-cdk 2.1148.1)
  const nlohmann::json resources = cli.Json("describe-stack-resources --stack-name CDKToolkit")["StackResources"];
  REQUIRE(resources.size() == 13);  // 14 declared, one under a false Condition
  for (const nlohmann::json& r : resources) {
    INFO(r.dump());
    CHECK(r["ResourceStatus"] == "CREATE_COMPLETE");
  }

  // An app synthesized against it now passes its bootstrap check.
  ms::test::CommandResult app = cli("deploy --template-file " + kFixtures +
                                    "bucket-policy/v1/BucketPolicy.template.json --stack-name BucketPolicy "
                                    "--capabilities CAPABILITY_IAM");
  INFO(app.out);
  CHECK(app.exit_code == 0);
  CHECK(cli.Status("BucketPolicy") == "CREATE_COMPLETE");
}
