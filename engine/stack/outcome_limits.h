// What the engine keeps of a provider's answer is bounded, whatever the
// provider returns: a physical ID is an identifier (it names the resource in
// every later call, event and describe), and a status reason is a message,
// not a log.
#pragma once

#include <string>

#include "provider/provider.h"

namespace ms {

// AWS: a PhysicalResourceId "can be up to 1 KB in size" and is "a non-empty
// string" (custom resource response objects).
inline constexpr size_t kMaxPhysicalIdBytes = 1024;
// ResourceStatusReason has no documented cap; AWS documents 1,024 for the
// status reason it does cap (StackEvent / OperationEvent HookStatusReason:
// "Maximum length of 1024"), and moonstack caps every status reason there.
inline constexpr size_t kMaxStatusReasonChars = 1024;

// An outcome whose physical ID is longer than 1 KB or holds a control
// character (NUL, a line break...) becomes a failure saying so: the
// resource fails instead of the ID being stored.
void CheckOutcomePhysicalId(HookOutcome* outcome);

// `reason` cut to its first 1,024 characters (whole UTF-8 characters).
std::string CapStatusReason(std::string reason);

}  // namespace ms
