// `moonstack logs --stack-name S`: the provider log stored with a stack
// (store/provider_log_table.h) — what its operations' hooks wrote with
// ctx.log and print, and their errors with file:line — oldest first.
#pragma once

#include <string>

namespace ms::cli {

struct ProviderLogArgs {
  std::string state;       // --state
  std::string stack_name;  // --stack-name: a name, or a stack ID (a deleted stack's too)
  std::string region = "us-east-1";  // --region: where a stack named by name is
  std::string resource;    // --resource: one logical ID's lines
  std::string output = "text";     // --output text|json
  bool debug = false;              // --debug: tracebacks too
};

// Prints the lines, oldest first; 0, or 255 with the error on stderr.
int RunProviderLog(const ProviderLogArgs& args);

}  // namespace ms::cli
