// moonstack: a local CloudFormation engine whose resource types are Lua.
// The commands and options follow `aws cloudformation`.
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/io.h"
#include "lambda/runner.h"

int main(int argc, char** argv) {
  CLI::App app{"moonstack: run CloudFormation stacks locally; every resource type is a Lua provider"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "moonstack 0.1.0");
  int exit_code = 0;
  ms::lambda::SetNodeSdkPath(ms::cli::NodeSdkPath());  // nodejs functions' AWS SDK (host/lambda/README.md)
  ms::cli::AddTemplateCommands(app, &exit_code);
  ms::cli::AddProviderCommands(app, &exit_code);
  ms::cli::AddWorldCommands(app, &exit_code);
  ms::cli::AddStackCommands(app, &exit_code);
  ms::cli::AddDeployCommand(app, &exit_code);
  ms::cli::AddServeCommand(app, &exit_code);
  ms::cli::AddPolicyCommands(app, &exit_code);
  ms::cli::AddChangeSetCommands(app, &exit_code);
  ms::cli::AddPlanCommand(app, &exit_code);
  ms::cli::AddSignalCommands(app, &exit_code);
  ms::cli::AddDriftCommands(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
