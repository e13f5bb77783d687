// Seed 003's conflicting directives, where nested stacks meet: the parent's
// AWS::CloudFormation::Stack resource may carry UpdatePolicy: {Allow: {...}}
// (the outer scope), and each resource of the child its own (the inner one).
//   - outer forbids what the update does, inner says nothing: the outer
//     restriction holds (seed 003's "replace/update is restricted for
//     resource.");
//   - outer forbids it, inner explicitly allows it: a conflict, surfaced as
//     the seed asks rather than settled by the most conservative policy: the
//     resource fails with a reason naming both, and the child's update stops
//     (it rolls back, and so does its parent's; with rollback disabled both
//     stop UPDATE_FAILED, the seed's own ending).
// The inner resource's own restriction (Allow.X false) is checked before
// this, by the update executor's UpdateRefusal.
#pragma once

#include <string>

#include "base/status.h"
#include "provider/provider.h"
#include "policy/update_restrictions.h"
#include "template/value.h"

namespace ms {

// The parent resource's restrictions on a nested stack's update.
struct OuterRestrictions {
  std::string logical_id;  // the parent's AWS::CloudFormation::Stack resource; empty: none
  UpdateRestrictions allow;
};

// Reads the parent resource's UpdatePolicy.Allow (as ParseUpdateRestrictions).
Status ReadOuterRestrictions(const std::string& logical_id, const Value& update_policy, OuterRestrictions* out);

// "" = go ahead; else the reason resource `logical_id` (its template
// UpdatePolicy `inner_policy`) fails with, for an update of `behavior`.
std::string OuterRefusal(const OuterRestrictions& outer, const std::string& logical_id, const Value& inner_policy,
                         UpdateBehavior behavior);

}  // namespace ms
