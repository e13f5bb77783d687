// Small helpers shared by the tests.
#pragma once

#include <map>
#include <string>

#include "eval/parameters.h"
#include "template/template.h"
#include "template/value.h"

namespace ms::test {

std::string ReadFile(const std::string& path);
// Parses a JSON or YAML snippet; fails the test on error.
Value Doc(const std::string& text);

// `t`'s parameter values as ResolveParameters gives them, from `values`
// (name -> text) and the Defaults; fails the test on error. A parameter with
// neither is left out, as before values are given (its Ref is Unknown).
ParameterValues Params(const Template& t, const std::map<std::string, std::string>& values = {});

// What a shell command printed (stdout; add 2>&1 for stderr) and its exit status.
struct CommandResult {
  int exit_code;
  std::string out;
};
CommandResult RunCommand(const std::string& cmd);

}  // namespace ms::test
