// StackPolicy: a CloudFormation stack policy document, parsed and validated,
// and the one question an update asks of it: may this update action be done
// on this resource?
//
// The document (AWS CloudFormation User Guide, "Prevent updates to stack
// resources"):
//   {"Statement": [{"Effect": "Allow"|"Deny",
//                   "Action"|"NotAction": "Update:Modify"|"Update:Replace"|
//                                         "Update:Delete"|"Update:*" (or a list),
//                   "Principal": "*",
//                   "Resource"|"NotResource": "*" | "LogicalResourceId/<glob>" (or a list),
//                   "Condition": {"StringEquals"|"StringLike":
//                                   {"ResourceType": "<type>" (or a list)}}}]}
// Any other shape is `Error validating stack policy: Invalid stack policy`
// (AWS's ValidationError for a policy that is not JSON, has another
// Principal or another action; corpus AWS_ERROR_MESSAGES.md).
//
// Evaluation, as the User Guide documents it: once a stack has a policy,
// every action not explicitly allowed is denied; an explicit Deny overrides
// any Allow; a stack without a policy allows everything. `{}` (a document
// without Statement, which AWS accepts) counts as no policy.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace ms {

// The update actions a stack policy names.
enum class PolicyAction { kModify, kReplace, kDelete };

// "Update:Modify", "Update:Replace", "Update:Delete".
const char* PolicyActionName(PolicyAction a);

class StackPolicy {
 public:
  // No policy: everything is allowed.
  StackPolicy() = default;

  // Parses `body`; an empty body is no policy. Errors: the ValidationError
  // above (kValidationMessage).
  static Status Parse(std::string_view body, StackPolicy* out);

  // True when the stack has a policy with statements.
  bool present() const { return present_; }

  // May `action` be done on the resource `logical_id` of type `type`?
  bool Allows(PolicyAction action, std::string_view logical_id, std::string_view type) const;

  static constexpr const char* kValidationMessage = "Error validating stack policy: Invalid stack policy";

 private:
  struct Statement {
    bool allow = false;
    bool not_action = false;       // NotAction: every action but these
    std::vector<std::string> actions;
    bool not_resource = false;     // NotResource: every resource but these
    std::vector<std::string> resources;  // "*" or "LogicalResourceId/<glob>"
    std::vector<std::string> type_equals;  // Condition StringEquals ResourceType (any of)
    std::vector<std::string> type_like;    // Condition StringLike ResourceType (any of, globs)
    bool Matches(PolicyAction action, std::string_view logical_id, std::string_view type) const;
  };

  bool present_ = false;
  std::vector<Statement> statements_;
};

// Checks a policy body (empty: nothing to check) — the synchronous check of
// CreateStack, UpdateStack and SetStackPolicy.
Status ValidateStackPolicy(std::string_view body);

// The checks of a <member>Body / <member>URL pair of an API call (member:
// "StackPolicy" or "StackPolicyDuringUpdate"): both given is AWS's
// `You cannot specify both StackPolicyURL and StackPolicyBody`; a URL is
// refused (moonstack never fetches URLs); then ValidateStackPolicy(body).
Status CheckStackPolicyInput(const std::string& body, const std::string& url, const std::string& member);

// IAM's StringLike matching: `*` any run of characters, `?` exactly one.
bool PolicyGlobMatch(std::string_view pattern, std::string_view text);

}  // namespace ms
