// Where a stack lives: its region and account. Stacks, their exports and
// change sets are per region and account, as on AWS: the same stack name,
// or export name, may be used once in each. A stack's scope is part of its
// ID (arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<uuid>),
// so a stored stack needs no more than its ID to say where it is.
#pragma once

#include <string>
#include <string_view>

namespace ms {

struct StackScope {
  std::string region = "us-east-1";
  std::string account = "123456789012";

  bool operator==(const StackScope& o) const { return region == o.region && account == o.account; }
  bool operator!=(const StackScope& o) const { return !(*this == o); }
};

// The region and account of a CloudFormation ARN (a stack's or a change
// set's ID); false when `arn` is not one.
bool ScopeOfArn(std::string_view arn, StackScope* out);

}  // namespace ms
