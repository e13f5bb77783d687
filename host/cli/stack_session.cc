#include "cli/stack_session.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "base/regions.h"
#include "cli/io.h"
#include "cli/load_providers.h"
#include "lambda/runner.h"
#include "server/aws_wire.h"
#include "server/function_endpoint.h"
#include "stack/provider_log_format.h"
#include "store/schema.h"
#include "store/world_table.h"

namespace ms::cli {
namespace {

// The world record that remembers how far the virtual clock got.
constexpr const char* kClockKind = "moonstack";
constexpr const char* kClockId = "clock";
// How often a writer's log is copied into the database while it runs.
constexpr int kWalCheckpointIntervalMs = 100;

// Provider directories as recorded with an operation: absolute, so another
// process in another working directory loads the same ones.
std::vector<std::string> AbsolutePaths(const std::vector<std::string>& dirs) {
  std::vector<std::string> out;
  for (const std::string& d : dirs) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::absolute(d, ec);
    out.push_back(ec ? d : p.lexically_normal().string());
  }
  return out;
}

int64_t WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

StackSession::StackSession() = default;

StackSession::~StackSession() {
  if (function_endpoint_ != nullptr) lambda::SetDefaultEndpoint(nullptr);
}

Status StackSession::Open(const SessionOptions& options, OperationObserver* observer, Access access,
                          Resume resume) {
  // AWS's answer to a request scoped to a region it does not have.
  if (!IsAwsRegion(options.region)) return Status::InvalidRegion(InvalidRegionMessage(options.region));
  state_path_ = StatePath(options.state);
  region_ = options.region;
  lambda::SetExecutionEnabled(!options.no_lambda);  // for the process: one session per command or server
  if (access == Access::kWrite) {
    const bool served = options.writer.rfind(StateLock::kServeHolder, 0) == 0;
    MS_RETURN_IF_ERROR(StateLock::Acquire(state_path_, options.writer,
                                          served ? StateLock::Wait::kNever : StateLock::Wait::kUnlessServed,
                                          &state_lock_));
  }
  MS_RETURN_IF_ERROR(OpenStore(state_path_, &db_));
  // Bodies a crash left half-written belong to no record: the writer frees them.
  if (access == Access::kWrite) MS_RETURN_IF_ERROR(DeletePendingBlobs(db_.get()));
  blobs_ = std::make_unique<StoreBlobSource>(state_path_);
  world_.set_blob_source(blobs_.get());
  // A command's operation commits often (a checkpoint per step), and the same
  // records change from one commit to the next: the log is copied into the
  // database by a thread of its own every 100 ms (store/wal_checkpointer.h),
  // when it passes 64 MiB, and when the command closes the state (SQLite
  // checkpoints on the last close), not every 4 MiB on the operation's path.
  if (access == Access::kWrite) {
    MS_RETURN_IF_ERROR(db_->SetAutoCheckpointPages(16384));
    checkpointer_ = std::make_unique<WalCheckpointer>(state_path_, kWalCheckpointIntervalMs);
  }
  // The state's world and the providers' declarations load at once, on two
  // cores: neither needs the other (a provider file that touched the world
  // while loading would wait for the world's lock, which LoadWorld holds).
  Status providers_loaded;
  std::thread probe([&] {
    providers_loaded = LoadProviders(options.providers, &providers_, options.stub_unknown_types, &world_);
  });
  Status world_loaded = LoadWorld(db_.get(), &world_);
  probe.join();
  MS_RETURN_IF_ERROR(world_loaded);
  MS_RETURN_IF_ERROR(providers_loaded);
  if (!options.start_time.empty() && options.time_scale > 0) {
    return Status::Validation("--start-time (or MOONSTACK_START_TIME) applies to virtual time (--time-scale 0) only");
  }
  if (options.time_scale <= 0) {
    int64_t start = WallMs();
    if (!options.start_time.empty()) {
      std::optional<double> t = server::ParseTimestamp(options.start_time);
      if (!t) {
        return Status::Validation("--start-time: '" + options.start_time +
                                  "' is not a time (ISO 8601, e.g. 2026-01-01T00:00:00Z)");
      }
      start = static_cast<int64_t>(*t * 1000);
    }
    if (const WorldRecord* saved = world_.Find(kClockKind, kClockId)) {
      if (const Value* now = saved->value().find("now_ms")) start = std::max(start, now->as_integer().value_or(0));
    }
    clock_ = NewVirtualClock(start);
  } else if (options.time_scale == 1) {
    clock_ = NewRealClock();
  } else {
    clock_ = NewScaledClock(options.time_scale);
  }
  OperationContext ctx;
  ctx.db = db_.get();
  ctx.world = &world_;
  ctx.providers = providers_.get();
  ctx.clock = clock_.get();
  observers_.caller = observer;
  observers_.log_verbosity = options.log_verbosity;
  ctx.observer = &observers_;  // the provider log on stderr, then the caller's and the scenario's
  ctx.scheduler.max_concurrency = std::max(1, options.max_concurrency);
  // Provider calls are CPU work (the sandbox has no blocking I/O; a slow
  // resource answers in-progress and is polled): one worker per hardware
  // thread besides the operation's own. More only contend for the cores
  // (a 1,000-resource create through `serve` on 2 cores: ~10% slower with 4).
  ctx.scheduler.workers = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 2u, 9u)) - 1;
  ctx.region = options.region;
  ctx.allow_file_template_urls = true;  // the caller's own files, as the aws CLI reads them
  ctx.provider_source.dirs = AbsolutePaths(options.providers);
  ctx.provider_source.stub_unknown_types = options.stub_unknown_types;
  service_ = std::make_unique<StackService>(ctx);
  if (access == Access::kWrite && options.writer.rfind(StateLock::kServeHolder, 0) != 0) {
    // The functions this command runs reach its world through the AWS APIs
    // on 127.0.0.1, as under serve (server/function_endpoint.h): started by
    // the first one.
    function_endpoint_ =
        std::make_unique<server::FunctionEndpoint>(&world_, clock_.get(), options.providers, state_path_);
    server::FunctionEndpoint* endpoint = function_endpoint_.get();
    lambda::SetDefaultEndpoint([endpoint] { return endpoint->Url(); });
  }
  if (access == Access::kWrite && resume == Resume::kAtOpen) MS_RETURN_IF_ERROR(Recover());
  if (!options.scenario.empty()) {
    lua::ScenarioOptions so;
    so.file = options.scenario;
    lua::ProviderPaths paths = lua::DefaultProviderPaths(Home(), options.providers);
    so.module_roots.push_back(paths.sdk_dir);
    for (const std::string& d : paths.dirs) so.module_roots.push_back(d);
    so.world = &world_;
    so.region = options.region;
    so.account_id = ctx.account_id;
    so.now_ms = clock_->NowMs();
    MS_RETURN_IF_ERROR(lua::ScenarioObserver::Load(so, &scenario_));
    observers_.scenario = scenario_.get();
  }
  return Status::OK();
}

void StackSession::Observers::OnEvent(const StackEvent& e) {
  if (caller != nullptr) caller->OnEvent(e);
  if (scenario != nullptr) scenario->OnEvent(e);
}

void StackSession::Observers::OnProviderLog(const ProviderLogRecord& line) {
  // stderr: stdout is the command's result. A hook's error always shows
  // (its file:line); the rest with -v, DEBUG lines and tracebacks with --debug.
  // A scenario's lines (its print) are the command's own script's: shown as
  // a hook's error is, INFO and up.
  const LogLevel least = log_verbosity >= 2                           ? LogLevel::kDebug
                         : log_verbosity == 1 || line.hook == "scenario" ? LogLevel::kInfo
                                                                     : LogLevel::kError;
  if (line.level >= least) std::cerr << FormatProviderLogLine(line, log_verbosity >= 2) << std::endl;
  if (caller != nullptr) caller->OnProviderLog(line);
}

void StackSession::Observers::TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) {
  if (caller != nullptr) caller->TakeLog(stack_id, lines);
  if (scenario != nullptr) scenario->TakeLog(stack_id, lines);
}

bool StackSession::Observers::BeforeCall(const HookCall& call, HookOutcome* injected, double* latency_seconds) {
  bool inject = caller != nullptr && caller->BeforeCall(call, injected, latency_seconds);
  double added = 0;
  if (!inject && scenario != nullptr) inject = scenario->BeforeCall(call, injected, &added);
  *latency_seconds += added;
  return inject;
}

bool StackSession::Observers::TakeCancelRequest() {
  const bool by_caller = caller != nullptr && caller->TakeCancelRequest();
  const bool by_scenario = scenario != nullptr && scenario->TakeCancelRequest();
  return by_caller || by_scenario;
}

Status StackSession::Lock(const std::string& stack_name, std::unique_ptr<StackLock>* out) {
  MS_RETURN_IF_ERROR(StackLock::TryAcquire(state_path_, region_, stack_name, out));
  if (*out == nullptr) {
    return Status::Validation("Stack [" + stack_name + "] is being operated on by another moonstack process");
  }
  return Status::OK();
}

Status StackSession::Recover(std::vector<std::string>* resumed, const std::atomic<bool>* interrupt,
                             CancelRequests* cancels) {
  std::vector<StackRecord> stacks;
  MS_RETURN_IF_ERROR(service_->ListStacksOfEveryRegion(&stacks));
  for (const StackRecord& s : stacks) {
    if (interrupt != nullptr && interrupt->load()) break;  // the server stops: the next start resumes the rest
    if (!IsInProgress(s.status) || s.status == StackStatus::kReviewInProgress) continue;
    if (!s.parent_id.empty()) continue;  // a nested stack: its parent's resumed operation resumes it
    std::unique_ptr<StackLock> lock;
    StackScope scope;
    ScopeOfArn(s.id, &scope);
    MS_RETURN_IF_ERROR(StackLock::TryAcquire(state_path_, scope.region, s.name, &lock));
    if (lock == nullptr) continue;  // its process is alive and running it
    std::string missing;
    for (const std::string& dir : s.provider_dirs) {
      if (!std::filesystem::is_directory(dir)) missing = dir;
    }
    if (!missing.empty()) {  // left as it is: a command given that directory resumes it
      std::cerr << "moonstack: cannot resume the operation on stack " << s.name << " ("
                << StackStatusName(s.status) << "): it runs with the providers in " << missing
                << ", which is not a directory; it stays in progress until a command that can load them runs\n";
      continue;
    }
    MS_RETURN_IF_ERROR(ResumeCrashed(s, interrupt, cancels));
    if (resumed != nullptr) resumed->push_back(s.id);
    MS_RETURN_IF_ERROR(SaveWorld(db_.get(), &world_));
  }
  return Status::OK();
}

Status StackSession::ResumeCrashed(const StackRecord& s, const std::atomic<bool>* interrupt,
                                   CancelRequests* cancels) {
  OperationContext ctx = service_->context();
  ctx.interrupt = interrupt;
  if (cancels != nullptr) ctx.cancels = cancels;
  ctx.observer = observers_.caller;  // not a --scenario: it is for this command's own workflow
  if (s.provider_dirs == ctx.provider_source.dirs && s.stub_unknown_types == ctx.provider_source.stub_unknown_types) {
    return RunOperation(ctx, s.id);
  }
  std::unique_ptr<lua::LuaProviderRuntime> recorded;
  MS_RETURN_IF_ERROR(LoadProviders(s.provider_dirs, &recorded, s.stub_unknown_types, &world_));
  ctx.providers = recorded.get();
  ctx.provider_source.dirs = s.provider_dirs;
  ctx.provider_source.stub_unknown_types = s.stub_unknown_types;
  return RunOperation(ctx, s.id);
}

Status StackSession::Close() {
  if (state_lock_ == nullptr) return Status::OK();  // a reader changes nothing
  Value clock = Value::MakeMap();
  clock.set("now_ms", Value::Integer(clock_->NowMs()));
  world_.Put(kClockKind, kClockId, WorldRecord(std::move(clock)));
  MS_RETURN_IF_ERROR(SaveWorld(db_.get(), &world_));
  return scenario_ ? scenario_->error() : Status::OK();
}

}  // namespace ms::cli
