// Turning template text into a Value tree.
//
// JSON when the first non-blank character is '{', YAML otherwise (as
// CloudFormation decides). Both parsers record each node's line and column,
// reject duplicate keys, and report errors in AWS's words:
//   Template format error: JSON not well-formed. (line 1, column 25)
//   Template format error: YAML not well-formed. (line 3, column 5)
// YAML follows the 1.2 core schema for plain scalars, so an unquoted
// 2010-09-09 or Yes stays a string; true/false become booleans, numbers keep
// their text. CloudFormation's short-form tags become long-form maps:
// `!Ref X` -> {"Ref": X}, `!Condition C` -> {"Condition": C},
// `!GetAtt A.B` -> {"Fn::GetAtt": "A.B"}, `!Sub s` -> {"Fn::Sub": s}, ...
// YAML aliases are an error, as in CloudFormation:
//   Template error: YAML aliases are not allowed in CloudFormation templates
#pragma once

#include <string_view>

#include "base/status.h"
#include "template/value.h"

namespace ms {

Status ParseJson(std::string_view text, Value* out);
Status ParseYaml(std::string_view text, Value* out);
// Picks JSON or YAML as above.
Status ParseTemplateText(std::string_view text, Value* out);

}  // namespace ms
