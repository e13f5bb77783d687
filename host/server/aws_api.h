// AwsApi: the AWS APIs `moonstack serve` answers besides CloudFormation's —
// every operation of every service the simulated cloud holds, decoded and
// encoded by the service's botocore protocol (aws_codec.h) and run by the
// sim (sim_call.h) on the server's world.
#pragma once

#include <string>

#include "server/aws_codec.h"
#include "server/sim_call.h"

namespace ms::server {

class AwsApi {
 public:
  AwsApi(SimHost* sim, std::string default_region) : sim_(sim), default_region_(std::move(default_region)) {}

  // True when the request is one of these APIs' rather than CloudFormation's:
  // signed for another service, or carrying an X-Amz-Target.
  static bool Handles(const AwsRequest& req);
  AwsResponse Handle(const AwsRequest& req, const std::string& request_id);

 private:
  SimHost* sim_;
  std::string default_region_;
};

}  // namespace ms::server
