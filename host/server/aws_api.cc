#include "server/aws_api.h"

namespace ms::server {

bool AwsApi::Handles(const AwsRequest& req) {
  if (!req.Header("x-amz-target").empty()) return true;
  std::string service, region;
  CredentialScope(req, &service, &region);
  return !service.empty() && service != "cloudformation";
}

AwsResponse AwsApi::Handle(const AwsRequest& req, const std::string& request_id) {
  AwsCall call;
  AwsError error;
  if (!DecodeAwsRequest(req, default_region_, &call, &error)) return EncodeAwsError(call, error, request_id);
  SimOutcome out = sim_->Call(call.service->name, call.operation, call.params, call.region);
  if (!out.ok) {
    AwsError e = out.code.empty() ? AwsError{500, "InternalFailure", out.message}
                                  : SimError(call.service, call.operation, out.code, out.message);
    return EncodeAwsError(call, e, request_id);
  }
  return EncodeAwsResult(call, out.result, request_id);
}

}  // namespace ms::server
