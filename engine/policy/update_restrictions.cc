#include "policy/update_restrictions.h"

#include "policy/policy_values.h"

namespace ms {

Status ParseUpdateRestrictions(const std::string& logical_id, const Value& update_policy, UpdateRestrictions* out) {
  *out = UpdateRestrictions();
  if (!update_policy.is_map()) return Status::OK();
  const Value* allow = update_policy.find("Allow");
  if (allow == nullptr) return Status::OK();
  auto invalid = [&](const std::string& what) {
    return Status::Validation("Invalid UpdatePolicy for resource " + logical_id + ": " + what);
  };
  if (!allow->is_map()) return invalid("Allow must be an object with the keys Update and Replace");
  for (const Member& m : allow->map()) {
    bool* into = m.key == "Update" ? &out->allow_update : m.key == "Replace" ? &out->allow_replace : nullptr;
    if (into == nullptr) return invalid("Allow has an unknown key " + m.key + " (valid: Update, Replace)");
    if (!ReadPolicyBool(m.value, into)) return invalid("Allow." + m.key + " must be a boolean");
  }
  return Status::OK();
}

}  // namespace ms
