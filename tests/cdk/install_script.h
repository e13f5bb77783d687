// The cdk tests' tools from the npm registry, through the project's own
// install scripts (scripts/install_cdk.sh, scripts/install_node_sdk.sh), so
// that the test command installs them on a fresh machine.
#pragma once

#include <string>

#include "test_util.h"

namespace ms::test {

// Runs scripts/<script> (40 s at most, or `limit`): the path it prints (its
// last line: npm may write before it), or "" with `why` naming `what` is
// missing and the script's output.
inline std::string RunInstallScript(const std::string& script, const std::string& what, std::string* why,
                                    int limit = 40) {
  CommandResult r = RunCommand("timeout " + std::to_string(limit) + " " + std::string(MOONSTACK_SOURCE_DIR) +
                               "/scripts/" + script + " 2>&1");
  if (r.exit_code != 0) {
    *why = "no " + what + " (scripts/" + script + ": " + r.out + ")";
    return "";
  }
  std::string path = r.out.substr(0, r.out.find_last_not_of("\n") + 1);
  return path.substr(path.rfind('\n') + 1);
}

}  // namespace ms::test
