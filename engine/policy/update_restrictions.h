// Update restrictions (seed 003, "Restrict Stack Update Scope") in
// CloudFormation's spelling: a resource's
//   UpdatePolicy: {Allow: {Update: <bool>, Replace: <bool>}}
// Update: false forbids in-place updates ("restrict nondestructive
// updates"), Replace: false forbids replacements ("restrict
// destroy/replace"); either may be omitted (true). The NEW template's policy
// counts, so a restriction takes effect in the update that adds it.
//
// What the plan makes of them (the synchronous refusal, the run-time one) is
// in plan/policy_checks.h: the plan is built from these, not the other way.
#pragma once

#include <string>

#include "base/status.h"
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

}  // namespace ms
