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
  // What the observer's own Lua (a scenario's handlers and rule matches)
  // wrote while handling the events and calls of stack `stack_id`, appended
  // to *lines, each naming its logical ID and function ("scenario"): the
  // operation stamps them into its provider log. Operation's thread.
  virtual void TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) {
    (void)stack_id, (void)lines;
  }
  // True once after the observer asked for the running update to be
  // cancelled (a scenario's cancel_update()), as cancel-update-stack does.
  virtual bool TakeCancelRequest() { return false; }
};

}  // namespace ms
