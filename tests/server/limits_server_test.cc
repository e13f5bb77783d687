// `moonstack serve` and AWS's limits on what a request carries: stack names
// (checked before the stack's lock file is opened), through boto3.
#include <catch2/catch.hpp>

#include "test_util.h"

#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture
using nlohmann::json;

namespace {

json Refusal(const std::string& message) {
  return json{{"Code", "ValidationError"}, {"Message", message}, {"Status", 400}};
}

std::string PatternError(const std::string& value, const std::string& pattern) {
  return "1 validation error detected: Value '" + value +
         "' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: " + pattern;
}

const std::string kName = "[a-zA-Z][-a-zA-Z0-9]*";
const std::string kNameOrId = "[a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*";

}  // namespace

TEST_CASE("serve: a stack name that is no stack name is refused before anything reaches the disk", "[server]") {
  Server server("limits_names");
  const std::string absolute = server.dir() + "/absolute";
  json r = server.Python(R"(
out = {}
for name in ['../escaped', ')" + absolute + R"(', 'a/b', '.', 'a' * 300]:
    out['create ' + name] = error(cf.create_stack, StackName=name, TemplateBody=template)
out['describe'] = error(cf.describe_stacks, StackName='a/b')
out['delete'] = error(cf.delete_stack, StackName='../escaped')
out['events'] = error(cf.describe_stack_events, StackName='x_y')
out['long'] = error(cf.describe_stacks, StackName='a' * 129)
print(json.dumps(out))
)");
  for (const std::string& name : {std::string("../escaped"), absolute, std::string("a/b"), std::string(".")}) {
    CHECK(r["create " + name] == Refusal(PatternError(name, kName)));
  }
  const std::string long_name(300, 'a');
  CHECK(r["create " + long_name] ==
        Refusal("1 validation error detected: Value '" + long_name +
                "' at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 128"));
  CHECK(r["describe"] == Refusal(PatternError("a/b", kNameOrId)));
  CHECK(r["delete"] == Refusal(PatternError("../escaped", kNameOrId)));
  CHECK(r["events"] == Refusal(PatternError("x_y", kNameOrId)));
  CHECK(r["long"] == Refusal("Stack name cannot exceed 128 characters"));
  CHECK_FALSE(fs::exists(server.dir() + "/escaped"));
  CHECK_FALSE(fs::exists(absolute));
  CHECK_FALSE(fs::exists(server.dir() + "/state.db.locks/a"));
}
