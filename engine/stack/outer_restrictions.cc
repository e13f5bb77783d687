#include "stack/outer_restrictions.h"

#include "plan/policy_checks.h"

namespace ms {
namespace {

// Whether the inner UpdatePolicy says Allow.<key>: true in so many words.
bool ExplicitlyAllows(const Value& policy, const char* key) {
  const Value* allow = policy.is_map() ? policy.find("Allow") : nullptr;
  const Value* v = allow != nullptr && allow->is_map() ? allow->find(key) : nullptr;
  if (v == nullptr) return false;
  return v->is_bool() ? v->as_bool() : v->is_string() && v->str() == "true";
}

}  // namespace

Status ReadOuterRestrictions(const std::string& logical_id, const Value& update_policy, OuterRestrictions* out) {
  out->logical_id = logical_id;
  return ParseUpdateRestrictions(logical_id, update_policy, &out->allow);
}

std::string OuterRefusal(const OuterRestrictions& outer, const std::string& logical_id, const Value& inner_policy,
                         UpdateBehavior behavior) {
  if (outer.logical_id.empty()) return "";
  const bool replace = behavior == UpdateBehavior::kReplace;
  if (replace ? outer.allow.allow_replace : outer.allow.allow_update) return "";
  const char* key = replace ? "Replace" : "Update";
  if (!ExplicitlyAllows(inner_policy, key)) return replace ? kReplaceRestrictedReason : kUpdateRestrictedReason;
  return std::string("Conflicting update restrictions for resource ") + logical_id + ": its UpdatePolicy allows " +
         (replace ? "replace" : "update") + " (Allow." + key + " is true), the UpdatePolicy of its parent stack's " +
         "resource " + outer.logical_id + " restricts it (Allow." + key + " is false)";
}

}  // namespace ms
