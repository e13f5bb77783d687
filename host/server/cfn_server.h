// `moonstack serve`: the CloudFormation Query API over HTTP, so the aws CLI,
// boto3 and the SDKs work against moonstack with --endpoint-url.
//
//   POST /                   form-encoded Action=...&Version=2010-05-15 (cfn_api.h)
//   GET  /moonstack/health   {"status":"ok"} once the server is ready
//   POST /moonstack/reset    forgets every stack and world record ({"status":"reset"}),
//                            stopping the operations running first
//   POST /moto-api/reset     the same, answered as moto answers it ({"status":"ok"}),
//                            for test harnesses written for moto's server mode
//   PUT  /<handle ARN>?...   a wait-condition signal: the handle URL's path and
//                            query on this host (wait_signal.h)
//
// SigV4 headers are accepted but not verified; the region is the one of the
// credential scope. Bodies over max_body_bytes are refused (413). Workflows
// run on background threads, up to `workers` operations at once
// (operation_runner.h), in real or scaled time, so clients see *_IN_PROGRESS
// and waiters work.
#pragma once

#include <cstddef>
#include <string>

#include "base/status.h"
#include "cli/stack_session.h"

namespace ms::server {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback only unless told otherwise
  int port = 4581;
  size_t max_body_bytes = 1 << 20;
  size_t max_template_body = 51200;  // AWS's TemplateBody limit unless configured
  int workers = 4;                   // stack operations running at once
  cli::SessionOptions session;  // state file, providers, clock (time_scale 1: real time), region
};

// Serves until SIGINT or SIGTERM; then stops the running operations after
// their current checkpoint (the next start resumes them) and saves the
// world. Errors: the state file, the providers, the port.
Status Serve(const ServeOptions& options);

}  // namespace ms::server
