#include "stack/outer_restrictions.h"

#include "plan/policy_checks.h"

namespace ms {
namespace {

// Whether an UpdatePolicy says Allow.<key>: true in so many words.
bool ExplicitlyAllows(const Value& policy, const char* key) {
  const Value* allow = policy.is_map() ? policy.find("Allow") : nullptr;
  const Value* v = allow != nullptr && allow->is_map() ? allow->find(key) : nullptr;
  if (v == nullptr) return false;
  return v->is_bool() ? v->as_bool() : v->is_string() && v->str() == "true";
}

// How a resource `up` levels of stacks out is named from inside: 1 is the
// parent stack's resource (the child stack's own Stack resource).
std::string EnclosingResource(size_t up, const std::string& logical_id) {
  switch (up) {
    case 1: return "its parent stack's resource " + logical_id;
    case 2: return "its grandparent stack's resource " + logical_id;
    case 3: return "its great-grandparent stack's resource " + logical_id;
    default: return "the resource " + logical_id + " of the stack " + std::to_string(up) + " levels above its own";
  }
}

}  // namespace

Status ReadOuterRestrictions(const OuterRestrictions& enclosing, const std::string& logical_id,
                             const Value& update_policy, OuterRestrictions* out) {
  OuterRestrictions::Level level;
  level.logical_id = logical_id;
  level.update_policy = update_policy;
  MS_RETURN_IF_ERROR(ParseUpdateRestrictions(logical_id, update_policy, &level.allow));
  OuterRestrictions result = enclosing;
  result.levels.push_back(std::move(level));
  *out = std::move(result);
  return Status::OK();
}

std::string OuterRefusal(const OuterRestrictions& outer, const std::string& logical_id, const Value& inner_policy,
                         UpdateBehavior behavior) {
  const bool replace = behavior == UpdateBehavior::kReplace;
  const char* key = replace ? "Replace" : "Update";
  const size_t n = outer.levels.size();
  // The nearest level that forbids it (up = how many stacks out).
  size_t up = 0;
  for (size_t i = n; i-- > 0;) {
    const UpdateRestrictions& a = outer.levels[i].allow;
    if (!(replace ? a.allow_replace : a.allow_update)) {
      up = n - i;
      break;
    }
  }
  if (up == 0) return "";
  // The nearest explicit Allow inside it: the resource's own, or a Stack
  // resource's between the two.
  std::string allower;
  if (ExplicitlyAllows(inner_policy, key)) {
    allower = "its UpdatePolicy";
  } else {
    for (size_t k = 1; k < up; ++k) {
      const OuterRestrictions::Level& l = outer.levels[n - k];
      if (ExplicitlyAllows(l.update_policy, key)) {
        allower = "the UpdatePolicy of " + EnclosingResource(k, l.logical_id);
        break;
      }
    }
  }
  if (allower.empty()) return replace ? kReplaceRestrictedReason : kUpdateRestrictedReason;
  return std::string("Conflicting update restrictions for resource ") + logical_id + ": " + allower + " allows " +
         (replace ? "replace" : "update") + " (Allow." + key + " is true), the UpdatePolicy of " +
         EnclosingResource(up, outer.levels[n - up].logical_id) + " restricts it (Allow." + key + " is false)";
}

}  // namespace ms
