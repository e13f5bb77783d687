// What a running stack operation tells the outside, and what the outside
// may do to it: deploy's live progress, scenario scripts (fault injection,
// reacting to events by changing the world), tests.
#pragma once

#include "provider/provider.h"
#include "records/stack.h"
#include "records/provider_log.h"

namespace ms {

class OperationObserver {
 public:
  virtual ~OperationObserver() = default;
  // An event was recorded. Runs on the operation's thread; may change the
  // world (a scenario terminating an instance when X reaches status S).
  virtual void OnEvent(const StackEvent& event) { (void)event; }
  // A provider log line (a hook's ctx.log or print, a runtime error), as
  // it is stored: deploy's -v/--debug, serve's log. Operation's thread.
  virtual void OnProviderLog(const ProviderLogRecord& line) { (void)line; }
  // Before a provider call: return true with *injected filled to answer it
  // without calling the provider (a fault); *latency_seconds (>= 0) delays the
  // call by that much clock time.
  virtual bool BeforeCall(const HookCall& call, HookOutcome* injected, double* latency_seconds) {
    (void)call, (void)injected, (void)latency_seconds;
    return false;
  }
  // True once after the observer asked for the running update to be
  // cancelled (a scenario's cancel_update()), as cancel-update-stack does.
  virtual bool TakeCancelRequest() { return false; }
};

}  // namespace ms
