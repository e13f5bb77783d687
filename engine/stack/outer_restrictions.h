// Seed 003's conflicting directives, where nested stacks meet: the parent's
// AWS::CloudFormation::Stack resource may carry UpdatePolicy: {Allow: {...}}
// (the outer scope), and each resource of the child its own (the inner one).
// The outer scopes nest: a restriction on the root's Stack resource holds in
// the child's children too, so a nested stack's operation carries one level
// per enclosing Stack resource, outermost first.
//   - an outer level forbids what the update does, nothing inside it says
//     otherwise: the restriction holds (seed 003's "replace/update is
//     restricted for resource.");
//   - an outer level forbids it, and the resource's own Allow — or the Allow
//     of a Stack resource between the two — explicitly allows it: a
//     conflict, surfaced as the seed asks rather than settled by the most
//     conservative policy: the resource fails with a reason naming both (the
//     nearest forbidding level and the nearest explicit Allow inside it), and
//     the child's update stops (it rolls back, and so do its parents; with
//     rollback disabled all stop UPDATE_FAILED, the seed's own ending).
// The inner resource's own restriction (Allow.X false) is checked before
// this, by the update executor's UpdateRefusal.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "provider/provider.h"
#include "policy/update_restrictions.h"
#include "template/value.h"

namespace ms {

// The enclosing Stack resources' restrictions on a nested stack's update.
struct OuterRestrictions {
  struct Level {
    std::string logical_id;  // the enclosing stack's AWS::CloudFormation::Stack resource
    Value update_policy;     // its UpdatePolicy, as the template has it
    UpdateRestrictions allow;
  };
  std::vector<Level> levels;  // outermost first; the last is the parent stack's resource
};

// `enclosing` (the running stack's own outer levels) with the Stack
// resource `logical_id`'s UpdatePolicy.Allow (as ParseUpdateRestrictions)
// added as the innermost level: what that resource's child stack runs under.
Status ReadOuterRestrictions(const OuterRestrictions& enclosing, const std::string& logical_id,
                             const Value& update_policy, OuterRestrictions* out);

// "" = go ahead; else the reason resource `logical_id` (its template
// UpdatePolicy `inner_policy`) fails with, for an update of `behavior`.
std::string OuterRefusal(const OuterRestrictions& outer, const std::string& logical_id, const Value& inner_policy,
                         UpdateBehavior behavior);

}  // namespace ms
