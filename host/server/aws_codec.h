// The AWS protocols `moonstack serve` answers besides CloudFormation's
// (query, ec2, json, rest-json, rest-xml), driven by botocore's models
// (service_models.h): a request becomes (service, operation, parameters in
// the sim's request shape), and the sim's answer or error becomes the
// response the SDKs parse.
//
// Routing, for one endpoint as the SDKs use it with AWS_ENDPOINT_URL: the
// service is the SigV4 credential scope's (`Credential=AKID/date/REGION/
// SERVICE/aws4_request` in the Authorization header, or a presigned URL's
// X-Amz-Credential), or the X-Amz-Target's prefix (json); the region is the
// scope's. Then the operation: Action (query, ec2), the target's suffix
// (json), or the HTTP method and path matched against each operation's
// requestUri (rest-*; S3 path-style: /bucket/key). Signatures are not checked.
#pragma once

#include <string>

#include "server/aws_request.h"
#include "server/service_models.h"
#include "template/value.h"

namespace ms::server {

struct AwsCall {
  const ServiceModel* service = nullptr;  // set once known, even when decoding then fails
  std::string operation, region;
  // Whose simulated cloud: the access key ID when it is 12 digits
  // (AccountOfAccessKey), else the default account.
  std::string account = "123456789012";
  Value params;
  bool head = false;  // a HEAD request: the answer has no body
  // Sent with X-Amz-Target: a JSON protocol's client, which reads errors in
  // that shape even for a service moonstack has no model of (Step Functions).
  bool by_target = false;
};

// The credential scope's service and region ("" when the request has none),
// and its access key ID when asked.
void CredentialScope(const AwsRequest& req, std::string* service, std::string* region,
                     std::string* access_key_id = nullptr);

// Decodes the request into *call; false with *error (AWS's code, message
// and status) when the service, the operation or the body is not understood.
bool DecodeAwsRequest(const AwsRequest& req, const std::string& default_region, AwsCall* call, AwsError* error);

// The sim's answer as the operation's response.
AwsResponse EncodeAwsResult(const AwsCall& call, const Value& result, const std::string& request_id);
// An error in the shape of the service's protocol (query's when unknown).
AwsResponse EncodeAwsError(const AwsCall& call, const AwsError& error, const std::string& request_id);
// The error an operation the sim (or the model) lacks is answered with:
// InvalidAction (query, ec2), UnknownOperationException (json, rest-json),
// NotImplemented (rest-xml, as S3).
AwsError UnknownOperation(const ServiceModel* service, const std::string& operation);
// A sim failure (code, message) with the status the model gives the code.
AwsError SimError(const ServiceModel* service, const std::string& operation, const std::string& code,
                  const std::string& message);

}  // namespace ms::server
