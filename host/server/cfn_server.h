// `moonstack serve`: the CloudFormation Query API over HTTP, so the aws CLI,
// boto3 and the SDKs work against moonstack with --endpoint-url.
//
//   POST /                   form-encoded Action=...&Version=2010-05-15 (cfn_api.h)
//   GET  /moonstack/health   {"status":"ok"} once the server is ready
//   POST /moonstack/reset    forgets every stack and world record ({"status":"reset"}),
//                            stopping the operations running first
//   POST /moto-api/reset     the same, answered as moto answers it ({"status":"ok"}),
//                            for test harnesses written for moto's server mode
//   GET  /moonstack/custom-resource-requests, PUT /moonstack/custom-resource-response/<id>
//                            custom resources answered from outside (a Lambda's part)
//   PUT  /<handle ARN>?...   a wait-condition signal: the handle URL's path and
//                            query on this host (wait_signal.h)
//
// Only this machine's clients are answered unless told otherwise: requests
// whose Host or Origin names another host, and bodies a web page could send
// cross-site, are refused before their body is read (request_guard.h); the
// transport's limits (an exclusive port, deadlines, threads) are
// http_server.h's. SigV4 headers are accepted but not verified; the region
// is the one of the credential scope. Workflows run on background threads,
// up to `workers` operations at once (operation_runner.h), in real or scaled
// time, so clients see *_IN_PROGRESS and waiters work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "cli/stack_session.h"
#include "server/http_server.h"
#include "server/request_guard.h"

namespace ms::server {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback only unless told otherwise
  int port = 4581;
  // Host names answered besides 127.0.0.1, localhost, [::1] and `host`.
  std::vector<std::string> allowed_hosts;
  size_t max_body_bytes = 1 << 20;
  // An S3 object's PUT (PutObject, UploadPart): AWS's 5 GiB unless
  // configured. The body is held in memory once while it is stored.
  uint64_t max_object_bytes = kMaxS3ObjectBytes;
  size_t max_template_body = 51200;  // AWS's TemplateBody limit unless configured
  double read_timeout_seconds = 5;   // for a request's headers, then again for its body
  int workers = 4;                   // stack operations running at once
  cli::SessionOptions session;  // state file, providers, clock (time_scale 1: real time), region
};

// Serves until SIGINT or SIGTERM; then stops the running operations after
// their current checkpoint (the next start resumes them) and saves the
// world. Errors: the port (checked first), the options, the state file, the
// providers.
Status Serve(const ServeOptions& options);

// A request ID in AWS's form (a random UUID): each answer's x-amzn-RequestId.
std::string NewRequestId();

// What the server refuses before reading a body (request_guard.h), answered
// in the route's error shape: S3's XML for a PUT, CloudFormation's otherwise.
HttpServer::Guard MakeGuard(GuardPolicy policy);

}  // namespace ms::server
