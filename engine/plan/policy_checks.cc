#include "plan/policy_checks.h"

#include "policy/update_restrictions.h"

namespace ms {
namespace {

bool Certain(const ResourcePlan& rp) {
  if (rp.type_changed) return true;
  for (const ChangeDetail& d : rp.details) {
    if (d.evaluation == Evaluation::kStatic) return true;
  }
  return false;
}

Status Restricted(const std::string& logical_id, const char* key) {
  return Status::Validation("Update of resource " + logical_id + " is restricted by its UpdatePolicy (Allow." + key +
                            " is false)");
}

}  // namespace

Status CheckUpdateRestrictions(const Plan& plan) {
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.node < 0) continue;  // removed: no new template entry
    UpdateRestrictions r;
    MS_RETURN_IF_ERROR(ParseUpdateRestrictions(rp.logical_id, rp.update_policy, &r));  // evaluated
    if (rp.action != ChangeAction::kModify) continue;
    if (rp.replacement == Replacement::kTrue && !r.allow_replace) return Restricted(rp.logical_id, "Replace");
    if (rp.replacement == Replacement::kFalse && !r.allow_update && Certain(rp)) {
      return Restricted(rp.logical_id, "Update");
    }
  }
  return Status::OK();
}

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
