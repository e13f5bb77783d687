// The fixture of the server tests: a `moonstack serve` child process on a
// free port, driven by the real aws CLI and boto3 (the machine's python3).
#pragma once

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
#include <vector>

namespace ms::test::server {

namespace fs = std::filesystem;
using nlohmann::json;

using Run = ms::test::CommandResult;

inline Run Sh(const std::string& cmd) {
  return ms::test::RunCommand(cmd + " 2>&1");
}

// A port nobody listens on now (the kernel's pick for port 0).
inline int FreePort() {
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
inline std::string HttpGet(int port, const std::string& path) {
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

inline const char* kTemplate = R"({
  "Description": "a network",
  "Parameters": {"Cidr": {"Type": "String", "Default": "10.0.0.0/16", "Description": "the VPC's range"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}}},
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": "web", "VpcId": {"Ref": "Vpc"}}}
  },
  "Outputs": {"VpcId": {"Value": {"Ref": "Vpc"}}}
})";

// kTemplate plus a second group; `exported`: the VPC exported as "net-vpc".
inline std::string TwoGroupsTemplate(bool exported) {
  return std::string(R"({
  "Description": "a network",
  "Parameters": {"Cidr": {"Type": "String", "Default": "10.0.0.0/16", "Description": "the VPC's range"}},
  "Resources": {
    "Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "Cidr"}}},
    "Group": {"Type": "AWS::EC2::SecurityGroup",
              "Properties": {"GroupDescription": "web", "VpcId": {"Ref": "Vpc"}}},
    "Group2": {"Type": "AWS::EC2::SecurityGroup",
               "Properties": {"GroupDescription": "db", "VpcId": {"Ref": "Vpc"}}}
  },
  "Outputs": {"VpcId": {"Value": {"Ref": "Vpc"})") +
         (exported ? R"(, "Export": {"Name": "net-vpc"})" : "") + R"(}}
})";
}

// A `moonstack serve` child process on a free port with a fresh state file
// (`fresh` false: the directory's state file as a server before left it);
// stopped (SIGTERM, then SIGKILL) when the test ends. `extra`: more serve
// options (--workers 2).
class Server {
 public:
  explicit Server(const std::string& name, const std::string& time_scale = "0.001",
                  const std::vector<std::string>& extra = {}, bool fresh = true) {
    dir_ = (fs::temp_directory_path() / ("moonstack_server_" + name)).string();
    if (fresh) fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ + "/t.json") << kTemplate;
    port_ = FreePort();
    const std::string port = std::to_string(port_), state = dir_ + "/state.db", log = dir_ + "/serve.log";
    std::vector<std::string> args = {MOONSTACK_BINARY, "serve", "--port", port, "--state", state,
                                      "--time-scale", time_scale};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      FILE* f = freopen(log.c_str(), "w", stderr);
      (void)f;
      execv(MOONSTACK_BINARY, argv.data());
      _exit(127);
    }
    for (int i = 0; i < 200; ++i) {  // up to 20 s: the providers load first
      if (HttpGet(port_, "/moonstack/health").find("\"status\":\"ok\"") != std::string::npos) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("the server did not answer /moonstack/health");
  }
  ~Server() {
    if (pid_ > 0) Terminate();
  }

  // SIGTERM, then the exit: waitpid's status and how long it took; SIGKILL
  // (killed) after `limit` seconds.
  struct Exit {
    int status = -1;
    double seconds = 0;
    bool killed = false;
  };
  // SIGKILL: a crash.
  void Kill() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  Exit Terminate(double limit = 10) {
    Exit exit;
    const auto start = std::chrono::steady_clock::now();
    kill(pid_, SIGTERM);
    while (waitpid(pid_, &exit.status, WNOHANG) != pid_) {
      exit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (exit.seconds > limit) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &exit.status, 0);
        exit.killed = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    exit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pid_ = -1;
    return exit;
  }

  const std::string& dir() const { return dir_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
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
  // `template`, `error(fn, **kw)` (a call's ClientError or None) and
  // `client(service, key, region)` (a boto3 client of the server whose access
  // key ID is `key`: a 12-digit one is the account) and `lambda_role(name,
  // key)` (makes an IAM role Lambda may assume, a function's execution role);
  // it prints one JSON document.
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
                        << "def client(service, key, region='us-east-1'):\n"
                        << "    return boto3.client(service, endpoint_url=cf.meta.endpoint_url, region_name=region,\n"
                        << "                        aws_access_key_id=key, aws_secret_access_key='x')\n"
                        << "def lambda_role(name, key=None):\n"
                        << "    iam = client('iam', key) if key else boto3.client('iam', endpoint_url=cf.meta.endpoint_url,\n"
                        << "                                                      region_name='us-east-1')\n"
                        << "    iam.create_role(RoleName=name, AssumeRolePolicyDocument='" << kLambdaTrustPolicy << "')\n"
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

}  // namespace ms::test::server
