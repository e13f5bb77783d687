// WaitSignals: cfn-signal's PUT to a wait-condition handle URL, answered by
// the moonstack server instead of S3.
//
// A handle's URL (providers/sim/cloudformation.lua) is
//   https://cloudformation-waitcondition-<region>.s3.amazonaws.com/<escaped handle ARN>?X-Amz-...
// Sending the same PUT to the server with the scheme and host swapped —
//   curl -X PUT -H 'Content-Type:' "http://127.0.0.1:4581/arn%3Aaws%3Acloudformation%3A...?X-Amz-..."
//        --data-binary '{"Status":"SUCCESS","Reason":"ok","UniqueId":"1","Data":"x"}'
// (or `cfn-signal` given that URL) — records the signal through the sim's
// SignalWaitCondition, in the world the running stack operations share, so
// a waiting AWS::CloudFormation::WaitCondition sees it on its next check.
// The presigned query is not checked, as SigV4 signatures are not.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "server/sim_call.h"

namespace ms::server {

class WaitSignals {
 public:
  // A Lua runtime whose `moonstack.world` is `world` (the runner's), loading
  // sim services from the provider directories; `clock` stamps the signals.
  Status Open(World* world, Clock* clock, const std::vector<std::string>& provider_dirs);

  struct Reply {
    int http_status = 200;
    std::string body;  // empty, or S3's <Error> XML
  };
  // `path`: the request path, URL-decoded ("/arn:aws:cloudformation:..."),
  // `body`: the signal's JSON. AccessDenied (403) for an unknown handle, as
  // S3 answers a presigned URL whose object cannot be written.
  Reply Signal(const std::string& path, const std::string& body);

  // True when the decoded path names a handle (a stack ARN plus a logical ID).
  static bool IsHandlePath(const std::string& path);
  // S3's <Error> document, as a presigned URL's PUT is answered on AWS.
  static Reply S3Error(int status, const std::string& code, const std::string& message);

  // Runs one action of a sim service in this runtime (the custom-resource
  // routes: sim/custom_resources.lua). *result is its answer.
  Status Call(const std::string& service, const std::string& action, const Value& params, Value* result);

 private:
  SimHost sim_;  // its own runtimes over the world
};

}  // namespace ms::server
