#include "stack/outcome_limits.h"

#include <algorithm>

namespace ms {

void CheckOutcomePhysicalId(HookOutcome* outcome) {
  const std::string& id = outcome->physical_id;
  const bool control = std::any_of(id.begin(), id.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
  if (id.size() <= kMaxPhysicalIdBytes && !control) return;
  HookOutcome failed;
  failed.kind = HookOutcome::Kind::kFailed;
  failed.reason = control ? "The provider returned a physical resource ID containing a control character"
                          : "The provider returned a physical resource ID of " + std::to_string(id.size()) +
                                " bytes; a physical resource ID can be up to 1 KB in size";
  failed.diagnostic = outcome->diagnostic;
  *outcome = std::move(failed);
}

std::string CapStatusReason(std::string reason) {
  size_t chars = 0;
  for (size_t i = 0; i < reason.size(); ++i) {
    if ((static_cast<unsigned char>(reason[i]) & 0xC0) == 0x80) continue;  // inside a character
    if (chars++ == kMaxStatusReasonChars) {
      reason.resize(i);
      break;
    }
  }
  return reason;
}

}  // namespace ms
