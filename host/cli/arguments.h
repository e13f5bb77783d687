// The aws CLI's argument forms for stack commands: shorthand
// (`ParameterKey=K,ParameterValue=V`, `Key=k,Value=v`), JSON lists, and
// file:// for either.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "eval/parameters.h"
#include "records/stack.h"
#include "stack/change_set_imports.h"

namespace ms::cli {

// --parameters: each argument is shorthand or a JSON list of
// {"ParameterKey", "ParameterValue" | "UsePreviousValue"}; "\," escapes a comma.
Status ParseParameters(const std::vector<std::string>& args, std::vector<ParameterInput>* out);
// deploy --parameter-overrides: Key=Value (or a JSON list of the above).
Status ParseParameterOverrides(const std::vector<std::string>& args, std::vector<ParameterInput>* out);
// --tags: Key=k,Value=v or a JSON list of {"Key", "Value"}.
Status ParseTags(const std::vector<std::string>& args, std::vector<StackTag>* out);
// --resources-to-import: a JSON list (or file://PATH of one) of
// {"ResourceType", "LogicalResourceId", "ResourceIdentifier": {key: value}};
// what the service checks is the service's, the shape is botocore's.
Status ParseResourcesToImport(const std::string& arg, std::vector<ResourceToImport>* out);

}  // namespace ms::cli
