// `moonstack serve` driven by the real aws CLI and boto3 (the machine's
// python3) with --endpoint-url: the Query API's requests, XML responses and
// errors as botocore parses them, and workflows running in the background
// while waiters poll.
#include <catch2/catch.hpp>

#include "test_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Run = ms::test::CommandResult;

Run Sh(const std::string& cmd) {
  return ms::test::RunCommand(cmd + " 2>&1");
}

// A port nobody listens on now (the kernel's pick for port 0).
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// GET path over a plain socket: the whole response, or "" when nothing listens.
std::string HttpGet(int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  std::string out;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::string req = "GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (write(fd, req.data(), req.size()) == static_cast<ssize_t>(req.size())) {
      char buf[4096];
      ssize_t n;
      while ((n = read(fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    }
  }
  close(fd);
  return out;
}

const char* kTemplate = R"({
  "Description": "a network",
  "Parameters": {"Cidr": {"Type": "String", "Default": "10.0.0.0/16", "Description": "the VPC's range"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}}},
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": "web", "VpcId": {"Ref": "Vpc"}}}
  },
  "Outputs": {"VpcId": {"Value": {"Ref": "Vpc"}}}
})";

// A `moonstack serve` child process on a free port with a fresh state file;
// stopped (SIGTERM, then SIGKILL) when the test ends.
class Server {
 public:
  explicit Server(const std::string& name, const std::string& time_scale = "0.001") {
    dir_ = (fs::temp_directory_path() / ("moonstack_server_" + name)).string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ + "/t.json") << kTemplate;
    port_ = FreePort();
    const std::string port = std::to_string(port_), state = dir_ + "/state.db", log = dir_ + "/serve.log";
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      FILE* f = freopen(log.c_str(), "w", stderr);
      (void)f;
      execl(MOONSTACK_BINARY, MOONSTACK_BINARY, "serve", "--port", port.c_str(), "--state", state.c_str(),
            "--time-scale", time_scale.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 200; ++i) {  // up to 20 s: the providers load first
      if (HttpGet(port_, "/moonstack/health").find("\"status\":\"ok\"") != std::string::npos) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("the server did not answer /moonstack/health");
  }
  ~Server() {
    kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }

  const std::string& dir() const { return dir_; }
  int port() const { return port_; }
  std::string Env(const std::string& region = "us-east-1") const {
    return "AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x AWS_DEFAULT_REGION=" + region +
           " AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null ";
  }
  // `aws cloudformation <args>` against the server.
  Run Aws(const std::string& args) const {
    return Sh(Env() + "aws cloudformation " + args + " --endpoint-url http://127.0.0.1:" + std::to_string(port_));
  }
  json AwsJson(const std::string& args) const {
    Run r = Aws(args + " --output json");
    INFO("aws cloudformation " << args << "\n" << r.out);
    REQUIRE(r.exit_code == 0);
    return r.out.empty() ? json() : json::parse(r.out);
  }
  // A python3 script with `cf`, a boto3 CloudFormation client for the server,
  // and `template`; it prints one JSON document.
  json Python(const std::string& body) const {
    const std::string file = dir_ + "/script.py";
    std::ofstream(file) << "import boto3, botocore, json\n"
                        << "cf = boto3.client('cloudformation', endpoint_url='http://127.0.0.1:" << port_
                        << "', region_name='us-east-1')\n"
                        << "template = open('" << dir_ << "/t.json').read()\n"
                        << "def error(fn, **kw):\n"
                        << "    try:\n"
                        << "        fn(**kw)\n"
                        << "    except botocore.exceptions.ClientError as e:\n"
                        << "        return {'Code': e.response['Error']['Code'], 'Message': e.response['Error']['Message'],\n"
                        << "                'Status': e.response['ResponseMetadata']['HTTPStatusCode']}\n"
                        << "    return None\n"
                        << body;
    Run r = Sh(Env() + "python3 " + file);
    INFO(r.out);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
  }

 private:
  std::string dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace

TEST_CASE("the aws CLI validates, creates, waits for, describes and deletes a stack", "[server]") {
  Server server("cli");
  const std::string body = "--template-body file://" + server.dir() + "/t.json";

  json v = server.AwsJson("validate-template " + body);
  CHECK(v["Description"] == "a network");
  REQUIRE(v["Parameters"].size() == 1);
  CHECK(v["Parameters"][0] == json{{"ParameterKey", "Cidr"}, {"DefaultValue", "10.0.0.0/16"},
                                   {"NoEcho", false}, {"Description", "the VPC's range"}});

  json created = server.AwsJson("create-stack --stack-name web " + body);
  const std::string id = created["StackId"];
  CHECK(id.rfind("arn:aws:cloudformation:us-east-1:123456789012:stack/web/", 0) == 0);
  Run wait = server.Aws("wait stack-create-complete --stack-name web");
  INFO(wait.out);
  REQUIRE(wait.exit_code == 0);

  json stacks = server.AwsJson("describe-stacks --stack-name web")["Stacks"];
  REQUIRE(stacks.size() == 1);
  const json& s = stacks[0];
  CHECK(s["StackId"] == id);
  CHECK(s["StackName"] == "web");
  CHECK(s["Description"] == "a network");
  CHECK(s["StackStatus"] == "CREATE_COMPLETE");
  CHECK(s["DisableRollback"] == false);
  CHECK(s["Parameters"] == json::array({{{"ParameterKey", "Cidr"}, {"ParameterValue", "10.0.0.0/16"}}}));
  REQUIRE(s["Outputs"].size() == 1);
  CHECK(s["Outputs"][0]["OutputKey"] == "VpcId");
  const std::string vpc = s["Outputs"][0]["OutputValue"];
  CHECK(vpc.rfind("vpc-", 0) == 0);
  CHECK(s["DriftInformation"]["StackDriftStatus"] == "NOT_CHECKED");
  CHECK(s["Tags"] == json::array());

  json events = server.AwsJson("describe-stack-events --stack-name web")["StackEvents"];
  REQUIRE(events.size() == 8);  // newest first: the stack 2, each resource 3 (IN_PROGRESS twice)
  CHECK(events.front()["LogicalResourceId"] == "web");
  CHECK(events.front()["ResourceStatus"] == "CREATE_COMPLETE");
  CHECK(events.back()["ResourceStatus"] == "CREATE_IN_PROGRESS");
  CHECK(events.back()["ResourceStatusReason"] == "User Initiated");
  CHECK(events.back()["ResourceType"] == "AWS::CloudFormation::Stack");
  CHECK(events.back()["PhysicalResourceId"] == id);
  bool vpc_complete = false;
  for (const json& e : events) {
    CHECK(e["StackId"] == id);
    if (e["LogicalResourceId"] == "Vpc" && e["ResourceStatus"] == "CREATE_COMPLETE") {
      vpc_complete = true;
      CHECK(e["PhysicalResourceId"] == vpc);
      CHECK(e["ResourceType"] == "AWS::EC2::VPC");
    }
  }
  CHECK(vpc_complete);

  json resources = server.AwsJson("describe-stack-resources --stack-name web")["StackResources"];
  REQUIRE(resources.size() == 2);
  for (const json& r : resources) {
    CHECK(r["ResourceStatus"] == "CREATE_COMPLETE");
    CHECK(r["StackId"] == id);
  }
  json by_physical = server.AwsJson("describe-stack-resources --physical-resource-id " + vpc)["StackResources"];
  CHECK(by_physical.size() == 2);

  json tmpl = server.AwsJson("get-template --stack-name web");
  CHECK(tmpl["TemplateBody"] == json::parse(kTemplate));
  CHECK(tmpl["StagesAvailable"] == json::array({"Original", "Processed"}));

  server.AwsJson("delete-stack --stack-name web");
  wait = server.Aws("wait stack-delete-complete --stack-name " + id);
  INFO(wait.out);
  REQUIRE(wait.exit_code == 0);
  json summaries = server.AwsJson("list-stacks --stack-status-filter DELETE_COMPLETE")["StackSummaries"];
  REQUIRE(summaries.size() == 1);
  CHECK(summaries[0]["StackId"] == id);
  CHECK(summaries[0]["TemplateDescription"] == "a network");
  CHECK(summaries[0].contains("DeletionTime"));
  CHECK(server.AwsJson("describe-stacks")["Stacks"] == json::array());

  Run gone = server.Aws("describe-stacks --stack-name web");
  CHECK(gone.exit_code == 255);
  CHECK(gone.out.find("An error occurred (ValidationError) when calling the DescribeStacks operation: "
                      "Stack with id web does not exist") != std::string::npos);
}

TEST_CASE("boto3 gets AWS's error codes and messages from the server", "[server]") {
  Server server("errors");
  json r = server.Python(R"(
out = {}
out['missing'] = error(cf.describe_stacks, StackName='nope')
out['unimplemented'] = error(cf.list_change_sets, StackName='web')
out['too_big'] = error(cf.validate_template, TemplateBody='{' + ' ' * 51200 + '}')
out['bad_name'] = error(cf.create_stack, StackName='no_underscores', TemplateBody=template)
out['no_template'] = error(cf.validate_template, TemplateURL='https://example.com/t.json')
cf.create_stack(StackName='web', TemplateBody=template)
out['exists'] = error(cf.create_stack, StackName='web', TemplateBody=template)
cf.get_waiter('stack_create_complete').wait(StackName='web', WaiterConfig={'Delay': 1})
try:
    cf.describe_stacks(StackName='nope')
except cf.exceptions.ClientError as e:
    out['class'] = type(e).__name__
print(json.dumps(out))
)");
  CHECK(r["missing"] == json{{"Code", "ValidationError"}, {"Message", "Stack with id nope does not exist"},
                             {"Status", 400}});
  CHECK(r["unimplemented"] == json{{"Code", "InvalidAction"},
                                   {"Message", "moonstack does not implement ListChangeSets yet"},
                                   {"Status", 400}});
  CHECK(r["too_big"]["Code"] == "ValidationError");
  const std::string big = r["too_big"]["Message"];
  CHECK(big.rfind("1 validation error detected: Value '{ ", 0) == 0);
  CHECK(big.size() > 51200);
  CHECK(big.find("}' at 'templateBody' failed to satisfy constraint: Member must have length less than or equal "
                 "to 51200") != std::string::npos);
  CHECK(r["bad_name"]["Code"] == "ValidationError");
  CHECK(r["bad_name"]["Message"] ==
        "1 validation error detected: Value 'no_underscores' at 'stackName' failed to satisfy constraint: Member "
        "must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*");
  CHECK(r["no_template"]["Code"] == "ValidationError");
  CHECK(r["exists"] == json{{"Code", "AlreadyExistsException"}, {"Message", "Stack [web] already exists"},
                            {"Status", 400}});
  CHECK(r["class"] == "ClientError");
}

TEST_CASE("the server takes the region from the credential scope", "[server]") {
  Server server("region");
  json r = server.Python(R"(
eu = boto3.client('cloudformation', endpoint_url=cf.meta.endpoint_url, region_name='eu-west-1')
sid = eu.create_stack(StackName='net', TemplateBody=template)['StackId']
eu.get_waiter('stack_create_complete').wait(StackName='net', WaiterConfig={'Delay': 1})
eu.delete_stack(StackName='net')
eu.get_waiter('stack_delete_complete').wait(StackName=sid, WaiterConfig={'Delay': 1})
print(json.dumps({'id': sid, 'status': eu.describe_stacks(StackName=sid)['Stacks'][0]['StackStatus']}))
)");
  const std::string id = r["id"];
  CHECK(id.rfind("arn:aws:cloudformation:eu-west-1:123456789012:stack/net/", 0) == 0);
  CHECK(r["status"] == "DELETE_COMPLETE");
}

TEST_CASE("the server answers its health check and refuses oversized bodies", "[server]") {
  Server server("health");
  std::string health = HttpGet(server.port(), "/moonstack/health");
  CHECK(health.rfind("HTTP/1.1 200", 0) == 0);
  std::ofstream(server.dir() + "/big.txt") << "Action=ValidateTemplate&TemplateBody=" << std::string(1100000, 'a');
  Run r = Sh("curl -s -w ' %{http_code}' -X POST --data-binary @" + server.dir() + "/big.txt http://127.0.0.1:" +
             std::to_string(server.port()) + "/");
  CHECK(r.out.find("<Code>RequestEntityTooLarge</Code>") != std::string::npos);
  CHECK(r.out.substr(r.out.size() - 4) == " 413");
}
