// Small helpers shared by the tests.
#pragma once

#include <string>

#include "template/value.h"

namespace ms::test {

std::string ReadFile(const std::string& path);
// Parses a JSON or YAML snippet; fails the test on error.
Value Doc(const std::string& text);

}  // namespace ms::test
