// Splitting an Fn::Sub template string into literal text and variables.
#include "template/sub_string.h"

#include "base/strings.h"

namespace ms {
namespace {

// AWS's text for a variable name with other characters (or none at all).
constexpr const char* kBadVariableName =
    "Template error: variable names in Fn::Sub syntax must contain only alphanumeric "
    "characters, underscores, periods, and colons";

bool IsVariableChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == ':';
}

// Appends literal text, merging with a preceding literal part.
void AppendLiteral(std::string_view text, std::vector<SubPart>* parts) {
  if (text.empty()) return;
  if (!parts->empty() && !parts->back().is_variable) {
    parts->back().text.append(text);
    return;
  }
  parts->push_back(SubPart{false, std::string(text)});
}

}  // namespace

Status ParseSubString(std::string_view s, std::vector<SubPart>* parts) {
  parts->clear();
  parts->reserve(8);
  size_t pos = 0;
  while (pos < s.size()) {
    size_t open = s.find("${", pos);
    if (open == std::string_view::npos) {
      AppendLiteral(s.substr(pos), parts);
      break;
    }
    AppendLiteral(s.substr(pos, open - pos), parts);
    // "${!Name}" is the literal "${Name}": drop the "!" and keep scanning
    // after it, so the closing brace is ordinary text.
    if (open + 2 < s.size() && s[open + 2] == '!') {
      AppendLiteral("${", parts);
      pos = open + 3;
      continue;
    }
    size_t close = s.find('}', open + 2);
    if (close == std::string_view::npos) {
      return Status::Validation(
          "Template error: Fn::Sub string has an unterminated variable reference \"${\"");
    }
    // Blanks around the name are dropped; a line break is not, so it stays
    // a bad variable name.
    std::string_view name = Trim(s.substr(open + 2, close - open - 2), " \t");
    if (name.empty()) return Status::Validation(kBadVariableName);
    for (char c : name) {
      if (!IsVariableChar(c)) return Status::Validation(kBadVariableName);
    }
    parts->push_back(SubPart{true, std::string(name)});
    pos = close + 1;
  }
  return Status::OK();
}

}  // namespace ms
