#include "stack/operation_core.h"

#include <algorithm>
#include <random>
#include <set>

#include "catalog/resource_catalog.h"
#include "stack/change_set_imports.h"
#include "eval/validate.h"
#include "stack/nested_stacks.h"
#include "stack/op_common.h"
#include "stack/outcome_limits.h"
#include "stack/stack_outputs.h"

namespace ms {


OperationCore::OperationCore(const OperationContext& ctx)
    : ctx_(ctx),
      scheduler_(ctx.providers, ctx.clock, ctx.scheduler),
      env_([this](const std::string& name, std::string* value) { return LookupExport(name, value); },
           [this](std::string_view type, std::string_view value) {
             ProviderSession* s = Session();
             return s == nullptr || s->ValueExists(type, value, ctx_.region, ctx_.account_id);
           },
           [this](std::string_view name, std::string* value) {
             ProviderSession* s = Session();
             return s != nullptr && s->SsmParameter(name, ctx_.region, ctx_.account_id, value);
           }),
      log_(ctx.clock, ctx.observer) {
  env_.set_stack_outputs(StoreStackOutputs(ctx_.db, ctx_.scope()));
}

Status OperationCore::LoadStackAndRecords(const std::string& stack_id, std::vector<ResourceRecord>* records) {
  bool found = false;
  MS_RETURN_IF_ERROR(LoadStack(ctx_.db, stack_id, &stack_, &found));
  if (!found) return Status::NotFound("Stack with id " + stack_id + " does not exist");
  // Event IDs are random, as AWS's are: two operations on one stack can start
  // at the same virtual millisecond (serve --time-scale 0), and a seed of the
  // stack and the clock alone repeated the first one's IDs in the second.
  std::random_device entropy;
  rng_.seed((static_cast<uint64_t>(entropy()) << 32) ^ entropy() ^ std::hash<std::string>()(stack_id));
  int64_t log_operation = 0;
  MS_RETURN_IF_ERROR(NextProviderLogOperation(ctx_.db, stack_id, &log_operation));
  log_.Start(stack_id, stack_.name, log_operation);
  return LoadResources(ctx_.db, stack_id, records);
}

Status OperationCore::RunToEnd() {
  // A cancel-update-stack (or an interrupt) arriving while the scheduler
  // waits for a timer wakes it: the next pump takes the request. Watched
  // before the first pump, so an interrupt cannot fall between the two.
  if (ctx_.cancels != nullptr) ctx_.cancels->Watch(stack_.id, [this] { scheduler_.Post([this] { RequestPump(); }); });
  Pump();
  Status ran = scheduler_.Run();
  if (ctx_.cancels != nullptr) ctx_.cancels->Unwatch(stack_.id);
  Status written = AwaitCheckpoint();
  MS_RETURN_IF_ERROR(ran);
  // A nested stack's operation whose root operation stopped (an interrupt,
  // an engine error) stops here as an interrupted one does.
  if (scheduler_.released()) interrupted_ = true;
  MS_RETURN_IF_ERROR(error_);
  MS_RETURN_IF_ERROR(written);
  RecordDroppedLogLines();
  MS_RETURN_IF_ERROR(Flush());  // after an interrupt: what the calls in flight answered
  if (interrupted_) return Status::OK();  // left in progress; the next start resumes it
  if (left_to_parent_) return Status::OK();  // in progress; the parent's operation goes on with it
  if (!IsTerminal(stack_.status)) {
    return Status::Internal(std::string("operation stopped with the stack in ") + StackStatusName(stack_.status));
  }
  return Status::OK();
}

// --- calls ------------------------------------------------------------------------

HookContext OperationCore::BaseContext(const std::string& logical_id, const Value& update_policy) const {
  HookContext c;
  c.stack_name = stack_.name;
  c.stack_id = stack_.id;
  c.logical_id = logical_id;
  c.region = ctx_.region;
  c.account_id = ctx_.account_id;
  c.stack_tags = StackTagsValue(stack_.tags);
  c.update_policy = update_policy;
  c.now_ms = ctx_.clock->NowMs();
  return c;
}

Value OperationCore::EvaluatedPolicy(const Value& policy, const Evaluator& ev) {
  Value v;
  if (policy.is_null() || !ev.Evaluate(policy, Section::kResourceProperties, &v).ok()) return Value();
  return v;
}

void OperationCore::Dispatch(TrackedResource& r, HookCall call, Scheduler::CallDone done) {
  if (!r.busy) {
    r.busy = true;
    ++outstanding_;
  }
  if (r.rec.pending_hook != HookName(call.hook) || r.call_deadline_ms == 0) {  // this hook's first call
    const TypeSchema* schema = ctx_.providers->Schema(call.type);
    const int64_t timeout_s =
        schema != nullptr && schema->timeout_seconds > 0 ? schema->timeout_seconds : kDefaultHandlerTimeoutSeconds;
    r.call_deadline_ms = ctx_.clock->NowMs() + timeout_s * 1000;
  }
  r.rec.pending_hook = HookName(call.hook);
  MarkDirty(r);
  queued_.push_back({&r, std::move(call), std::move(done)});
}

void OperationCore::ApplyHandlerErrorCode(TrackedResource& r, Hook hook, const Value& progress, HookOutcome* o) {
  if (IsAlreadyDeleted(hook, *o)) {
    *o = HookOutcome();  // done: the resource is gone
  } else if (o->kind == HookOutcome::Kind::kFailed && IsRetriableHandlerError(o->error_code) &&
             r.handler_retries < kMaxHandlerRetries) {
    // Called again as if in progress, with the progress it was called with.
    const double delay = kFirstHandlerRetrySeconds * static_cast<double>(1 << r.handler_retries);
    ++r.handler_retries;
    HookOutcome again;
    again.kind = HookOutcome::Kind::kInProgress;
    again.after_seconds = delay;
    again.progress = progress;
    again.physical_id = o->physical_id;
    *o = std::move(again);
    return;
  }
  r.handler_retries = 0;
  // A registry type's handler failure reads as CloudFormation words it for
  // private and third-party types: the user's own providers. AWS's types keep
  // the texts their providers give (AWS's own, per type), and custom
  // resources have theirs.
  if (o->kind == HookOutcome::Kind::kFailed && IsHandlerErrorCode(o->error_code) &&
      r.rec.type.rfind("AWS::", 0) != 0 && r.rec.type.rfind("Alexa::", 0) != 0 &&
      !ResourceCatalog::IsCustomType(r.rec.type) &&
      o->reason.rfind("Resource handler returned message:", 0) != 0) {
    o->reason = HandlerFailureReason(o->reason, NewUuid(), o->error_code);
  }
}

void OperationCore::Poll(TrackedResource& r, const HookOutcome& o, std::function<void()> again) {
  ReportProgress(r, o.progress_reasons);
  r.rec.progress = o.progress;
  MarkDirty(r);
  double delay = std::max(o.after_seconds, kMinPollSeconds);
  if (r.call_deadline_ms > 0) {  // called again at its deadline at the latest, to time out then
    delay = std::min(delay, std::max(0.0, static_cast<double>(r.call_deadline_ms - ctx_.clock->NowMs()) / 1000.0));
  }
  scheduler_.After(delay, [this, again = std::move(again)] {
    again();
    RequestPump();
  });
}

// A provider reporting more than this in one answer is cut short: the events
// are for people and tools reading them, not a log.
constexpr size_t kMaxProgressEventsPerAnswer = 1000;

void OperationCore::ReportProgress(TrackedResource& r, const std::vector<std::string>& reasons) {
  if (reasons.empty() || r.cancelled || r.rec.updated_ms == 0 || !IsInProgress(r.rec.status)) return;
  const size_t n = std::min(reasons.size(), kMaxProgressEventsPerAnswer);
  for (size_t i = 0; i < n; ++i) {
    if (!SetStatus(r, r.rec.status, reasons[i])) return;
  }
}

void OperationCore::EndCall(TrackedResource& r) {
  r.call_deadline_ms = 0;
  r.rec.pending_hook.clear();
  r.rec.progress = Value();
  MarkDirty(r);
  if (r.busy) {
    r.busy = false;
    --outstanding_;
  }
}

void OperationCore::Wait(TrackedResource& r, double seconds, std::function<void()> then) {
  r.busy = true;
  ++outstanding_;
  scheduler_.After(seconds, [this, &r, then = std::move(then)] {
    r.busy = false;
    --outstanding_;
    then();
    RequestPump();
  });
}

// A slice of 128 is about a millisecond of starting (evaluation,
// validation, events) and its commit; the first is smaller, so the first
// calls go out a fraction of that after the phase begins instead of after
// all of it (a 1,000-resource create: ~15 ms).
void OperationCore::StartInSlices(size_t n, std::function<void(size_t)> start, std::function<void()> done) {
  auto phase = std::make_shared<SlicedStart>(SlicedStart{n, 0, std::move(start), std::move(done)});
  StartSlice(phase, ctx_.clock->is_virtual() ? n : kFirstSlice);
}

void OperationCore::StartSlice(const std::shared_ptr<SlicedStart>& phase, size_t slice) {
  const size_t end = std::min(phase->n, phase->next + slice);
  for (; phase->next < end; ++phase->next) phase->start(phase->next);
  if (phase->next == phase->n) {
    phase->done();
    return;
  }
  // The pump (commit, then send this slice's calls) is set first, so it
  // runs before the next slice starts.
  RequestPump();
  scheduler_.After(0, [this, phase] { StartSlice(phase, kSlice); });
}

// Under a virtual clock no call is in flight once the scheduler has run every
// callback of a round, so the checkpoint holds the world exactly as the
// recorded outcomes left it, and one commit serves the whole round (the next
// round's calls start only once the world's changes are taken:
// FlushInBackground).
void OperationCore::RequestPump() {
  if (pump_requested_) return;
  pump_requested_ = true;
  scheduler_.After(0, [this] {
    pump_requested_ = false;
    Pump();
  });
}

void OperationCore::Pump() {
  if (!error_.ok()) return;
  if (ctx_.interrupt != nullptr && ctx_.interrupt->load()) {
    // The process is stopping: this checkpoint is the operation's last.
    // Queued calls stay journaled as intents and timers are dropped; a
    // restart re-sends the one and re-arms the other from the records.
    interrupted_ = true;
    Status s = Flush();
    if (!s.ok()) error_ = s;
    scheduler_.Stop();
    return;
  }
  if (stack_.status == StackStatus::kUpdateInProgress &&
      ((ctx_.cancels != nullptr && ctx_.cancels->Take(stack_.id)) ||
       (ctx_.observer != nullptr && ctx_.observer->TakeCancelRequest()))) {
    OnCancel();
  } else if (stack_.status == StackStatus::kCreateInProgress && ctx_.cancels != nullptr &&
             ctx_.cancels->TakeDelete(stack_.id)) {
    OnDeleteRequested();
  }
  if (CheckpointDue()) {
    Status s = FlushInBackground();
    if (!s.ok()) {
      Abort(s);
      return;
    }
  }
  std::deque<Queued> calls;
  calls.swap(queued_);
  bool dropped = false;
  for (Queued& q : calls) {
    if (q.res->cancelled && DropCancelled(*q.res, q.call)) {
      dropped = true;
      continue;
    }
    HookOutcome injected;
    double latency = 0;
    bool inject = false;
    if (q.res->call_deadline_ms > 0 && ctx_.clock->NowMs() >= q.res->call_deadline_ms) {
      injected.kind = HookOutcome::Kind::kFailed;  // still in progress at its deadline
      injected.reason = kHandlerTimedOutReason;
      inject = true;
    } else if (ctx_.observer != nullptr) {
      inject = ctx_.observer->BeforeCall(q.call, &injected, &latency);
    }
    Scheduler::CallDone on_done = [this, d = std::move(q.done), res = q.res, hook = q.call.hook,
                                   progress = q.call.ctx.progress](HookOutcome& o) {
      if (!error_.ok()) return;
      CollectLog(*res, hook, o);
      CheckOutcomePhysicalId(&o);  // an absurd ID fails the resource instead of being stored
      ApplyHandlerErrorCode(*res, hook, progress, &o);
      d(o);
      Settle();
      RequestPump();
    };
    if (inject) {
      scheduler_.After(latency, [done = std::move(on_done), injected]() mutable { done(injected); });
    } else if (latency > 0) {
      scheduler_.After(latency, [this, call = std::move(q.call), done = std::move(on_done)]() mutable {
        Send(std::move(call), std::move(done));
      });
    } else {
      Send(std::move(q.call), std::move(on_done));
    }
  }
  if (dropped) {  // the phase may be over now, and may have queued the next phase's calls
    Settle();
    if (!queued_.empty() || !batch_.empty() || stack_dirty_ || !dirty_.empty()) RequestPump();
  }
}

void OperationCore::Send(HookCall call, Scheduler::CallDone done) {
  if (call.type != kNestedStackType) {
    call.ctx.now_ms = ctx_.clock->NowMs();
    scheduler_.Call(std::move(call), std::move(done));
    return;
  }
  // A child stack's operation: on a fiber of its own, its scheduler a guest
  // of this one's, so siblings run side by side in the same rounds
  // (stack/NESTED.md).
  scheduler_.Spawn(
      [this, call = std::move(call)]() mutable {
        call.ctx.now_ms = ctx_.clock->NowMs();
        return CallNestedStack(call);
      },
      std::move(done));
}

HookOutcome OperationCore::CallNestedStack(const HookCall& call) {
  if (call.validate) {  // the registry schema's checks, as a worker makes them for other types
    HookOutcome o;
    Status s = Session() != nullptr ? Session()->Validate(call.type, call.ctx, call.properties, &o.coerced)
                                    : Status::OK();
    if (!s.ok()) {
      o.kind = HookOutcome::Kind::kFailed;
      o.reason = s.message();
      return o;
    }
    HookCall validated = call;
    if (!o.coerced.is_null()) validated.properties = o.coerced;
    HookOutcome r = NestedStackHooks(ctx_, stack_).Call(validated);
    r.coerced = validated.properties;
    return r;
  }
  return NestedStackHooks(ctx_, stack_).Call(call);
}

// --- CreationPolicy signals ----------------------------------------------------------

namespace {
// How often a waiting resource looks at the world for new signals (simulated
// seconds: no real time under the virtual clock).
constexpr double kSignalCheckSeconds = 5;
}  // namespace

bool OperationCore::StartSignalWait(TrackedResource& r, const ResourceDecl& decl, const Evaluator& ev) {
  bool has = false;
  if (!ParseSignals(r, decl, ev, &has)) return true;  // malformed: the resource failed
  if (!has || AutoSignalled(*ctx_.world, decl.type)) return false;
  Value progress = Value::MakeMap();
  // The Timeout counts from the start of the create ("The timeout period
  // starts after AWS CloudFormation starts creating the resource").
  progress.set("since_ms", Value::Integer(r.create_started_ms != 0 ? r.create_started_ms : ctx_.clock->NowMs()));
  progress.set("reported", Value::MakeList());
  r.rec.pending_hook = kSignalWaitHook;
  r.rec.progress = std::move(progress);
  MarkDirty(r);
  CheckSignals(r);
  return true;
}

void OperationCore::ResumeSignalWait(TrackedResource& r, const ResourceDecl& decl, const Evaluator& ev) {
  bool has = false;
  if (!ParseSignals(r, decl, ev, &has)) return;
  if (!has) {  // cannot happen with the same template; complete rather than wait forever
    StopSignalWait(r);
    SignalWaitEnded(r, SignalEnd::kComplete, "");
    return;
  }
  CheckSignals(r);
}

bool OperationCore::ParseSignals(TrackedResource& r, const ResourceDecl& decl, const Evaluator& ev, bool* has) {
  *has = false;
  if (decl.creation_policy.is_null()) return true;
  Value policy;
  Status s = ev.Evaluate(decl.creation_policy, Section::kResourceProperties, &policy);
  if (s.ok()) s = ParseSignalPolicy(policy, has, &r.signals);
  if (!s.ok()) {
    StopSignalWait(r);
    SignalWaitEnded(r, SignalEnd::kFailed, s.message());
    return false;
  }
  return true;
}

void OperationCore::StopSignalWait(TrackedResource& r) {
  r.rec.pending_hook.clear();
  r.rec.progress = Value();
  MarkDirty(r);
}

// Looks at the signals in the world: reports new SUCCESS signals (events in
// the resource's in-progress status), then completes, fails, or looks again a
// few seconds later (never past the deadline, so a timeout is recorded
// exactly when it falls due).
void OperationCore::CheckSignals(TrackedResource& r) {
  if (r.cancelled) {  // a sibling failed: stop waiting; rollback deletes what was made
    StopSignalWait(r);
    SignalWaitEnded(r, SignalEnd::kCancelled, "");
    return;
  }
  const Value* since_v = r.rec.progress.is_map() ? r.rec.progress.find("since_ms") : nullptr;
  const int64_t since = since_v != nullptr ? since_v->as_integer().value_or(0) : ctx_.clock->NowMs();
  std::set<std::string> reported;
  if (const Value* rep = r.rec.progress.is_map() ? r.rec.progress.find("reported") : nullptr; rep && rep->is_list()) {
    for (const Value& id : rep->list()) reported.insert(id.str());
  }
  const int64_t now = ctx_.clock->NowMs();
  SignalVerdict v = Decide(r.signals, SignalsFor(*ctx_.world, stack_.name, stack_.id, r.rec.logical_id, since),
                           reported, since, now);
  if (!v.received.empty()) {
    Value list = Value::MakeList();
    for (const std::string& id : reported) list.mutable_list().push_back(Value::String(id));
    for (const std::string& id : v.received) {
      if (!SetStatus(r, r.rec.status, ReceivedSuccessReason(id))) return;
      list.mutable_list().push_back(Value::String(id));
    }
    r.rec.progress.set("reported", std::move(list));
    MarkDirty(r);
  }
  switch (v.kind) {
    case SignalVerdict::Kind::kComplete:
      StopSignalWait(r);
      SignalWaitEnded(r, SignalEnd::kComplete, "");
      return;
    case SignalVerdict::Kind::kFailed:
      StopSignalWait(r);
      SignalWaitEnded(r, SignalEnd::kFailed, v.reason);
      return;
    case SignalVerdict::Kind::kWaiting: {
      const double remaining = static_cast<double>(since + r.signals.timeout_seconds * 1000 - now) / 1000.0;
      Wait(r, std::min(kSignalCheckSeconds, remaining), [this, &r] { CheckSignals(r); });
      return;
    }
  }
}

// --- checkpoints -------------------------------------------------------------------

void OperationCore::MarkDirty(TrackedResource& r) {
  if (r.dirty || !r.has_record) return;
  r.dirty = true;
  dirty_.push_back(&r);
}

void OperationCore::ForgetDirty(TrackedResource& r) {
  if (!r.dirty) return;
  dirty_.erase(std::remove(dirty_.begin(), dirty_.end(), &r), dirty_.end());
  r.dirty = false;
}

// Under a virtual clock every round commits (the crash tests stop at each
// checkpoint). In real time a commit per completion would cost a commit per
// provider call; a checkpoint that no call waits for (only statuses, events,
// outcomes changed) is deferred up to kCheckpointSpacingMs after the last
// one, so the completions of a wide phase share their commits. Nothing is
// lost meanwhile: the world's changes go in the same transaction.
bool OperationCore::CheckpointDue() {
  constexpr int64_t kCheckpointSpacingMs = 10;
  const int64_t now = ctx_.clock->NowMs();
  const int64_t due = last_checkpoint_ms_ + kCheckpointSpacingMs;
  if (ctx_.clock->is_virtual() || !queued_.empty() || stack_dirty_ || now >= due) {
    last_checkpoint_ms_ = now;
    return true;
  }
  if (!checkpoint_timer_) {
    checkpoint_timer_ = true;
    scheduler_.AfterWhileBusy(static_cast<double>(due - now) / 1000.0, [this] {
      checkpoint_timer_ = false;
      RequestPump();
    });
  }
  return false;
}

void OperationCore::TakeCheckpoint() {
  // Lines written apart from hook answers since the last checkpoint: the
  // validation and DecideUpdate of this thread's session, the scenario's.
  log_.CollectSideLines(session_.get(), &batch_.logs);
  for (TrackedResource* r : dirty_) {
    batch_.resources.push_back(&r->rec);  // serialized by the commit, on this thread
    r->dirty = false;
  }
  dirty_.clear();
  if (stack_dirty_) {
    batch_.stacks.push_back(stack_);
    stack_dirty_ = false;
  }
}

Status OperationCore::Flush() {
  MS_RETURN_IF_ERROR(AwaitCheckpoint());
  TakeCheckpoint();
  return CommitBatch(ctx_.db, ctx_.world, &batch_);
}

// The calls Pump sends next run while the SQLite work of this checkpoint
// (most of a wide phase's commit) finishes on the writer thread.
Status OperationCore::FlushInBackground() {
  MS_RETURN_IF_ERROR(AwaitCheckpoint());
  TakeCheckpoint();
  Status s;
  // The next round's calls go out as soon as the world's changes are taken:
  // they run while this thread serializes the records (a wide phase: ~5 ms
  // per 1,000 resources the workers would wait).
  checkpoint_write_ = CommitBatchInBackground(ctx_.db, ctx_.world, &batch_, &s, [this] { scheduler_.StartNextRound(); });
  return s;
}

Status OperationCore::AwaitCheckpoint() {
  if (!checkpoint_write_) return Status::OK();
  Status s = checkpoint_write_->Wait();
  checkpoint_write_.reset();
  return s;
}

void OperationCore::Abort(const Status& s) {
  if (error_.ok()) error_ = s;
  scheduler_.Stop();
}

ProviderSession* OperationCore::Session() {
  if (!session_) {
    Status s = ctx_.providers->NewSession(&session_);
    if (!s.ok()) {
      Abort(s);
      return nullptr;
    }
  }
  return session_.get();
}

// --- pre-deployment validation --------------------------------------------------------

Status OperationCore::ValidateEarly(ProviderSession& session, const Plan& plan,
                                    std::vector<ValidationFinding>* findings,
                                    std::unordered_map<std::string, Value>* validated) {
  const HookContext hc = ReadContext(stack_, "", ctx_.region, ctx_.account_id, ctx_.clock->NowMs());
  return ValidateBeforeDeployment(session, hc, plan, findings, validated);
}

bool OperationCore::FailValidation(StackStatus failed, const std::vector<ValidationFinding>& findings) {
  for (const ValidationFinding& f : findings) {
    Record(ValidationErrorEvent(stack_, stack_.operation_id, ctx_.clock->NowMs(), f));
  }
  return SetStackStatus(failed, StackValidationFailure(findings.size()), kValidationFailedDetail);
}

// --- statuses and events -------------------------------------------------------------

bool OperationCore::SetStatus(TrackedResource& r, ResourceStatus to, const std::string& reason,
                              const Value& properties) {
  std::optional<ResourceStatus> from;
  if (r.rec.updated_ms != 0) from = r.rec.status;
  // "Resource creation Initiated", signals received and a provider's
  // progress repeat an in-progress status with a reason.
  const bool repeat = from && *from == to && IsInProgress(to);
  if (!repeat) {
    Status s = CheckResourceTransition(from, to);
    if (!s.ok()) {
      Abort(Status::Internal(s.message() + " (" + r.rec.logical_id + ")"));
      return false;
    }
  }
  r.rec.status = to;
  r.rec.reason = CapStatusReason(reason);
  r.rec.updated_ms = ctx_.clock->NowMs();
  MarkDirty(r);
  StackEvent e = NewEvent();
  e.logical_id = r.rec.logical_id;
  e.physical_id = r.rec.physical_id;
  e.type = r.rec.type;
  e.status = ResourceStatusName(to);
  e.reason = reason;
  // AWS's events carry the resource's properties on every resource event:
  // those being applied when given, else the record's.
  if (!properties.is_null()) {
    e.properties = properties.ToJson();
  } else if (!r.shown_properties.is_null()) {
    e.properties = r.shown_properties.ToJson();
  } else if (r.rec.properties.is_map()) {
    e.properties = r.rec.properties.ToJson();
  }
  Record(std::move(e));
  return true;
}

bool OperationCore::SetStackStatus(StackStatus to, const std::string& reason, const std::string& detailed_status) {
  Status s = CheckStackTransition(stack_.status, to);
  if (!s.ok()) {
    Abort(s);
    return false;
  }
  stack_.BeginOperationFor(stack_.status, to, NewEventId(&rng_));
  stack_.status = to;
  stack_.reason = CapStatusReason(reason);
  stack_.NoteDeletionTime(to, ctx_.clock->NowMs());
  stack_dirty_ = true;
  StackEvent e = NewEvent();
  e.logical_id = stack_.name;
  e.physical_id = stack_.id;
  e.type = kStackResourceType;
  e.status = StackStatusName(to);
  e.reason = reason;
  e.detailed_status = detailed_status;
  Record(std::move(e));
  return true;
}

StackEvent OperationCore::NewEvent() {
  StackEvent e;
  e.event_id = NewEventId(&rng_);
  e.stack_id = stack_.id;
  e.stack_name = stack_.name;
  e.timestamp_ms = ctx_.clock->NowMs();
  e.client_request_token = stack_.client_request_token;
  e.operation_id = stack_.operation_id;
  return e;
}

void OperationCore::Record(StackEvent e) {
  e.reason = CapStatusReason(std::move(e.reason));  // every event's, cleanup's included
  if (ctx_.observer != nullptr) ctx_.observer->OnEvent(e);
  batch_.events.push_back(std::move(e));
}

// --- the stack -------------------------------------------------------------------------

Status OperationCore::EvaluateOutputs(const Template& tmpl, const Evaluator& evaluator) {
  std::vector<StackOutputValue> outputs;
  for (const OutputDecl& o : tmpl.outputs) {
    if (!evaluator.Included(o.condition)) continue;
    StackOutputValue out;
    out.key = o.name;
    MS_RETURN_IF_ERROR(CheckOutputAttributes(tmpl, o, ctx_.providers));
    Value v;
    MS_RETURN_IF_ERROR(evaluator.Evaluate(o.value, Section::kOutputs, &v));
    out.value = ScalarText(v);
    if (!o.description.is_null()) {
      Value d;
      MS_RETURN_IF_ERROR(evaluator.Evaluate(o.description, Section::kOutputs, &d));
      out.description = d.str();
    }
    if (!o.export_name.is_null()) {
      Value e;
      MS_RETURN_IF_ERROR(evaluator.Evaluate(o.export_name, Section::kOutputs, &e));
      out.export_name = e.str();
      ExportRecord existing;
      bool found = false;
      MS_RETURN_IF_ERROR(FindExport(ctx_.db, ctx_.scope(), out.export_name, &existing, &found));
      if (found && existing.stack_id != stack_.id) {
        return Status::Validation("Export with name " + out.export_name + " is already exported by stack " +
                                  StackNameOf(existing.stack_id));
      }
    }
    outputs.push_back(std::move(out));
  }
  stack_.outputs = std::move(outputs);
  stack_dirty_ = true;
  return Status::OK();
}

bool OperationCore::LookupExport(const std::string& name, std::string* value) {
  return ExportValue(ctx_.db, ctx_.scope(), name, value);
}

std::string OperationCore::StackNameOf(const std::string& stack_id) {
  StackRecord other;
  bool found = false;
  if (LoadStack(ctx_.db, stack_id, &other, &found).ok() && found) return other.name;
  return stack_id;
}

}  // namespace ms
