// Update restrictions (seed 003, "Restrict Stack Update Scope") in
// CloudFormation's spelling: a resource's
//   UpdatePolicy: {Allow: {Update: <bool>, Replace: <bool>}}
// Update: false forbids in-place updates ("restrict nondestructive
// updates"), Replace: false forbids replacements ("restrict
// destroy/replace"); either may be omitted (true). The NEW template's policy
// counts, so a restriction takes effect in the update that adds it.
//
// Where the plan already shows a violation, update-stack is refused before
// anything starts (CheckUpdateRestrictions); where only run time can tell (a
// Conditional replacement, a Dynamic change), the executor asks
// UpdateRefusal (update_refusal.h).
#pragma once

#include <string>

#include "base/status.h"
#include "plan/plan.h"
#include "template/value.h"

namespace ms {

struct UpdateRestrictions {
  bool allow_update = true;
  bool allow_replace = true;
};

// Reads UpdatePolicy.Allow (null or no Allow: nothing restricted). The values
// are booleans, or the strings "true"/"false" as CloudFormation accepts them;
// anything else is a ValidationError naming the resource.
Status ParseUpdateRestrictions(const std::string& logical_id, const Value& update_policy, UpdateRestrictions* out);

// The synchronous check of update-stack: the first resource (plan order)
// whose change certainly violates its restrictions:
//   Update of resource X is restricted by its UpdatePolicy (Allow.Replace is false)
//   Update of resource X is restricted by its UpdatePolicy (Allow.Update is false)
// "Certainly": a replacement with Replacement True; an in-place change with
// Replacement False that has a Static detail (a Dynamic-only change may turn
// out to be none, seed 000 tests 8 and 10). Also refuses a malformed Allow.
Status CheckUpdateRestrictions(const Plan& plan);

}  // namespace ms
