#include "records/stack_name.h"

#include <algorithm>
#include <cctype>

#include "base/constraint_errors.h"

namespace ms {
namespace {

constexpr std::string_view kNamePattern = "[a-zA-Z][-a-zA-Z0-9]*";
constexpr std::string_view kNameOrIdPattern = "[a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*";

bool MatchesNamePattern(std::string_view name) {
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; });
}

// arn:[-a-zA-Z0-9:/._+]*
bool MatchesArnPattern(std::string_view id) {
  if (id.rfind("arn:", 0) != 0) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("-:/._+").find(c) != std::string_view::npos;
  });
}

}  // namespace

bool IsStackName(std::string_view name) {
  return name.size() <= kMaxStackNameLength && MatchesNamePattern(name);
}

Status CheckNameMember(const std::string& name, std::string_view member) {
  ConstraintErrors errors;
  if (!MatchesNamePattern(name)) errors.Add(name, member, PatternConstraint(kNamePattern));
  if (name.size() > kMaxStackNameLength) errors.Add(name, member, MaxLengthConstraint(kMaxStackNameLength));
  return errors.ToStatus();
}

Status CheckStackName(const std::string& name) { return CheckNameMember(name, "stackName"); }

Status CheckStackNameOrId(const std::string& name_or_id) {
  if (MatchesArnPattern(name_or_id)) return Status::OK();
  if (!MatchesNamePattern(name_or_id)) {
    ConstraintErrors errors;
    errors.Add(name_or_id, "stackName", PatternConstraint(kNameOrIdPattern));
    return errors.ToStatus();
  }
  if (name_or_id.size() > kMaxStackNameLength) return Status::Validation("Stack name cannot exceed 128 characters");
  return Status::OK();
}

}  // namespace ms
