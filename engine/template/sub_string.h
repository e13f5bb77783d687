// The template string of Fn::Sub, split into literal text and variables.
// "arn:${AWS::Partition}:s3:::${Bucket}/${!Literal}" gives
//   literal "arn:", var "AWS::Partition", literal ":s3:::", var "Bucket",
//   literal "/${Literal}".
// A variable is a parameter, pseudo parameter, resource ("X"), resource
// attribute ("X.Attr", split at the first dot) or a key of Fn::Sub's map.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace ms {

struct SubPart {
  bool is_variable = false;
  std::string text;  // literal text, or the variable name (spaces trimmed)
};

// Fails on an unterminated "${", an empty variable name, or a name with
// characters other than letters, digits, '_', '.' and ':' (AWS's message).
Status ParseSubString(std::string_view s, std::vector<SubPart>* parts);

}  // namespace ms
