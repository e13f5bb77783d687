// AwsApi: the AWS APIs `moonstack serve` answers besides CloudFormation's —
// every operation of every service the simulated cloud holds, decoded and
// encoded by the service's botocore protocol (aws_codec.h) and run by the
// sim (sim_call.h) on the server's world.
//
// Object bodies never pass through Lua (nor through a string): a PutObject's
// or UploadPart's body is streamed into a blob of the state file as it
// arrives (store/blob_store.h) and the sim is handed {Id, Size, MD5} as
// BodyBlob; a GetObject of such an object is answered with the blobs to
// stream (AwsResponse::blob_body).
#pragma once

#include <functional>
#include <string>

#include "server/aws_codec.h"
#include "server/sim_call.h"

namespace ms::server {

class AwsApi {
 public:
  // `state_path`: where object bodies are kept (the server's state file).
  AwsApi(SimHost* sim, std::string default_region, std::string state_path)
      : sim_(sim), default_region_(std::move(default_region)), state_path_(std::move(state_path)) {}

  // True when the request is one of these APIs' rather than CloudFormation's:
  // signed for another service, or carrying an X-Amz-Target.
  static bool Handles(const AwsRequest& req);
  AwsResponse Handle(const AwsRequest& req, const std::string& request_id);

  // Reads the request's body (its `req.body` is empty) with `read`, as
  // cpp-httplib's ContentReader does: an object's bytes into a blob, any
  // other body into req.body (at most `max_body` bytes) before Handle.
  using BodyReader = std::function<bool(const std::function<bool(const char*, size_t)>&)>;
  AwsResponse HandleWithBody(AwsRequest req, const BodyReader& read, uint64_t max_body,
                             const std::string& request_id);

 private:
  AwsResponse Run(const AwsCall& call, const std::string& request_id);
  SimHost* sim_;
  std::string default_region_;
  std::string state_path_;
};

}  // namespace ms::server
