// What the plan makes of stack policies and update restrictions (the
// policies themselves are parsed in policy/): the synchronous refusal of
// update-stack when the plan already shows a violation, and the run-time
// verdicts the update executor asks for once it knows what it is about to do.
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

#include "base/status.h"
#include "plan/plan.h"
#include "provider/provider.h"

namespace ms {

// The synchronous check of update-stack: the first resource (plan order)
// whose change certainly violates its restrictions:
//   Update of resource X is restricted by its UpdatePolicy (Allow.Replace is false)
//   Update of resource X is restricted by its UpdatePolicy (Allow.Update is false)
// "Certainly": a replacement with Replacement True; an in-place change with
// Replacement False that has a Static detail (a Dynamic-only change may turn
// out to be none, seed 000 tests 8 and 10). Also refuses a malformed Allow.
Status CheckUpdateRestrictions(const Plan& plan);

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
