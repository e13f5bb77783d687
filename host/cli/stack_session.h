// StackSession: what a stack command works with — the state file, the world
// in it, the providers, the clock and the StackService over them.
//
// Clock: --time-scale 0 (the default) is virtual time (workflows run at once;
// timestamps show the simulated durations), X > 0 is scaled real time, 1 is
// real time. The virtual clock starts at the later of the wall clock and the
// time the last command's clock reached (saved in the state file), so time
// never runs backwards from one command to the next.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "lua/provider_host.h"
#include "lua/scenario.h"
#include "run/clock.h"
#include "stack/stack_service.h"
#include "store/blob_store.h"
#include "store/database.h"
#include "store/stack_lock.h"
#include "store/state_lock.h"
#include "store/wal_checkpointer.h"
#include "world/world.h"

namespace ms::server {
class FunctionEndpoint;
}

namespace ms::cli {

struct SessionOptions {
  std::string state;                   // --state
  std::vector<std::string> providers;  // --providers
  bool stub_unknown_types = false;     // --stub-unknown-types
  double time_scale = 0;               // --time-scale (0: virtual)
  // --start-time ($MOONSTACK_START_TIME): the instant virtual time starts at
  // (ISO 8601), instead of now; a state whose saved clock is later keeps it.
  std::string start_time;
  // --max-concurrency. Wide enough that the workers never run dry while
  // the operation's thread commits: a checkpoint of a wide phase takes
  // several ms, a provider call ~20 us (64 calls lasted ~1.3 ms, and a
  // 1,000-resource create under `serve` spent a third of its time idle).
  int max_concurrency = 1024;
  std::string region = "us-east-1";    // --region
  bool no_lambda = false;              // --no-lambda: Lambda functions' code is not run (host/lambda/runner.h)
  std::string scenario;                // --scenario (workflow commands): a Lua script, lua/scenario.h
  // The provider log on stderr while an operation runs: 0 its errors only
  // (a hook's file:line), 1 (-v) INFO and up, 2 (--debug) DEBUG and up
  // with a runtime error's Lua traceback.
  int log_verbosity = 0;
  // Who writes the state file while this session is open (store/state_lock.h).
  std::string writer = "a moonstack command";
};

// What a command does with the state file: a reader only reads (no lock,
// no crash recovery, nothing saved); a writer holds the state's lock while
// it runs and first resumes what a crashed writer left in progress.
enum class Access { kRead, kWrite };

// Whether a writer resumes crashed operations as it opens (a command), or
// leaves them to its caller (`serve`, which listens first: Recover()).
enum class Resume { kAtOpen, kLater };

class StackSession {
 public:
  StackSession();
  ~StackSession();  // stops the functions' endpoint first
  // Opens the state file, loads the world and the providers. A writer takes
  // the state's lock (serve: refused when held; a command: waits for another
  // command, refused when a server holds it) and, with Resume::kAtOpen,
  // resumes any operation a crash left in progress.
  Status Open(const SessionOptions& options, OperationObserver* observer = nullptr, Access access = Access::kWrite,
              Resume resume = Resume::kAtOpen);
  // The stacks a crash left in progress, each resumed with the providers
  // recorded for its operation. A stack whose provider directory is gone is
  // skipped with a message on stderr and stays resumable; `resumed` gets the
  // others' IDs. `interrupt` and `cancels` (may be null) are a server's: its
  // shutdown stops them as it stops its own operations.
  Status Recover(std::vector<std::string>* resumed = nullptr, const std::atomic<bool>* interrupt = nullptr,
                 CancelRequests* cancels = nullptr);
  // The lock a workflow command holds on its stack while it runs: an error
  // when another process is running an operation on it.
  Status Lock(const std::string& stack_name, std::unique_ptr<StackLock>* out);
  // Saves the world and the clock (after a workflow); then the error of a
  // --scenario handler that failed during the workflow, if one did.
  Status Close();

  StackService& service() { return *service_; }
  World& world() { return world_; }
  Database& db() { return *db_; }
  Clock& clock() { return *clock_; }

 private:
  // Runs one crashed stack's operation with the providers it recorded.
  Status ResumeCrashed(const StackRecord& stack, const std::atomic<bool>* interrupt, CancelRequests* cancels);

  std::unique_ptr<StateLock> state_lock_;  // writers only
  std::string state_path_;
  std::string region_;  // --region: the region of the stacks this session locks
  std::unique_ptr<StoreBlobSource> blobs_;  // the world's blob reader (outlives it)
  World world_;
  std::unique_ptr<Database> db_;
  // Writers: the log copied into the database while the command runs.
  // Declared after db_, so it stops (and closes its connection) first.
  std::unique_ptr<WalCheckpointer> checkpointer_;
  std::unique_ptr<lua::LuaProviderRuntime> providers_;
  std::unique_ptr<Clock> clock_;
  std::unique_ptr<StackService> service_;
  // --scenario: loaded after crash recovery, so only this command's workflow
  // sees it; `observers_` hands events to the caller's observer and to it.
  struct Observers : OperationObserver {
    OperationObserver* caller = nullptr;
    OperationObserver* scenario = nullptr;
    int log_verbosity = 0;  // SessionOptions::log_verbosity
    void OnEvent(const StackEvent& e) override;
    void OnProviderLog(const ProviderLogRecord& line) override;
    void TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) override;
    bool BeforeCall(const HookCall& call, HookOutcome* injected, double* latency_seconds) override;
    bool TakeCancelRequest() override;
  };
  Observers observers_;
  std::unique_ptr<lua::ScenarioObserver> scenario_;
  // A command's own endpoint for the functions it runs (not serve's: serve
  // is theirs); declared last, so it stops before the world goes.
  std::unique_ptr<server::FunctionEndpoint> function_endpoint_;
};

}  // namespace ms::cli
