#include "policy/update_restrictions.h"

#include <cctype>

namespace ms {
namespace {

// true/false, or "true"/"false" (any case).
bool ReadBool(const Value& v, bool* out) {
  if (v.is_bool()) {
    *out = v.as_bool();
    return true;
  }
  if (!v.is_string()) return false;
  std::string s = v.str();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s != "true" && s != "false") return false;
  *out = s == "true";
  return true;
}

}  // namespace

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
    if (!ReadBool(m.value, into)) return invalid("Allow." + m.key + " must be a boolean");
  }
  return Status::OK();
}

}  // namespace ms
