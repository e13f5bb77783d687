// The harness files (harness/*), embedded in the program at build time so a
// moonstack binary runs functions wherever it is installed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ms::lambda {

// (relative path, text) of the files a runtime's harness directory holds:
// the bootstrap script first, then the modules inline code may import
// (cfnresponse.py; node_modules/cfn-response/index.js).
const std::vector<std::pair<std::string, std::string>>& PythonHarness();
const std::vector<std::pair<std::string, std::string>>& NodeHarness();

}  // namespace ms::lambda
