// StackService: the stack API the CLI and the HTTP server call — the
// synchronous half of each action (AWS's ValidationErrors before anything
// starts) and the queries. The asynchronous half is RunOperation
// (operation.h): embedded mode runs it before returning, the server on a
// thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "eval/parameters.h"
#include "eval/validate.h"
#include "stack/operation.h"
#include "records/stack.h"
#include "store/stack_tables.h"

namespace ms {

struct CreateStackInput {
  std::string stack_name;
  std::string template_body;
  std::vector<ParameterInput> parameters;
  std::vector<std::string> capabilities;
  std::string on_failure;        // ROLLBACK (default), DELETE, DO_NOTHING
  bool disable_rollback = false; // --disable-rollback: on_failure DO_NOTHING
  // TimeoutInMinutes: how long the create may take before it fails (and
  // rolls back); none: no limit. At least 1.
  std::optional<int64_t> timeout_in_minutes;
  std::vector<StackTag> tags;
  std::string client_request_token;
  std::string role_arn;  // RoleARN (empty: none)
  std::vector<std::string> notification_arns;  // NotificationARNs (at most 5)
  bool enable_termination_protection = false;
  std::string stack_policy_body;  // empty: none
  std::string stack_policy_url;   // refused: moonstack never fetches URLs
  // A nested stack's parent and root (stack/nested_stacks.h); empty: none.
  std::string parent_id;
  std::string root_id;
};

struct UpdateStackInput {
  std::string stack_name;  // a name or a stack ID
  std::string template_body;
  bool use_previous_template = false;
  std::vector<ParameterInput> parameters;  // use_previous_value: the deployed value
  std::vector<std::string> capabilities;
  bool disable_rollback = false;
  std::string client_request_token;
  std::string role_arn;       // RoleARN (empty: the stack's stays)
  // NotificationARNs: replace the stack's (an empty list removes them);
  // none given: the stack's stay.
  std::optional<std::vector<std::string>> notification_arns;
  std::string change_set_id;  // the change set being executed (empty: update-stack itself)
  // A change set's template as submitted, when AWS::Include changed it
  // (template_body is then the one it processed into).
  std::string original_template_body;
  // Replaces the stack policy (empty: unchanged); this update is still
  // checked against the policy it replaces.
  std::string stack_policy_body;
  std::string stack_policy_url;  // refused, as on create
  // A temporary policy this update is checked against instead of the
  // stack's (empty: the stack's).
  std::string stack_policy_during_update_body;
  std::string stack_policy_during_update_url;  // refused
  // Tags: replace the stack's (an empty list removes them all); none: the
  // stack keeps its tags. Propagated to its taggable resources.
  std::optional<std::vector<StackTag>> tags;
};

struct DeleteStackInput {
  std::string stack_name;  // a name or a stack ID
  std::vector<std::string> retain_resources;
  std::string client_request_token;
};

struct ContinueUpdateRollbackInput {
  std::string stack_name;  // a name or a stack ID
  std::vector<std::string> resources_to_skip;
  std::string client_request_token;
};

struct RollbackStackInput {
  std::string stack_name;  // a name or a stack ID
  std::string client_request_token;
};

struct CancelUpdateStackInput {
  std::string stack_name;  // a name or a stack ID
  std::string client_request_token;
};

class StackService {
 public:
  explicit StackService(OperationContext ctx) : ctx_(std::move(ctx)) {}

  // Checks everything AWS checks synchronously, saves the stack
  // CREATE_IN_PROGRESS with its "User Initiated" event, returns its ID.
  Status StartCreate(const CreateStackInput& in, std::string* stack_id, std::string* operation_id = nullptr);
  // The same for update-stack: plans the update ("No updates are to be
  // performed." when there is nothing to do) and saves the stack
  // UPDATE_IN_PROGRESS, keeping its previous template and parameters.
  Status StartUpdate(const UpdateStackInput& in, std::string* stack_id, std::string* operation_id = nullptr);
  // The same for delete-stack: DELETE_IN_PROGRESS. *stack_id is empty when
  // there was nothing to delete (AWS: deleting a missing stack succeeds).
  Status StartDelete(const DeleteStackInput& in, std::string* stack_id);
  // continue-update-rollback: an UPDATE_ROLLBACK_FAILED stack goes
  // UPDATE_ROLLBACK_IN_PROGRESS again; resources_to_skip (each UPDATE_FAILED
  // because its rollback failed) are taken as rolled back.
  Status StartContinueUpdateRollback(const ContinueUpdateRollbackInput& in, std::string* stack_id);
  // rollback-stack: a CREATE_FAILED or UPDATE_FAILED stack (rollback was
  // disabled) rolls back to its last stable state.
  Status StartRollbackStack(const RollbackStackInput& in, std::string* stack_id);
  // cancel-update-stack: asks the update running (UPDATE_IN_PROGRESS) in
  // this process to cancel and roll back; it does so before its next step.
  Status CancelUpdate(const CancelUpdateStackInput& in);
  // Runs the operation in progress on the stack to its end.
  Status Run(const std::string& stack_id) { return RunOperation(ctx_, stack_id); }
  // Runs every operation a crash left in progress.
  Status Recover(std::vector<std::string>* recovered = nullptr);

  // A stack of the context's region and account (OperationContext::scope)
  // by name (not deleted) or by ID (deleted ones too, for the 90
  // days AWS keeps them): "Stack with id X does not exist" otherwise; a
  // StackName that is neither: AWS's ValidationError (records/stack_name.h).
  // kRecordOnly (describe calls) leaves the templates out: such a record is
  // for reading only.
  Status FindStack(const std::string& name_or_id, StackRecord* out,
                   StackRowParts parts = StackRowParts::kWithTemplates);
  // Every stack of the context's region and account, deleted ones included
  // for 90 days (store/deleted_stacks.h).
  Status ListStacks(std::vector<StackRecord>* out, StackRowParts parts = StackRowParts::kWithTemplates);
  // Every stack of every region, deleted ones too (crash recovery resumes them all).
  Status ListStacksOfEveryRegion(std::vector<StackRecord>* out);
  Status Resources(const std::string& stack_id, std::vector<ResourceRecord>* out);
  // DescribeStackResource's Metadata (stack/resource_metadata.h); empty: none.
  std::string ResourceMetadata(const StackRecord& stack, const std::vector<ResourceRecord>& resources,
                               const std::string& logical_id);
  // The stack's events, newest first, as DescribeStackEvents shows them: the
  // pre-deployment validation findings left out (StackEvent::validation_name).
  Status Events(const std::string& stack_id, std::vector<StackEvent>* out);
  // Every event of the stack's operations, newest first, those findings
  // included (DescribeEvents).
  Status OperationEvents(const std::string& stack_id, std::vector<StackEvent>* out);
  // One page of each listing, read without the rest (store/stack_tables.h):
  // a 10,000-resource stack's listings page in O(page), not O(stack).
  Status ResourcePage(const std::string& stack_id, const PageRequest& page, std::vector<ResourceRecord>* out,
                      PageResult* result);
  Status EventPage(const std::string& stack_id, const PageRequest& page, std::vector<StackEvent>* out,
                   PageResult* result);

  // set-stack-policy: validates and saves the policy (refused while an
  // operation is in progress: its checkpoints save the whole record).
  Status SetStackPolicy(const std::string& name_or_id, const std::string& body, const std::string& url);
  // get-stack-policy: the policy in effect ("" when none) — while an update
  // given a during-update policy runs, that one (as AWS shows it).
  Status GetStackPolicy(const std::string& name_or_id, std::string* body);

  const OperationContext& context() const { return ctx_; }

 private:
  Status StartStackOperation(StackRecord* s, StackStatus to, const std::string& token);

  OperationContext ctx_;
};

// What create-stack, update-stack and create-change-set check of a template
// and its parameters before anything starts: the template (parsed through
// the template cache) is valid, the parameters resolve (`previous`: the
// deployed values UsePreviousValue takes), the capabilities it needs were
// given, and its conditions and Rules evaluate.
struct CheckedTemplate {
  std::shared_ptr<const Template> tmpl;
  TemplateSummary summary;
  ParameterValues values;
  DependencyGraph graph;  // tmpl's, every resource included (PlanInput::new_graph)
};
Status CheckTemplate(const OperationContext& ctx, const std::string& body, const std::vector<ParameterInput>& params,
                     const std::map<std::string, std::string>& previous, const std::vector<std::string>& capabilities,
                     const PseudoParameters& pseudo, CheckedTemplate* out);

// arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid>
std::string NewStackId(const std::string& region, const std::string& account, const std::string& name);

}  // namespace ms
