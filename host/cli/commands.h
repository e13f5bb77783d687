// Each group of `moonstack` subcommands registers itself on the app here.
#pragma once

#include <CLI/CLI.hpp>

namespace ms::cli {

// validate-template, graph
void AddTemplateCommands(CLI::App& app, int* exit_code);
// provider list, provider describe
void AddProviderCommands(CLI::App& app, int* exit_code);
// world list, show, call, load, reset
void AddWorldCommands(CLI::App& app, int* exit_code);
// create-stack, delete-stack, describe-*, list-*, get-template, wait
void AddStackCommands(CLI::App& app, int* exit_code);
// deploy (live progress)
void AddDeployCommand(CLI::App& app, int* exit_code);
// serve (the CloudFormation Query API over HTTP)
void AddServeCommand(CLI::App& app, int* exit_code);
// set-stack-policy, get-stack-policy
void AddPolicyCommands(CLI::App& app, int* exit_code);
// create-change-set, describe-, execute-, delete-change-set, list-change-sets
void AddChangeSetCommands(CLI::App& app, int* exit_code);
// plan (a terraform-plan-like preview of an update)
void AddPlanCommand(CLI::App& app, int* exit_code);
// signal-resource (CreationPolicy signals)
void AddSignalCommands(CLI::App& app, int* exit_code);
// detect-stack-drift, detect-stack-resource-drift, describe-stack-drift-detection-status,
// describe-stack-resource-drifts
void AddDriftCommands(CLI::App& app, int* exit_code);

}  // namespace ms::cli
