#include "server/function_endpoint.h"

#include <iostream>

#include "server/aws_api.h"
#include "server/aws_routes.h"
#include "server/cfn_server.h"
#include "server/http_server.h"
#include "server/sim_call.h"

namespace ms::server {

FunctionEndpoint::FunctionEndpoint(World* world, Clock* clock, std::vector<std::string> provider_dirs)
    : world_(world), clock_(clock), provider_dirs_(std::move(provider_dirs)) {}

FunctionEndpoint::~FunctionEndpoint() {
  if (http_ != nullptr) http_->Shutdown();
  if (serving_.joinable()) serving_.join();
}

std::string FunctionEndpoint::Url() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tried_) {
    tried_ = true;
    Status s = Start();
    if (!s.ok()) std::cerr << "moonstack: functions' AWS SDK calls have no endpoint: " << s.message() << std::endl;
  }
  return url_;
}

Status FunctionEndpoint::Start() {
  sim_ = std::make_unique<SimHost>();
  MS_RETURN_IF_ERROR(sim_->Open(world_, clock_, provider_dirs_));
  api_ = std::make_unique<AwsApi>(sim_.get(), "us-east-1");
  http_ = std::make_unique<HttpServer>(HttpServer::Limits{});
  http_->set_guard(MakeGuard(GuardPolicy{}));  // this machine only, as serve's
  http_->set_payload_max_length(GuardPolicy{}.max_object_bytes);
  MS_RETURN_IF_ERROR(http_->Bind("127.0.0.1", 0));
  // POST / and PUT are CloudFormation's and cfn-signal's on serve
  // (cfn_server.cc); here they are the AWS APIs' alone.
  AwsApi* api = api_.get();
  auto handle = [api](const httplib::Request& req, httplib::Response& res) {
    Send(res, api->Handle(ToAwsRequest(req, req.body), NewRequestId()));
  };
  http_->Post("/", handle);
  http_->Put(R"(/.*)", handle);
  AddAwsRoutes(*http_, *api_, *sim_, &NewRequestId);
  url_ = "http://127.0.0.1:" + std::to_string(http_->BoundPort());
  serving_ = std::thread([this] { http_->Serve(); });
  return Status::OK();
}

}  // namespace ms::server
