#include "base/constraint_errors.h"

#include "base/strings.h"

namespace ms {

void ConstraintErrors::Add(std::string_view value, std::string_view member, std::string_view constraint) {
  std::string e = "Value '";
  e.append(value).append("' at '").append(member).append("' failed to satisfy constraint: ").append(constraint);
  errors_.push_back(std::move(e));
}

Status ConstraintErrors::ToStatus() const {
  if (errors_.empty()) return Status::OK();
  const size_t n = errors_.size();
  return Status::Validation(std::to_string(n) + (n == 1 ? " validation error" : " validation errors") +
                            " detected: " + Join(errors_, "; "));
}

std::string MaxLengthConstraint(size_t n) {
  return "Member must have length less than or equal to " + std::to_string(n);
}

std::string MinLengthConstraint(size_t n) {
  return "Member must have length greater than or equal to " + std::to_string(n);
}

std::string MinValueConstraint(int64_t n) {
  return "Member must have value greater than or equal to " + std::to_string(n);
}

std::string PatternConstraint(std::string_view pattern) {
  return "Member must satisfy regular expression pattern: " + std::string(pattern);
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // continuation bytes do not count
  return n;
}

}  // namespace ms
