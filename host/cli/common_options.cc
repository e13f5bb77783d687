#include "cli/common_options.h"

#include "cli/output.h"

#include <algorithm>

namespace ms::cli {

void AddSessionOptions(CLI::App* cmd, SessionOptions* session) {
  cmd->add_option("--state", session->state, "The state file (default $MOONSTACK_STATE or .moonstack/state.db)");
  cmd->add_option("--providers", session->providers, "A directory of Lua providers (repeatable)");
  cmd->add_flag("--stub-unknown-types", session->stub_unknown_types,
                "Deploy resource types no provider implements with a stub");
  cmd->add_option("--time-scale", session->time_scale,
                  "0: virtual time (default, no waiting); 1: real time; X: X real seconds per simulated second");
  AddStartTimeOption(cmd, session);
  cmd->add_option("--max-concurrency", session->max_concurrency, "Provider calls in flight at once");
  cmd->add_option("--region", session->region, "The region (default us-east-1)");
  AddNoLambdaOption(cmd, session);
}

void AddStartTimeOption(CLI::App* cmd, SessionOptions* session) {
  cmd->add_option("--start-time", session->start_time,
                  "Virtual time only: the instant the simulated clock starts at (ISO 8601, e.g. "
                  "2026-01-01T00:00:00Z; default now); a state whose clock is later keeps its own")
      ->envname("MOONSTACK_START_TIME");
}

void AddNoLambdaOption(CLI::App* cmd, SessionOptions* session) {
  cmd->add_flag("--no-lambda", session->no_lambda,
                "Run no Lambda function code: invocations, and custom resources backed by a function, fail saying so");
}

void AddLogOptions(CLI::App* cmd, SessionOptions* session) {
  cmd->add_flag_callback("-v,--verbose", [session] { session->log_verbosity = std::max(session->log_verbosity, 1); },
                         "Show the providers' log lines (ctx.log, print) on stderr as they come");
  cmd->add_flag_callback("--debug", [session] { session->log_verbosity = 2; },
                         "Show DEBUG log lines and the Lua traceback of a provider's runtime error too");
}

void AddOutputOption(CLI::App* cmd, std::string* output) {
  cmd->add_option("--output", *output, "json (default), text or table, as the aws CLI prints them")
      ->check([](const std::string& v) {
        OutputFormat f;
        return ParseOutputFormat(v, &f) ? std::string() : "Invalid choice, valid choices are: json | text | table";
      });
}

void Emit(const std::string& output, const Json& response, const std::string& op) {
  OutputFormat format = OutputFormat::kJson;
  ParseOutputFormat(output, &format);
  PrintOutput(response, format, op);
}

}  // namespace ms::cli
