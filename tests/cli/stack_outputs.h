// A stack's output value from its DescribeStacks entry, for the CLI tests
// that check Ref / Fn::GetAtt values through Outputs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ms::test {

// The value of output `key` of `stack` (a DescribeStacks "Stacks" entry), or "".
inline std::string Output(const nlohmann::json& stack, const std::string& key) {
  for (const auto& o : stack["Outputs"]) {
    if (o["OutputKey"] == key) return o["OutputValue"];
  }
  return "";
}

}  // namespace ms::test
