// Change sets: create-change-set, describe-, execute-, delete-,
// list-change-sets — a preview of a stack operation that can then be run.
//
// A change set is a rendering of the update planner's Plan (plan/planner.h),
// the same planner update-stack runs, with the same inputs (template,
// parameters resolved against the deployed stack, the deployed resources),
// so what a change set lists is what executing it does. Executing an UPDATE
// change set is update-stack with the change set's template and resolved
// parameters (StackService::StartUpdate); a CREATE one starts the create of
// the stack it put in REVIEW_IN_PROGRESS. An IMPORT one (stack/
// change_set_imports.h) is planned like either, checked against the
// resources to import and looked up in the world; executing it runs
// stack/import_operation.h.
//
// Planning is synchronous here, so a change set is never seen in
// CREATE_PENDING / CREATE_IN_PROGRESS: CreateChangeSet stores it
// CREATE_COMPLETE (AVAILABLE) or FAILED (UNAVAILABLE, when there is nothing
// to change). Template and parameter errors are CreateChangeSet's own
// synchronous ValidationErrors, as update-stack's are.
//
// Nested change sets (IncludeNestedStacks): after the parent's plan, each
// AWS::CloudFormation::Stack resource it modifies gets an UPDATE change set
// on its child stack, of the same name, made from the resource's planned
// TemplateURL and Parameters (a parameter whose value is known only when
// the parent runs is planned with the child's current value); the
// parent's change for the resource carries its ID, and it names its parent
// and root change sets. One with nothing to change still exists (FAILED,
// as any). Only the root is executed or deleted: executing it updates the
// parent as usual, and the nested resource's update executes the child's
// change set (NestedStackHooks::Update); deleting it deletes the nested ones.
//
// ExecutionStatus after an execution follows the stack: EXECUTE_IN_PROGRESS
// while its operation runs, then EXECUTE_COMPLETE (CREATE_COMPLETE or
// UPDATE_COMPLETE) or EXECUTE_FAILED — settled when the change set is next
// read, so the operation code knows nothing of change sets. A change set of
// a stack that changed since it was made (another one executed, an
// update-stack) is OBSOLETE.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "eval/parameters.h"
#include "plan/plan.h"
#include "stack/change_set_imports.h"
#include "stack/early_validation.h"
#include "stack/operation.h"
#include "records/stack.h"
#include "stack/stack_service.h"
#include "store/change_set_table.h"

namespace ms {

// AWS's StatusReason of a change set with nothing to change (DescribeChangeSet
// as recorded against AWS: localstack tests/aws/services/cloudformation/api/
// test_changesets.snapshot.json, test_empty_changeset).
inline constexpr const char* kNoChangesReason =
    "The submitted information didn't contain changes. Submit different information to create a change set.";

struct CreateChangeSetInput {
  std::string stack_name;  // a name, or a stack ID (UPDATE)
  std::string change_set_name;
  std::string change_set_type;  // CREATE, UPDATE or IMPORT (empty: UPDATE, AWS's default)
  std::string template_body;
  bool use_previous_template = false;
  std::vector<ParameterInput> parameters;
  std::vector<std::string> capabilities;
  // none: a new stack has none, an UPDATE keeps the stack's; given (even
  // empty): they replace the stack's, as UpdateStack's Tags.
  std::optional<std::vector<StackTag>> tags;
  std::string description;
  std::vector<ResourceToImport> resources_to_import;  // IMPORT
  // A change set on each nested stack (AWS::CloudFormation::Stack) the plan
  // modifies, recursively, under the same name: see "Nested change sets".
  bool include_nested_stacks = false;
};

struct ExecuteChangeSetInput {
  std::string change_set_name;  // a name (with stack_name) or a change set ID
  std::string stack_name;
  bool disable_rollback = false;
  std::string client_request_token;
};

// What a change set of this type would do to the stack: the planner's Plan,
// with everything the change set and its execution need.
struct ChangeSetPlanInput {
  std::string stack_name;
  std::string change_set_name;  // for AWS's messages only
  // CREATE, UPDATE or IMPORT (planned as a CREATE for a stack that does not
  // exist or is in review, else as an UPDATE)
  std::string type;
  std::string template_body;
  bool use_previous_template = false;
  std::vector<ParameterInput> parameters;
  std::vector<std::string> capabilities;
  const std::vector<StackTag>* tags = nullptr;  // the stack's tags after it (null: unchanged)
};

struct ChangeSetPlan {
  // The stack planned against: the deployed one (UPDATE), the one in
  // REVIEW_IN_PROGRESS, or (new_stack) a record not saved yet with its
  // new ID and name.
  StackRecord stack;
  bool new_stack = false;
  std::string template_body;  // the template used (use_previous_template resolved)
  std::string original_template_body;  // as submitted, when AWS::Include changed it (else empty)
  std::string description;    // the template's Description
  std::vector<ResourceRecord> deployed;  // the stack's resources planned against (none for CREATE)
  std::shared_ptr<const Template> tmpl;  // the template used, parsed
  Plan plan;
};

Status PlanChangeSet(const OperationContext& ctx, const ChangeSetPlanInput& in, ChangeSetPlan* out);

// The ResourceChanges of a plan, in the plan's order (dependencies first,
// then removed resources by logical ID); resources without a change left out.
// With the deployed resources, each change has its Before/AfterContext (a
// value known only once the change runs: "{{changeSet:KNOWN_AFTER_APPLY}}").
// DescribeChangeSet without IncludePropertyValues: the contexts left out.
void DropPropertyValues(ChangeSetRecord* cs);

std::vector<ChangeSetResourceChange> ResourceChangesOf(const Plan& plan,
                                                       const std::vector<ResourceRecord>* deployed = nullptr);

class ChangeSetService {
 public:
  explicit ChangeSetService(OperationContext ctx) : ctx_(std::move(ctx)), stacks_(ctx_) {}

  // Plans and saves the change set; a CREATE change set of a stack that
  // does not exist saves the stack REVIEW_IN_PROGRESS (no resources).
  Status Create(const CreateChangeSetInput& in, std::string* change_set_id, std::string* stack_id);
  // Refuses a nested change set (execute or delete its root's instead).
  static Status NotRoot(const ChangeSetRecord& cs, const char* verb);
  // By change set ID, or by name with the stack's name or ID.
  Status Describe(const std::string& change_set, const std::string& stack_name, ChangeSetRecord* out);
  // Starts the stack's operation (CREATE_IN_PROGRESS or UPDATE_IN_PROGRESS,
  // saved with its "User Initiated" event) and marks the stack's other
  // change sets OBSOLETE. The caller runs the operation, as after
  // StackService::StartUpdate. *stack_name: the stack's name (for its lock).
  Status Execute(const ExecuteChangeSetInput& in, std::string* stack_id, std::string* stack_name = nullptr);
  Status Delete(const std::string& change_set, const std::string& stack_name);
  // The stack's change sets in creation order.
  Status List(const std::string& stack_name, std::vector<ChangeSetRecord>* out);

 private:
  Status Find(const std::string& change_set, const std::string& stack_name, StackRecord* stack,
              ChangeSetRecord* out);
  Status FindStackForChangeSets(const std::string& stack_name, StackRecord* out);
  // Create for a nested change set too: `parent` the change set of the
  // parent stack (null: a root).
  Status CreateUnder(const CreateChangeSetInput& in, const ChangeSetRecord* parent, std::string* change_set_id,
                     std::string* stack_id);
  // The nested change sets of `cs`'s modified nested stacks, their IDs into
  // cs->changes; on failure the ones already made are deleted.
  Status CreateNested(const CreateChangeSetInput& in, const ChangeSetPlan& planned, ChangeSetRecord* cs);
  // Deletes the nested change sets of `cs`, recursively.
  Status DeleteNested(const ChangeSetRecord& cs);
  Status StartCreateFromReview(const ChangeSetRecord& cs, const ExecuteChangeSetInput& in, StackRecord stack);
  // An IMPORT change set's checks and lookups, into `cs`.
  Status PlanImport(const CreateChangeSetInput& in, const ChangeSetPlan& planned, ChangeSetRecord* cs);
  // Pre-deployment validation of a CREATE or UPDATE change set (early_validation.h).
  Status ValidateEarly(const ChangeSetPlan& planned, std::vector<ValidationFinding>* out);

  OperationContext ctx_;
  StackService stacks_;
};

// ExecutionStatus as the stack now says (see above), given the seq of its
// latest event; true when it changed.
bool SettleExecutionStatus(const StackRecord& stack, int64_t latest_event_seq, ChangeSetRecord* cs);

}  // namespace ms
