// ConstraintErrors: AWS's request-validation errors, worded as AWS's API
// front end words them:
//
//   1 validation error detected: Value 'x_y' at 'stackName' failed to satisfy
//   constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*
//
// and, when several members fail, "2 validation errors detected: <one>; <two>".
// The constraint texts below are the service models' (length, pattern), as
// AWS's messages quote them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace ms {

class ConstraintErrors {
 public:
  // `value` at `member` (the API's camelCase path: 'stackName',
  // 'tags.1.member.value') broke `constraint`.
  void Add(std::string_view value, std::string_view member, std::string_view constraint);
  bool empty() const { return errors_.empty(); }
  // A ValidationError with every violation added; OK when there is none.
  Status ToStatus() const;

 private:
  std::vector<std::string> errors_;
};

// "Member must have length less than or equal to N" and its companions.
std::string MaxLengthConstraint(size_t n);
std::string MinLengthConstraint(size_t n);
std::string PatternConstraint(std::string_view pattern);
// "Member must have value greater than or equal to N" (numbers).
std::string MinValueConstraint(int64_t n);

// The number of characters of UTF-8 `s` (AWS's lengths count characters,
// not bytes).
size_t Utf8Length(std::string_view s);

}  // namespace ms
