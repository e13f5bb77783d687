// ScenarioObserver: a Lua scenario script (`--scenario FILE.lua`) driving a
// stack workflow — injected provider failures, added latency, and handlers
// that change the world when an event happens ("when Instance2 reaches
// CREATE_COMPLETE, terminate it out of band"). The Lua half, and the
// script's API, is lua-sdk/moonstack/scenario.lua.
//
//   ScenarioOptions o;
//   o.file = "s.lua"; o.module_roots = {sdk, providers...}; o.world = &world;
//   std::unique_ptr<ScenarioObserver> sc;
//   MS_RETURN_IF_ERROR(ScenarioObserver::Load(o, &sc));   // runs the script
//   ctx.observer = sc.get();  ... RunOperation ...
//   MS_RETURN_IF_ERROR(sc->error());                      // a handler failed
//
// Threads: the script has its own Runtime, used only from the operation's
// thread (OnEvent and BeforeCall run there; Load may run on another thread
// before the operation starts). The World is shared with the provider
// workers and is thread-safe; the script's actions go through sim.call,
// which holds the world's lock.
//
// Errors: a script that cannot be read or fails while loading is Load's
// error. A handler that raises does not stop the operation (it runs to its
// terminal status, so the stack stays consistent); from then on the
// scenario does nothing, and error() reports the first failure, naming the
// script's file:line.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "lua/limits.h"
#include "lua/log_binding.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "stack/observer.h"
#include "world/world.h"

namespace ms::lua {

struct ScenarioOptions {
  std::string file;                       // the script
  std::vector<std::string> module_roots;  // lua-sdk first, then provider dirs (`require("sim")`)
  World* world = nullptr;                 // the session's world; outlives the observer
  std::string region = "us-east-1";       // the `aws` client's
  std::string account_id = "123456789012";
  int64_t now_ms = 0;                     // the world clock while the script's top level runs
  Limits limits;
};

class ScenarioObserver : public OperationObserver {
 public:
  // Reads and runs the script, which registers its rules and handlers.
  static Status Load(const ScenarioOptions& options, std::unique_ptr<ScenarioObserver>* out);
  ~ScenarioObserver() override;

  void OnEvent(const StackEvent& event) override;
  bool BeforeCall(const HookCall& call, HookOutcome* injected, double* latency_seconds) override;
  bool TakeCancelRequest() override;
  // What the script printed (print, INFO) or logged (`log.info(...)`,
  // DEBUG/INFO/WARN/ERROR) in the handlers and rule matches of stack
  // `stack_id`'s events and calls, named by the event's or call's logical
  // ID and function "scenario". What the script's top level wrote, before
  // any stack, goes with the first stack's lines.
  void TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) override;

  // OK, or the first error a handler (or a rule match) raised.
  Status error() const;

 private:
  explicit ScenarioObserver(ScenarioOptions options) : options_(std::move(options)) {}
  // "Scenario script FILE:LINE: <what>: message (code)" from a Lua error.
  std::string Describe(const LuaError& e, const std::string& what) const;
  void Failed(const LuaError& e, const std::string& what);
  // A line the script wrote, under the stack and resource now handled.
  void Append(LogLevel level, std::string_view text);

  ScenarioOptions options_;
  std::unique_ptr<Runtime> rt_;
  std::unique_ptr<WorldBinding> binding_;
  Ref scenario_;  // the moonstack.scenario object
  mutable std::mutex mu_;
  Status error_;  // guarded by mu_
  bool failed_ = false;  // operation thread only
  bool cancel_requested_ = false;  // operation thread only
  std::unique_ptr<LogBinding> log_binding_;  // moonstack.host_log: the script's `log`
  // The script's lines by stack ID, each naming its logical ID; the stack
  // and resource its handler or match runs for. Operation's thread.
  std::map<std::string, std::vector<ProviderLogLine>> lines_;
  std::string stack_id_, logical_id_;
};

}  // namespace ms::lua
