// How resource policies (UpdatePolicy, CreationPolicy) spell their values,
// shared by every reader of them: CloudFormation accepts a boolean or an
// integer given as a string ("true", "2"), as seed 004's own example does.
#pragma once

#include <cstdint>
#include <string>

#include "template/value.h"

namespace ms {

// true/false, or the strings "true"/"false" (any case).
bool ReadPolicyBool(const Value& v, bool* out);

// An integral number, or a string holding one ("2").
bool ReadPolicyInteger(const Value& v, int64_t* out);

// An ISO 8601 duration of the form PT#H#M#S (any of the three parts, in that
// order), in seconds: CreationPolicy's ResourceSignal Timeout and
// UpdatePolicy's PauseTime.
bool ParseSignalDuration(const std::string& text, int64_t* seconds);

}  // namespace ms
