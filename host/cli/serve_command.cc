// `moonstack serve`: the CloudFormation Query API over HTTP (server/cfn_server.h).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common_options.h"
#include "server/cfn_server.h"

namespace ms::cli {

void AddServeCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<server::ServeOptions>();
  options->session.time_scale = 1;  // a server runs in real time unless told otherwise
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve the CloudFormation API over HTTP (aws --endpoint-url http://127.0.0.1:4581)");
  cmd->add_option("--host", options->host, "The address to listen on (default 127.0.0.1: this machine only)");
  cmd->add_option("--port", options->port, "The port (default 4581)")->check(CLI::Range(1, 65535));
  cmd->add_option("--allow-host", options->allowed_hosts,
                  "Answer requests whose Host (or Origin) names NAME too, besides 127.0.0.1, localhost, [::1] "
                  "and --host (repeatable; e.g. host.docker.internal)");
  cmd->add_option("--time-scale", options->session.time_scale,
                  "1: real time (default); X: X real seconds per simulated second; 0: virtual (no waiting)")
      ->check(CLI::NonNegativeNumber);
  AddStartTimeOption(cmd, &options->session);
  cmd->add_option("--state", options->session.state, "The state file (default $MOONSTACK_STATE or .moonstack/state.db)");
  cmd->add_option("--providers", options->session.providers, "A directory of Lua providers (repeatable)");
  cmd->add_option("--scenario", options->session.scenario,
                  "A Lua scenario script run against every operation: fail(match), latency(match, s), "
                  "on(event_match, fn), cancel_update()");
  cmd->add_flag("--stub-unknown-types", options->session.stub_unknown_types,
                "Deploy resource types no provider implements with a stub");
  cmd->add_option("--max-concurrency", options->session.max_concurrency, "Provider calls in flight at once");
  AddNoLambdaOption(cmd, &options->session);
  cmd->add_flag_callback("--debug", [options] { options->session.log_verbosity = 2; },
                         "Log the providers' DEBUG lines and the Lua traceback of their runtime errors too");
  cmd->add_option("--region", options->session.region,
                  "The region when a request's credential scope names none (default us-east-1)");
  cmd->add_option("--max-body-bytes", options->max_body_bytes, "The largest request body accepted (default 1 MiB)");
  cmd->add_option("--max-object-bytes", options->max_object_bytes,
                  "The largest S3 object PUT (PutObject, UploadPart) accepted, held in memory while it is stored "
                  "(default 5 GiB, AWS's limit)");
  cmd->add_option("--max-template-body", options->max_template_body,
                  "The largest TemplateBody accepted, in bytes (default 51200, AWS's limit)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--read-timeout", options->read_timeout_seconds,
                  "Seconds a client has to send a request's headers, and then its body (default 5)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--workers", options->workers, "Stack operations run at once (default 4)")
      ->check(CLI::Range(1, 256));
  cmd->callback([options, exit_code] {
    Status s = server::Serve(*options);
    if (!s.ok()) {
      std::cerr << s.message() << std::endl;
      *exit_code = 1;
    }
  });
}

}  // namespace ms::cli
