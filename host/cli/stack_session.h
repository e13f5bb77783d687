// StackSession: what a stack command works with — the state file, the world
// in it, the providers, the clock and the StackService over them.
//
// Clock: --time-scale 0 (the default) is virtual time (workflows run at once;
// timestamps show the simulated durations), X > 0 is scaled real time, 1 is
// real time. The virtual clock starts at the later of the wall clock and the
// time the last command's clock reached (saved in the state file), so time
// never runs backwards from one command to the next.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "lua/provider_host.h"
#include "run/clock.h"
#include "stack/stack_service.h"
#include "store/database.h"
#include "world/world.h"

namespace ms::cli {

struct SessionOptions {
  std::string state;                   // --state
  std::vector<std::string> providers;  // --providers
  bool stub_unknown_types = false;     // --stub-unknown-types
  double time_scale = 0;               // --time-scale (0: virtual)
  int max_concurrency = 64;            // --max-concurrency
  std::string region = "us-east-1";    // --region
};

class StackSession {
 public:
  // Opens the state file, loads the world and the providers.
  Status Open(const SessionOptions& options, OperationObserver* observer = nullptr);
  // Saves the world and the clock (after a workflow).
  Status Close();

  StackService& service() { return *service_; }
  World& world() { return world_; }
  Database& db() { return *db_; }
  Clock& clock() { return *clock_; }

 private:
  World world_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<lua::LuaProviderRuntime> providers_;
  std::unique_ptr<Clock> clock_;
  std::unique_ptr<StackService> service_;
};

}  // namespace ms::cli
