// Pre-deployment validation (CloudFormation's "early validation", since
// November 2025): CreateChangeSet checks the template against the account
// before the change set can be executed, and a change set that fails is
// FAILED with nothing touched; since mid-2026 CreateStack runs the same
// checks before it makes anything (stack/operation.cc), its stack then
// CREATE_FAILED and rolled back. Two checks, both in FAIL mode:
//
//   NAME_CONFLICT_VALIDATION  a resource the change set would create whose
//       primary identifier is a name the template gives (BucketName,
//       RoleName, TableName, ...) that the account already holds: "Resource
//       of type 'T' with identifier 'I' already exists." at /Resources/X
//   PROPERTY_VALIDATION  a resource whose properties, fully known from the
//       template, its provider's validation refuses: each registry message
//       ("#/A/B: ...") at /Resources/X/Properties/A/B
//
// Only AWS's own types are checked (AWS lists the ones it checks by type);
// a private or third-party type, such as one a team develops here with the
// provider kit, fails at its create with its handler's message as before.
// Resources whose properties depend on others not yet made are checked when
// they are created, as before. A change set also gets one WARN check,
// which fails nothing (WarnBeforeDeployment). The findings are recorded as the stack's
// VALIDATION_ERROR events of the change set's operation (DescribeEvents),
// not as stack events.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "plan/plan.h"
#include "provider/provider.h"
#include "records/stack.h"
#include "template/template.h"

namespace ms {

struct ValidationFinding {
  std::string name;  // NAME_CONFLICT_VALIDATION, PROPERTY_VALIDATION or BUCKET_EMPTINESS_VALIDATION
  std::string logical_id;
  std::string type;
  std::string reason;  // ValidationStatusReason
  std::string path;    // ValidationPath: /Resources/X or /Resources/X/Properties/...
  bool warning = false;  // ValidationFailureMode WARN: reported, fails nothing
};

// The findings of both checks for `plan`'s added and modified resources, in
// the plan's order. `stack_ctx` is the stack's hook context (logical_id is
// filled in per resource). With `validated`, the coerced properties of each
// added resource that passed its provider's validation, by logical ID: a
// create need not validate them again.
Status ValidateBeforeDeployment(ProviderSession& session, const HookContext& stack_ctx, const Plan& plan,
                                std::vector<ValidationFinding>* out,
                                std::unordered_map<std::string, Value>* validated = nullptr);

// A change set's WARN check: each S3 bucket it would delete (removed, or
// replaced) that holds objects, unless the deployed template retains it
// (DeletionPolicy, or UpdateReplacePolicy for a replacement: Retain or
// RetainExceptOnCreate): BUCKET_EMPTINESS_VALIDATION, "The bucket 'B' is
// not empty. ..." (AWS's text, aws-cloudformation/rain#744). `deployed` is
// the stack's template.
Status WarnBeforeDeployment(ProviderSession& session, const HookContext& stack_ctx, const Plan& plan,
                            const Template& deployed, std::vector<ValidationFinding>* out);

// Whether any finding fails (its mode is FAIL).
bool AnyFailing(const std::vector<ValidationFinding>& findings);

// A failed change set's StatusReason: "The following hook(s)/validation
// failed: [AWS::EarlyValidation::ResourceExistenceCheck,
// AWS::EarlyValidation::PropertyValidation]. To troubleshoot ...".
std::string ChangeSetValidationFailure(const std::vector<ValidationFinding>& findings);

// CreateStack's: the stack's CREATE_FAILED reason for `errors` findings
// ("Validation failed with N error(s). Call DescribeEvents ..."), then its
// ROLLBACK_IN_PROGRESS reason (AWS's texts, from a recorded stack).
std::string StackValidationFailure(size_t errors);
inline constexpr const char* kValidationRollbackReason =
    "Validation failure detected. See the operation's FAILED event for details.";
// That CREATE_FAILED event's DetailedStatus.
inline constexpr const char* kValidationFailedDetail = "VALIDATION_FAILED";

// The event a finding is recorded as (StackEvent::validation_name), in the
// operation `operation_id`.
StackEvent ValidationErrorEvent(const StackRecord& stack, const std::string& operation_id, int64_t now_ms,
                                const ValidationFinding& f);

}  // namespace ms
