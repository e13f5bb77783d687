// The simulated AWS Organization that SERVICE_MANAGED stack sets deploy to:
// a fixed, small organization (moonstack has no Organizations API), the
// management account being the default account 123456789012:
//
//   r-moon                  the root: every member account below
//     ou-moon-workloads     111111111111, 222222222222
//     ou-moon-sandboxes     333333333333
//
// As on AWS, a service-managed set never deploys to the management account
// itself. Accounts never join or leave, so AutoDeployment is recorded and
// shown but has nothing to deploy.
#pragma once

#include <string>
#include <vector>

namespace ms {

inline constexpr const char* kOrganizationRoot = "r-moon";
// The organization's management account: the only one that may operate
// SERVICE_MANAGED sets, the simulated organization having no delegated
// administrator (no RegisterDelegatedAdministrator).
inline constexpr const char* kManagementAccount = "123456789012";

// The member accounts of an OU or of the root, in order; false when the
// organization has no such unit.
inline bool AccountsOfOrganizationalUnit(const std::string& ou, std::vector<std::string>* out) {
  if (ou == "ou-moon-workloads") {
    *out = {"111111111111", "222222222222"};
  } else if (ou == "ou-moon-sandboxes") {
    *out = {"333333333333"};
  } else if (ou == kOrganizationRoot) {
    *out = {"111111111111", "222222222222", "333333333333"};
  } else {
    return false;
  }
  return true;
}

}  // namespace ms
