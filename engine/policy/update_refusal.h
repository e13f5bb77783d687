// The run-time half of stack policies and update restrictions: what the
// update executor asks when it knows what it is about to do to a resource.
//
// A stack policy is checked at run time, as on AWS: the denied resource goes
// UPDATE_FAILED with `Action denied by stack policy` and the update rolls
// back. An update restriction the plan could not decide (a Conditional
// replacement, a Dynamic change) fails the resource with seed 003's (Heat's)
// `replace is restricted for resource.` / `update is restricted for
// resource.`. The plan already carries what is needed (ResourcePlan::
// policy_denies_*, allow_update, allow_replace), so these are pure functions.
#pragma once

#include <string>

#include "plan/plan.h"
#include "provider/provider.h"

namespace ms {

constexpr const char* kPolicyDeniedReason = "Action denied by stack policy";
constexpr const char* kReplaceRestrictedReason = "replace is restricted for resource.";
constexpr const char* kUpdateRestrictedReason = "update is restricted for resource.";

// Call from the modify step once the actual behaviour is known (the most
// severe of the changed properties; kReplace for a type change), before any
// status change or provider call. "" = go ahead; else the resource fails
// UPDATE_FAILED with this reason. `actual` kReplace is checked against
// Update:Replace and Allow.Replace, kNone/kSome against Update:Modify and
// Allow.Update (a Metadata-only change counts as kNone), kUnsupported is
// not refused here (its own failure comes first). The stack policy is
// checked first.
std::string UpdateRefusal(const ResourcePlan& rp, UpdateBehavior actual);

// Call for a kRemove resource before its removal is scheduled. "" = go
// ahead; else kPolicyDeniedReason (Update:Delete is denied).
std::string DeleteRefusal(const ResourcePlan& rp);

}  // namespace ms
