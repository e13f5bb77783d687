// Shared plumbing of the CLI commands: reading template arguments, printing
// results in the shapes of `aws cloudformation ... --output json`, and
// reporting errors as the aws CLI does.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "base/status.h"

namespace ms::cli {

using Json = nlohmann::ordered_json;

// The value of --template-body: `file://PATH` reads the file, anything else is
// the template text itself (as with the aws CLI).
Status ReadTemplateBody(const std::string& arg, std::string* text);
Status ReadFile(const std::string& path, std::string* text);

// Prints as the aws CLI prints JSON output (4-space indent).
void PrintJson(const Json& j);

// Prints "An error occurred (ValidationError) when calling the <Operation>
// operation: <message>" to stderr and returns the aws CLI's exit code (255).
int ReportError(const std::string& operation, const Status& s);
// The same with an explicit AWS error code (a simulated service's own codes).
int ReportAwsError(const std::string& operation, const std::string& code, const std::string& message);

// The state file: --state when given, else $MOONSTACK_STATE, else
// ./.moonstack/state.db.
std::string StatePath(const std::string& arg);

// Where moonstack's own files are (providers/, lua-sdk/): $MOONSTACK_HOME,
// else the source tree the binary was built from.
std::string Home();

// The node_modules directory holding the AWS SDK for JavaScript v3 that
// nodejs functions get on NODE_PATH (Lambda's /var/runtime/node_modules):
// $MOONSTACK_NODE_SDK, else <Home()>/.node-sdk/node_modules when
// scripts/install_node_sdk.sh put it there, else "" (none).
std::string NodeSdkPath();

// The AWS error code for a status (ValidationError, AlreadyExistsException...).
const char* ErrorCode(const Status& s);

}  // namespace ms::cli
