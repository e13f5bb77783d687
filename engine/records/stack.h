// The records of a stack: the stack itself, its resources and its events, as
// the store keeps them and the describe-* calls show them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "records/stack_operation.h"
#include "records/status.h"
#include "template/value.h"

namespace ms {

struct StackParameterValue {
  std::string key;
  std::string value;           // as given ("****" is applied when shown, not here)
  bool no_echo = false;
  std::string resolved_value;  // SSM parameter types: the value it resolved to
};

struct StackOutputValue {
  std::string key;
  std::string value;
  std::string description;
  std::string export_name;  // empty: not exported
};

struct StackTag {
  std::string key;
  std::string value;
};

struct StackRecord {
  std::string id;  // arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid>
  std::string name;
  std::string description;
  StackStatus status = StackStatus::kCreateInProgress;
  std::string reason;
  int64_t created_ms = 0;
  int64_t updated_ms = 0;  // 0: never updated
  // DeletionTime: when a failed create's rollback began deleting its
  // resources (ROLLBACK_IN_PROGRESS), then when the stack was deleted. 0: neither.
  int64_t deleted_ms = 0;
  std::string template_body;
  // The template as submitted, when a transform (AWS::Include) changed it:
  // GetTemplate's TemplateStage Original, and what UsePreviousTemplate
  // processes again. Empty: the same as template_body.
  std::string original_template_body;
  // Read without its templates (a describe call's read, store/stack_tables.h
  // StackRowParts::kRecordOnly): such a copy is never written back, since
  // CommitBatch would store its empty templates.
  bool templates_omitted = false;
  std::vector<StackParameterValue> parameters;
  std::vector<std::string> capabilities;
  std::vector<StackTag> tags;
  std::vector<StackOutputValue> outputs;
  std::string on_failure = "ROLLBACK";  // ROLLBACK, DELETE, DO_NOTHING (--disable-rollback)
  int64_t timeout_in_minutes = 0;       // create-stack's TimeoutInMinutes; 0: none
  bool termination_protection = false;
  std::string client_request_token;
  // The IAM role CloudFormation acts with (create-stack/update-stack
  // --role-arn; an update without one keeps it). Shown, not assumed.
  std::string role_arn;
  // The SNS topics the stack's events are for (NotificationARNs: shown, no
  // notification is sent; a nested stack's are its parent's).
  std::vector<std::string> notification_arns;
  // The change set whose execution started the stack's last operation
  // (DescribeStacks' ChangeSetId); empty after a direct create or update.
  std::string change_set_id;
  std::vector<std::string> retain_resources;  // delete-stack --retain-resources, for the operation running
  std::vector<std::string> resources_to_skip;  // continue-update-rollback --resources-to-skip, likewise
  std::vector<std::string> imports;           // export names its template imports (Fn::ImportValue)
  // The providers of the process that started the stack's last operation
  // (OperationContext::provider_source): a crashed operation is resumed with
  // the same ones, whoever resumes it.
  std::vector<std::string> provider_dirs;
  bool stub_unknown_types = false;
  // While an update runs (and after, until the next one): the template and
  // parameters the stack had before it, what update rollback goes back to
  // and what cleanup orders the removed resources' deletes by.
  std::string previous_template_body;
  std::string previous_original_template_body;  // its original_template_body
  std::vector<StackParameterValue> previous_parameters;
  // The stack's tags before the update (UpdateStack's Tags replace them):
  // what update rollback restores, what providers re-tag resources from.
  std::vector<StackTag> previous_tags;
  // The stack policy (empty: none), and the temporary one the running update
  // was given (update-stack --stack-policy-during-update-body; meaningful
  // while that update is in progress, replaced by the next update-stack).
  std::string stack_policy_body;
  std::string stack_policy_during_update_body;
  // A nested stack (an AWS::CloudFormation::Stack resource's child): the
  // stack whose resource it is, and the top of its tree (DescribeStacks'
  // ParentId and RootId). Empty for a stack created directly.
  std::string parent_id;
  std::string root_id;
  // The running (or last) operation's ID: the events the stack records
  // carry it. last_operations: newest first, the rollback a failure started
  // (if any), then the operation the stack's user started (DescribeStacks'
  // LastOperations: [ROLLBACK, CREATE_STACK] after a failed create, as AWS
  // shows it). Empty for a stack saved before operations had IDs.
  std::string operation_id;
  std::vector<StackOperation> last_operations;

  // Enters `to` from `from` (nullopt: a stack being made): a status that
  // starts an operation (OperationStartedBy) gives the stack `new_id` as its
  // operation's ID first.
  void BeginOperationFor(std::optional<StackStatus> from, StackStatus to, const std::string& new_id);
  // Notes the DeletionTime entering `to` at `now_ms` gives (deleted_ms):
  // AWS shows one from a create's ROLLBACK_IN_PROGRESS on (a describe-stacks
  // of a stack rolling back, 9 s after its CreationTime), and the deletion's.
  void NoteDeletionTime(StackStatus to, int64_t now_ms);

  bool disable_rollback() const { return on_failure == "DO_NOTHING"; }
  // The template GetTemplate shows (seed 001): the one being created or
  // updated to, except while an update rolls back (or its rollback failed):
  // the one it goes back to.
  const std::string& shown_template_body() const {
    return shows_previous_template() ? previous_template_body : template_body;
  }
  // The same template as submitted (TemplateStage Original).
  const std::string& shown_original_template_body() const {
    if (shows_previous_template()) {
      return previous_original_template_body.empty() ? previous_template_body : previous_original_template_body;
    }
    return submitted_template_body();
  }
  // The template UsePreviousTemplate starts from: the one submitted.
  const std::string& submitted_template_body() const {
    return original_template_body.empty() ? template_body : original_template_body;
  }
  // Makes the stack's template the one it had before the update (update
  // and import rollback).
  void RestorePreviousTemplate() {
    template_body = previous_template_body;
    original_template_body = previous_original_template_body;
  }

 private:
  bool shows_previous_template() const {
    const bool rolling_back =
        status == StackStatus::kUpdateRollbackInProgress || status == StackStatus::kUpdateRollbackFailed;
    return rolling_back && !previous_template_body.empty();
  }
};

// What the running update (or a failed one, until it is rolled back or a
// later update completes) did to a resource: the update journal, so its
// rollback can resume after a restart, be continued
// (continue-update-rollback) or be started later (rollback-stack).
enum class UpdateStep {
  kNone,
  kAdded,     // created by the update: rollback cleanup deletes it
  kUpdated,   // updated in place: rollback_properties is what it had
  kReplaced,  // replaced: old_physical_id is the original, rollback points back at it
  kRestored,  // rolled back: nothing left to undo (cleanup deletes old_physical_id if any)
};
const char* UpdateStepName(UpdateStep s);  // "" for kNone
bool ParseUpdateStep(std::string_view name, UpdateStep* out);

// A resource of a stack. `pending_hook` and `progress` are the journal: the
// hook about to be called (written before the call) and the in-progress
// context it returned (written after), so a restart resumes where the last
// saved state left off.
struct ResourceRecord {
  std::string stack_id;
  std::string logical_id;
  std::string type;
  std::string physical_id;  // empty until the provider gives one
  ResourceStatus status = ResourceStatus::kCreateInProgress;
  std::string reason;
  int64_t updated_ms = 0;
  Value properties;  // evaluated and coerced (a map), as the provider got them
  Value attributes;  // what the provider returned (a map), for Fn::GetAtt
  std::string pending_hook;  // "create", "delete", ... while a call is under way; else empty
  Value progress;            // the in-progress context of pending_hook (null on its first call)
  // A replacement made by the running update: the old physical resource,
  // deleted by cleanup (or pointed back at by rollback). Empty otherwise.
  std::string old_physical_id;
  Value old_properties;
  Value old_attributes;
  // The update journal (see UpdateStep).
  UpdateStep update_step = UpdateStep::kNone;
  Value rollback_properties;  // kUpdated: the properties before the update
  Value rollback_attributes;
};

struct StackEvent {
  std::string event_id;
  std::string stack_id;
  std::string stack_name;
  std::string logical_id;
  std::string physical_id;
  std::string type;
  int64_t timestamp_ms = 0;
  std::string status;  // a StackStatus or ResourceStatus name
  std::string reason;
  std::string properties;  // ResourceProperties: JSON text, or empty
  std::string client_request_token;
  std::string operation_id;  // the stack operation that recorded it (empty: saved before IDs)
  // DetailedStatus: VALIDATION_FAILED on the stack's CREATE_FAILED (or
  // UPDATE_FAILED) when pre-deployment validation failed; else empty.
  std::string detailed_status;
  // A pre-deployment validation's failure (DescribeEvents' VALIDATION_ERROR,
  // which DescribeStackEvents does not show; stack/early_validation.h): the
  // validation's name and the template path it points at. Empty for every
  // other event.
  std::string validation_name;
  std::string validation_path;
  std::string validation_mode;  // ValidationFailureMode: FAIL or WARN

  bool is_validation_error() const { return !validation_name.empty(); }
};

}  // namespace ms
