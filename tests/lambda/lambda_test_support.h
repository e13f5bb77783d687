// Shared by the Lambda tests: whether python3 / node are here (tests that
// need one say so and pass without running when it is missing).
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "lambda/child_process.h"
#include "lambda/runner.h"

namespace ms::test {

inline bool HaveInterpreter(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!lambda::FindOnPath(program, path ? path : "").empty()) return true;
  WARN("skipped: " << program << " is not on PATH");
  return false;
}

// An invocation of a python3.12 function `name` whose inline code is `code`
// (handler index.handler), with a fixed request id and log stream.
inline lambda::Invocation PythonInvocation(const std::string& name, const std::string& code) {
  lambda::Invocation inv;
  inv.function_name = name;
  inv.function_arn = "arn:aws:lambda:us-east-1:123456789012:function:" + name;
  inv.runtime = "python3.12";
  inv.handler = "index.handler";
  inv.inline_code = code;
  inv.request_id = "11111111-2222-4333-8444-555555555555";
  inv.log_stream_name = "2024/01/31/[$LATEST]0123456789abcdef0123456789abcdef";
  return inv;
}

}  // namespace ms::test
