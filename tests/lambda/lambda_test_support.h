// Shared by the Lambda tests: whether python3 / node are here (tests that
// need one say so and pass without running when it is missing).
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "lambda/child_process.h"

namespace ms::test {

inline bool HaveInterpreter(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!lambda::FindOnPath(program, path ? path : "").empty()) return true;
  WARN("skipped: " << program << " is not on PATH");
  return false;
}

}  // namespace ms::test
