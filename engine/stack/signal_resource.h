// SignalResource (signal-resource): the synchronous checks AWS makes, then
// the signal recorded in the world (resource_signals.h), where the operation
// waiting for it finds it. Shared by the CLI and the server.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "stack/stack_service.h"
#include "world/world.h"

namespace ms {

struct SignalResourceInput {
  std::string stack_name;  // a name or a stack ID
  std::string logical_resource_id;
  std::string unique_id;
  std::string status;  // SUCCESS or FAILURE
};

// AWS's ValidationErrors, in the order it checks:
//   a missing or malformed field (the Query API's "1 validation error
//   detected: ..." wording), "Stack with id X does not exist", "Stack <id>
//   is in <STATUS> state and cannot be signaled" (any status but
//   CREATE_IN_PROGRESS, UPDATE_IN_PROGRESS and UPDATE_ROLLBACK_IN_PROGRESS),
//   "Resource X does not exist
//   for stack Y".
Status SignalResource(StackService& service, World* world, int64_t now_ms, const SignalResourceInput& in);

}  // namespace ms
