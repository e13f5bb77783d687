#include "records/stack.h"

namespace ms {
namespace {

struct StepName {
  UpdateStep step;
  const char* name;
};
constexpr StepName kStepNames[] = {
    {UpdateStep::kNone, ""},
    {UpdateStep::kAdded, "added"},
    {UpdateStep::kUpdated, "updated"},
    {UpdateStep::kReplaced, "replaced"},
    {UpdateStep::kRestored, "restored"},
};

}  // namespace

const char* UpdateStepName(UpdateStep s) {
  for (const StepName& n : kStepNames) {
    if (n.step == s) return n.name;
  }
  return "";
}

bool ParseUpdateStep(std::string_view name, UpdateStep* out) {
  for (const StepName& n : kStepNames) {
    if (name == n.name) {
      *out = n.step;
      return true;
    }
  }
  return false;
}

void StackRecord::NoteDeletionTime(StackStatus to, int64_t now_ms) {
  if (to == StackStatus::kDeleteComplete || (to == StackStatus::kRollbackInProgress && deleted_ms == 0)) {
    deleted_ms = now_ms;
  }
}

void StackRecord::BeginOperationFor(std::optional<StackStatus> from, StackStatus to, const std::string& new_id) {
  const char* type = OperationStartedBy(from, to);
  if (type == nullptr) return;
  operation_id = new_id;
  if (IsUserOperation(type)) last_operations.clear();
  last_operations.insert(last_operations.begin(), {type, new_id});  // newest first
}

}  // namespace ms
