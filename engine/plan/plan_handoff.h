// Plan handoff: update-stack plans the update synchronously (to refuse it
// or say "No updates are to be performed."), then the executor runs it. The
// executor makes the plan again from the stored stack when it has to (after
// a restart, or in another process); when it runs right after in the same
// process it takes the plan update-stack made instead of planning twice.
//
// A plan is offered for (stack ID, the update's start time) and taken once;
// a plan not taken is replaced by the stack's next offer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "plan/plan.h"

namespace ms {

void OfferPlan(const std::string& stack_id, int64_t update_started_ms, std::unique_ptr<Plan> plan);
// The plan offered for exactly this update, or null.
std::unique_ptr<Plan> TakePlan(const std::string& stack_id, int64_t update_started_ms);

}  // namespace ms
