#include "policy/update_refusal.h"

namespace ms {

std::string UpdateRefusal(const ResourcePlan& rp, UpdateBehavior actual) {
  switch (actual) {
    case UpdateBehavior::kReplace:
      if (rp.policy_denies_replace) return kPolicyDeniedReason;
      if (!rp.allow_replace) return kReplaceRestrictedReason;
      return "";
    case UpdateBehavior::kNone:
    case UpdateBehavior::kSome:
      if (rp.policy_denies_modify) return kPolicyDeniedReason;
      if (!rp.allow_update) return kUpdateRestrictedReason;
      return "";
    case UpdateBehavior::kUnsupported:
      return "";
  }
  return "";
}

std::string DeleteRefusal(const ResourcePlan& rp) {
  return rp.action == ChangeAction::kRemove && rp.policy_denies_delete ? kPolicyDeniedReason : "";
}

}  // namespace ms
