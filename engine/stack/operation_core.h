// OperationCore: what every stack operation executor shares (operation.cc:
// create, create rollback, delete; update_operation.cc: update, its cleanup
// and rollback). The executors decide *what* happens to which resource; the
// core owns *how* it happens:
//
//   calls        Dispatch journals the intent and queues the call; Pump
//                commits the checkpoint, then hands the queue to the
//                scheduler (with the observer's injected outcomes and
//                latencies); Poll re-calls an in-progress hook later.
//   checkpoints  dirty records, the stack record and events go into one
//                StoreBatch committed once per scheduler round (RequestPump);
//                in real time, rounds that send no call share commits.
//   statuses     SetStatus / SetStackStatus check every transition
//                (stack/status.h) and record its event.
//
// Invariants:
//  - a provider call is sent only once the checkpoint holding its intent
//    (pending_hook) is taken: the world's changes and the rows fixed under
//    the store's write lock. Its write may still be finishing on the
//    connection's writer thread (Pump overlaps it with the next round), but
//    what the calls do reaches the store only in a later commit, so a crash
//    before the write is done loses the calls' effects with their intents;
//  - under a virtual clock a checkpoint is taken when no call is in flight,
//    so the store holds the world exactly as the recorded outcomes left it.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "eval/evaluator.h"
#include "run/scheduler.h"
#include "stack/early_validation.h"
#include "stack/operation.h"
#include "stack/provider_log_collector.h"
#include "stack/resource_signals.h"
#include "records/stack.h"
#include "stack/stack_environment.h"
#include "store/stack_tables.h"
#include "template/template.h"

namespace ms {

// A resource as the core tracks it; the executors' own per-resource state
// derives from it.
struct TrackedResource {
  ResourceRecord rec;
  bool has_record = false;  // the stack has (or is making) a record for it
  bool busy = false;        // a call or a timer of it is outstanding
  bool dirty = false;       // its record changed since the last checkpoint
  // Cancelled because a sibling failed: its hook is still followed, silently,
  // until it answers, so what it made is known and rolled back.
  bool cancelled = false;
  int64_t create_started_ms = 0;  // its create's start (a signal Timeout counts from it); 0 before a restart
  // The running hook's deadline (its first call plus the type's handler
  // timeout; after a restart, counted again from the first call then).
  int64_t call_deadline_ms = 0;
  SignalPolicy signals;           // its CreationPolicy, while it waits for signals
  int handler_retries = 0;        // retriable handler errors answered in a row (not journaled)
  // The properties its events show when they hold ssm-secure / secretsmanager
  // references: the references, never the resolved secrets of rec.properties
  // (null: they hold none). Not journaled: after a restart, the events of a
  // resource resolved before it show rec.properties.
  Value shown_properties;
};

// The journal's mark (pending_hook) of a resource whose create completed and
// which waits for its CreationPolicy's signals: a restart resumes the wait
// instead of calling create again. Its progress is {since_ms, reported: [UniqueId]}.
inline constexpr const char* kSignalWaitHook = "signal";

// A hook still in progress at its deadline (TypeSchema::timeout_seconds)
// fails with this reason, as a registry handler past its timeoutInMinutes.
inline constexpr const char* kHandlerTimedOutReason = "Resource timed out waiting for completion";
// The least delay before an in-progress hook is called again, whatever it
// asked for: a hook answering "again at once" forever still lets time
// pass, so its deadline comes (and the journal is not rewritten in a loop).
inline constexpr double kMinPollSeconds = 1.0;
// A hook failing with a retriable handler error code is called again, with
// the same progress, after 5, 10, 20, 40 and 80 seconds; the sixth such
// failure in a row stands (as does the hook's deadline, whichever is first).
inline constexpr int kMaxHandlerRetries = 5;
inline constexpr double kFirstHandlerRetrySeconds = 5.0;

class OperationCore {
 public:
  explicit OperationCore(const OperationContext& ctx);
  virtual ~OperationCore() = default;

 protected:
  // Loads the stack and its records; seeds the event-ID generator.
  Status LoadStackAndRecords(const std::string& stack_id, std::vector<ResourceRecord>* records);
  // After the executor has started its phase: runs the scheduler until
  // nothing is left, commits, and checks the stack reached a terminal status.
  Status RunToEnd();
  // Set by an executor stopping a nested stack where its parent's operation
  // goes on (OperationContext::parent_runs_cleanup): RunToEnd accepts the
  // stack still in progress.
  bool left_to_parent_ = false;

  // --- calls ---
  // `update_policy` evaluated (EvaluatedPolicy), as every hook sees it.
  HookContext BaseContext(const std::string& logical_id, const Value& update_policy) const;
  // A resource's UpdatePolicy or CreationPolicy as hooks see it: evaluated
  // like its properties. Null when absent, or when it does not evaluate
  // (template validation has already refused such a policy).
  static Value EvaluatedPolicy(const Value& policy, const Evaluator& ev);
  // Journals the intent, then queues the call (sent by Pump after a commit).
  void Dispatch(TrackedResource& r, HookCall call, Scheduler::CallDone done);
  // What a failure's handler error code makes of it (see IsAlreadyDeleted,
  // IsRetriableHandlerError): a NotFound delete is done; a retriable failure
  // becomes "in progress" with a backoff, kMaxHandlerRetries times in a row.
  void ApplyHandlerErrorCode(TrackedResource& r, Hook hook, const Value& progress, HookOutcome* o);
  // An in-progress answer: save the progress, call again after its delay
  // (at least kMinPollSeconds, at most until the hook's deadline).
  // Its progress reasons are recorded as events first (ReportProgress).
  void Poll(TrackedResource& r, const HookOutcome& o, std::function<void()> again);
  // One event per reason, in the resource's current in-progress status
  // (nothing for a resource followed silently or not in progress).
  void ReportProgress(TrackedResource& r, const std::vector<std::string>& reasons);
  void EndCall(TrackedResource& r);
  // Pumps once the scheduler has run every callback of this round.
  void RequestPump();
  // Commits the checkpoint, then hands the queued calls to the scheduler.
  void Pump();
  // Hands one call to the scheduler now, stamped with the clock.
  void Send(HookCall call, Scheduler::CallDone done);
  // An AWS::CloudFormation::Stack hook: the child stack's operation, run on
  // this thread (stack/nested_stacks.h).
  HookOutcome CallNestedStack(const HookCall& call);
  // Starts a wait that keeps the phase open (counted as outstanding).
  void Wait(TrackedResource& r, double seconds, std::function<void()> then);
  // Starts a wide phase: start(i) for every i < n, then done(). Under a
  // virtual clock all at once (one round, as the crash tests expect); in
  // real time in slices, each committed and its calls sent before the next
  // slice starts, so the workers begin while the rest is still starting.
  void StartInSlices(size_t n, std::function<void(size_t)> start, std::function<void()> done);

  // --- executor hooks ---
  // A queued call of a cancelled resource about to be sent: true when it is
  // dropped instead (nothing was made yet), after the executor has ended it.
  virtual bool DropCancelled(TrackedResource& r, const HookCall& call) = 0;
  // After every outcome and after drops: the phase may be over now.
  virtual void Settle() = 0;
  // cancel-update-stack (or a scenario) asked to cancel the update running.
  virtual void OnCancel() {}
  // delete-stack was asked for while the stack is being created.
  virtual void OnDeleteRequested() {}

  // --- CreationPolicy signals (resource_signals.h) ---
  enum class SignalEnd { kComplete, kFailed, kCancelled };
  // A resource whose create (or replacement) just completed: true when its
  // CreationPolicy (decl's, evaluated with `ev`) makes it wait for signals;
  // SignalWaitEnded then says how the wait ended. A malformed policy ends it
  // at once (kFailed).
  bool StartSignalWait(TrackedResource& r, const ResourceDecl& decl, const Evaluator& ev);
  // After a restart (pending_hook kSignalWaitHook).
  void ResumeSignalWait(TrackedResource& r, const ResourceDecl& decl, const Evaluator& ev);
  virtual void SignalWaitEnded(TrackedResource& r, SignalEnd end, const std::string& reason) = 0;

  // --- checkpoints ---
  // The record goes into the next checkpoint once, however often it changed.
  void MarkDirty(TrackedResource& r);
  // The record is being removed: it must not be written again.
  void ForgetDirty(TrackedResource& r);
  // Commits the checkpoint (after the previous one's write, if it still runs).
  Status Flush();
  // The same, the write left to the store's writer thread (Pump's checkpoints).
  Status FlushInBackground();
  // Waits for the last FlushInBackground's write; its status.
  Status AwaitCheckpoint();
  // Moves the dirty records, the stack and the session's log lines into batch_.
  void TakeCheckpoint();
  // Whether Pump commits now (true) or leaves it to a later pump (see .cc).
  bool CheckpointDue();
  void Abort(const Status& s);
  ProviderSession* Session();  // this thread's: validation, DecideUpdate

  // --- pre-deployment validation (stack/early_validation.h) ---
  // Checks `plan` with `session` (this thread's, Session()) and the stack's
  // context (`validated`: see ValidateBeforeDeployment).
  Status ValidateEarly(ProviderSession& session, const Plan& plan, std::vector<ValidationFinding>* findings,
                       std::unordered_map<std::string, Value>* validated = nullptr);
  // Records the findings as the operation's VALIDATION_ERROR events and puts
  // the stack in `failed` (CREATE_FAILED or UPDATE_FAILED) with "Validation
  // failed with N error(s). ..." and DetailedStatus VALIDATION_FAILED. False
  // when the status change failed (the operation is aborted).
  bool FailValidation(StackStatus failed, const std::vector<ValidationFinding>& findings);

  // --- statuses and events ---
  bool SetStatus(TrackedResource& r, ResourceStatus to, const std::string& reason,
                 const Value& properties = Value());
  // `detailed_status`: its event's DetailedStatus (StackEvent).
  bool SetStackStatus(StackStatus to, const std::string& reason, const std::string& detailed_status = "");
  StackEvent NewEvent();
  void Record(StackEvent e);

  // --- the provider log (store/provider_log_table.h) ---
  // The lines a hook's answer carries, stamped with the clock, stack,
  // resource and hook, into the next checkpoint and to the observer; past
  // kProviderLogMaxLines per operation they are only counted. Each
  // checkpoint (Flush) adds what Validate, DecideUpdate and a scenario wrote.
  void CollectLog(const TrackedResource& r, Hook hook, const HookOutcome& o) {
    log_.Collect(r.rec.logical_id, hook, o, &batch_.logs);
  }
  // The last line of an operation that dropped some: "... N lines dropped".
  void RecordDroppedLogLines() { log_.RecordDropped(&batch_.logs); }

  // --- the stack ---
  // Evaluates the template's outputs into stack_.outputs; an export another
  // stack already has is AWS's ValidationError.
  Status EvaluateOutputs(const Template& tmpl, const Evaluator& evaluator);
  bool LookupExport(const std::string& name, std::string* value);
  std::string StackNameOf(const std::string& stack_id);

  const OperationContext& ctx_;
  Scheduler scheduler_;
  StackEnvironment env_;
  StackRecord stack_;
  bool stack_dirty_ = false;
  StoreBatch batch_;
  std::shared_ptr<PendingWrite> checkpoint_write_;  // the last checkpoint, while it is being written
  int outstanding_ = 0;  // resources with a call or a timer outstanding
  Status error_;

 private:
  // Parses the policy into r.signals; false after ending the wait kFailed.
  bool ParseSignals(TrackedResource& r, const ResourceDecl& decl, const Evaluator& ev, bool* has);
  void CheckSignals(TrackedResource& r);
  void StopSignalWait(TrackedResource& r);

  struct SlicedStart {
    size_t n;
    size_t next;
    std::function<void(size_t)> start;
    std::function<void()> done;
  };
  static constexpr size_t kFirstSlice = 32, kSlice = 128;
  void StartSlice(const std::shared_ptr<SlicedStart>& phase, size_t slice);

  struct Queued {
    TrackedResource* res;
    HookCall call;
    Scheduler::CallDone done;
  };

  std::unique_ptr<ProviderSession> session_;
  std::vector<TrackedResource*> dirty_;  // records the next checkpoint writes
  std::deque<Queued> queued_;  // a deque: a wide phase's calls are never moved as it grows
  bool pump_requested_ = false;
  ProviderLogCollector log_;        // this operation's provider log lines
  int64_t last_checkpoint_ms_ = 0;  // clock time of the last commit Pump made
  bool checkpoint_timer_ = false;   // a deferred checkpoint's pump is set
  bool interrupted_ = false;        // ctx_.interrupt stopped the run (Pump)
  std::mt19937_64 rng_;
};

}  // namespace ms
