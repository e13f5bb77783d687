// The aws CLI's argument forms for stack commands: shorthand
// (`ParameterKey=K,ParameterValue=V`, `Key=k,Value=v`), JSON lists, and
// file:// for either.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "eval/parameters.h"
#include "records/stack.h"

namespace ms::cli {

// --parameters: each argument is shorthand or a JSON list of
// {"ParameterKey", "ParameterValue" | "UsePreviousValue"}; "\," escapes a comma.
Status ParseParameters(const std::vector<std::string>& args, std::vector<ParameterInput>* out);
// deploy --parameter-overrides: Key=Value (or a JSON list of the above).
Status ParseParameterOverrides(const std::vector<std::string>& args, std::vector<ParameterInput>* out);
// --tags: Key=k,Value=v or a JSON list of {"Key", "Value"}.
Status ParseTags(const std::vector<std::string>& args, std::vector<StackTag>* out);

}  // namespace ms::cli
