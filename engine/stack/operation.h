// Operation: one stack operation (create with its rollback, delete) run to a
// terminal status. The ninja-like core of the lifecycle:
//
//   StackService (stack_service.h)  synchronous checks, then starts an Operation
//   Operation                       the DAG walk: which resource is ready, what
//                                   happens when a call comes back, rollback
//   Scheduler (run/scheduler.h)     provider calls on workers, timers, the clock
//   StoreBatch (store/stack_tables.h)  checkpoints: records, events, the world
//
// The walk is driven by the resources' statuses, so an operation interrupted
// by a crash resumes from the last checkpoint: completed resources stay
// complete, a resource whose journal says a hook was under way has that hook
// called again (with its saved progress).
//
// Invariants:
//  - every status change goes through SetStatus / SetStackStatus, which check
//    the transition (stack/status.h) and record the event;
//  - a provider call is made only after its intent (pending_hook) is in the
//    batch, and the batch is committed before the call is dispatched;
//  - a resource whose create was cancelled is still followed until its hook
//    answers, so its physical ID is known and rollback deletes it: nothing is
//    left in the world unaccounted for.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "provider/provider.h"
#include "run/clock.h"
#include "run/scheduler.h"
#include "stack/cancel_requests.h"
#include "stack/observer.h"
#include "stack/outer_restrictions.h"
#include "records/stack.h"
#include "records/stack_scope.h"
#include "store/database.h"
#include "world/world.h"

namespace ms {

struct OperationContext {
  Database* db = nullptr;
  World* world = nullptr;
  ProviderRuntime* providers = nullptr;
  Clock* clock = nullptr;
  OperationObserver* observer = nullptr;  // may be null
  CancelRequests* cancels = nullptr;      // may be null: cancel-update-stack for this process's operations
  // Where `providers` came from (the host's provider directories and
  // --stub-unknown-types), recorded in the stack when an operation starts.
  struct ProviderSource {
    std::vector<std::string> dirs;
    bool stub_unknown_types = false;
  } provider_source;
  // May be null. Set by another thread when this process wants its
  // operations to stop (a server shutting down or resetting): an operation
  // stops after its current checkpoint, its stack left *_IN_PROGRESS and its
  // journal intact, so the next start resumes it. Whoever sets it calls
  // cancels->WakeAll(), so an operation waiting for a timer stops at once.
  const std::atomic<bool>* interrupt = nullptr;
  SchedulerOptions scheduler;
  // Whether a TemplateURL may be file://PATH (stack/template_url.h): the
  // embedded CLI reads the caller's files, a server never does.
  bool allow_file_template_urls = false;
  // Set on a nested stack's operation run by its parent (NestedStackHooks):
  // as AWS runs a nested stack, its update stops at its cleanup phase
  // (UPDATE_COMPLETE_CLEANUP_IN_PROGRESS, UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS)
  // and at a failure (UPDATE_ROLLBACK_IN_PROGRESS), and the parent goes on
  // from there in its own cleanup phase or rollback (stack/NESTED.md).
  bool parent_runs_cleanup = false;
  // Set with it: the parent resource's UpdatePolicy.Allow, which restricts
  // the child's resources too (seed 003; stack/outer_restrictions.h).
  OuterRestrictions outer_restrictions;
  std::string region = "us-east-1";
  std::string account_id = "123456789012";
  // Where the request's stacks, exports and change sets are (records/stack_scope.h).
  StackScope scope() const { return {region, account_id}; }
};

// The reason of the rollback a delete-stack during the create starts.
inline constexpr const char* kDeleteRequestedReason = "Delete requested by user.";

// Runs the operation the stack's status says is in progress until the stack
// reaches a terminal status, or until ctx.interrupt stops it (then OK, with
// the stack still in progress). An engine error inside the operation (a
// template that no longer loads, an illegal transition) fails it, with the
// error as the stack's reason, instead of leaving it in progress; an error
// is returned only when even that cannot be stored. AWS-level failures end
// in a *_FAILED status as AWS's do.
Status RunOperation(const OperationContext& ctx, const std::string& stack_id);

// Records ctx's provider source in the stack starting an operation.
void RecordProviderSource(const OperationContext& ctx, StackRecord* s);

// Moves the stack to `to` (a checked transition) with its event, committed
// at once: an action's synchronous half, or the end of a broken operation.
Status CommitStackStatus(const OperationContext& ctx, StackRecord* s, StackStatus to, const std::string& reason);

}  // namespace ms
