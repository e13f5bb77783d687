// The simulated cloud's AWS APIs on 127.0.0.1 while a command runs in
// embedded mode (no `moonstack serve`), for the Lambda functions it runs:
// their SDK calls (AWS_ENDPOINT_URL) reach the world the command changes, as
// they reach serve's. What CDK's Provider framework needs: its Node.js
// function invokes the user's onEvent function through the Lambda API.
//
// Started by the first function that runs (lambda::SetDefaultEndpoint asks
// for it), so a command that runs none pays nothing; stopped with the
// command's session. It answers the AWS APIs only (aws_routes.h): no
// CloudFormation, no custom-resource requests, and this machine only.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "run/clock.h"
#include "world/world.h"

namespace ms::server {

class HttpServer;
class SimHost;
class AwsApi;

class FunctionEndpoint {
 public:
  FunctionEndpoint(World* world, Clock* clock, std::vector<std::string> provider_dirs);
  ~FunctionEndpoint();  // stops the server

  // The endpoint's base URL (http://127.0.0.1:<port>), started on first use;
  // "" when it cannot start (the reason goes to stderr once).
  std::string Url();

 private:
  Status Start();

  World* world_;
  Clock* clock_;
  std::vector<std::string> provider_dirs_;
  std::mutex mu_;
  bool tried_ = false;
  std::string url_;
  std::unique_ptr<SimHost> sim_;
  std::unique_ptr<AwsApi> api_;
  std::unique_ptr<HttpServer> http_;
  std::thread serving_;
};

}  // namespace ms::server
