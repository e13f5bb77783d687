// The options the stack commands share, registered once: where the state is
// and how operations run (SessionOptions), and the aws CLI's --output.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "cli/stack_json.h"
#include "cli/stack_session.h"

namespace ms::cli {

// --state, --providers, --stub-unknown-types, --time-scale, --start-time,
// --max-concurrency, --region, --no-lambda.
void AddSessionOptions(CLI::App* cmd, SessionOptions* session);
// --no-lambda alone (serve registers its session options one by one).
void AddNoLambdaOption(CLI::App* cmd, SessionOptions* session);
// --start-time ($MOONSTACK_START_TIME): where virtual time starts.
void AddStartTimeOption(CLI::App* cmd, SessionOptions* session);
// -v (the provider log's INFO lines on stderr) and --debug (DEBUG lines and
// Lua tracebacks too): the workflow commands.
void AddLogOptions(CLI::App* cmd, SessionOptions* session);
// --output json|text|table, refused otherwise with the aws CLI's message.
void AddOutputOption(CLI::App* cmd, std::string* output);
// Prints a response in the --output format (checked when it was parsed).
void Emit(const std::string& output, const Json& response, const std::string& op);

}  // namespace ms::cli
