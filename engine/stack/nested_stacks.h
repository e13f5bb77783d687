// Nested stacks: the hooks of an AWS::CloudFormation::Stack resource, run by
// the engine itself instead of a provider. Each is a child stack's own
// operation (create, update, delete), run to its end inside the parent's
// resource step; see NESTED.md next to this file for the design.
//
//   create    starts the child `<parent>-<Logical>-<13 upper alnum>` (its
//             TemplateURL read like CreateStack's, its Parameters passed in)
//             and answers "in progress" with the child's ARN as the physical
//             ID (journaled); the next call runs the child's create. The
//             child complete: the resource is, with `Outputs.<Key>` and
//             StackId as attributes. Not: "Embedded stack <arn> was not
//             successfully created: <the child's reason>".
//   update    the child is updated to the new TemplateURL and Parameters
//             ("No updates are to be performed." is a success) and stops at
//             its cleanup phase, or at UPDATE_ROLLBACK_IN_PROGRESS when it
//             fails ("Embedded stack <arn> was not successfully updated.
//             Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: ...").
//   rollback  the child's update is rolled back in place, stopping at its
//             rollback cleanup phase.
//   read      in the parent's cleanup phase: the child runs its own cleanup.
//   delete    the child is deleted (its resources in reverse order).
//
// Crash safety: the child's name is a hash of the parent's ID and the
// logical ID, so a create re-called after a crash finds the child it had
// started; a child's operation left in progress is resumed by its parent's
// (StackService::Recover skips nested stacks).
#pragma once

#include <string>

#include "provider/provider.h"
#include "records/stack.h"
#include "stack/operation.h"
#include "store/change_set_table.h"

namespace ms {

inline constexpr const char* kNestedStackType = "AWS::CloudFormation::Stack";

// A value of the resource's Parameters as the child's parameter takes it (a
// list comma-delimited).
std::string NestedParameterText(const Value& v);

class NestedStackHooks {
 public:
  // `parent` is the running operation's stack record (read when a hook runs).
  NestedStackHooks(const OperationContext& ctx, const StackRecord& parent) : ctx_(ctx), parent_(parent) {}

  // Runs one hook of an AWS::CloudFormation::Stack resource on the calling
  // (operation's) thread; the child's operation runs to its end meanwhile.
  HookOutcome Call(const HookCall& call);

  // The child stack name of `logical_id` in stack `parent`: AWS's
  // `<parent>-<Logical>-<RANDOM>`, RANDOM derived from the parent's ID.
  static std::string ChildName(const StackRecord& parent, const std::string& logical_id);

 private:
  HookOutcome Create(const HookCall& call);
  HookOutcome Update(const HookCall& call, const Value& properties);
  HookOutcome Delete(const HookCall& call);
  // The parent's rollback: the child's update is rolled back in place
  // (UPDATE_ROLLBACK_IN_PROGRESS), its cleanup left to the parent's.
  HookOutcome Rollback(const HookCall& call);
  // A read call, made in the parent's cleanup phase: the child runs the
  // cleanup phase it stopped at (OperationContext::parent_runs_cleanup).
  HookOutcome FinishCleanup(const HookCall& call);
  // When the parent executes a root change set (IncludeNestedStacks): the
  // executable change set it made on the child of `logical_id`; else (or
  // none executable) *out is left empty.
  Status NestedChangeSet(const std::string& logical_id, const StackRecord& child, ChangeSetRecord* out);
  HookOutcome StillRunning(const StackRecord& child);
  HookOutcome NotUpdated(const StackRecord& child);
  // Runs the child's operation in progress to its end (or to an interrupt,
  // or to where it leaves its parent to go on), when `runs` its status.
  Status RunChild(const std::string& child_id, StackRecord* child, bool (*runs)(StackStatus) = IsInProgress);
  // The child's failure reason (its first *_FAILED or rollback event's).
  std::string FailureReason(const StackRecord& child);

  const OperationContext& ctx_;
  const StackRecord& parent_;
  OuterRestrictions outer_;  // an update's: the child's operation runs under them
};

}  // namespace ms
