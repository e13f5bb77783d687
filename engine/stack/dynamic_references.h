// Dynamic references in resource properties: `{{resolve:ssm:NAME}}` and
// `{{resolve:ssm:NAME:VERSION}}`, resolved when the resource is created (as
// CloudFormation does), from the simulated SSM parameter store.
// `{{resolve:ssm-secure:...}}` and `{{resolve:secretsmanager:...}}` are
// refused with a clear error: the simulated cloud has no secrets.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "template/value.h"

namespace ms {

// name (with ":VERSION" when given) -> value; false when there is no such parameter.
using SsmResolver = std::function<bool(std::string_view name, std::string* value)>;

// Replaces every dynamic reference inside the strings of `v`.
Status ResolveDynamicReferences(Value* v, const SsmResolver& ssm);

}  // namespace ms
