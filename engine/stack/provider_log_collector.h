// ProviderLogCollector: the one place provider log lines are stamped — with
// the operation's clock, stack, operation number, logical ID and the
// function that wrote them — capped (kProviderLogMaxLines per operation, a
// line's text kProviderLogMaxLineBytes), shown to the observer and queued
// for the store (store/provider_log_table.h).
//
// Every operation that runs provider or scenario Lua owns one: a create,
// update or delete (operation_core: hook answers, Validate and DecideUpdate
// through ProviderSession::TakeLog, a scenario's handlers through
// OperationObserver::TakeLog), an import (import_operation) and a drift
// detection (drift_detection: its `read` calls).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "provider/provider.h"
#include "records/provider_log.h"
#include "run/clock.h"
#include "stack/observer.h"

namespace ms {

class ProviderLogCollector {
 public:
  ProviderLogCollector(const Clock* clock, OperationObserver* observer) : clock_(clock), observer_(observer) {}

  // The stack and its operation number (NextProviderLogOperation) the lines go under.
  void Start(std::string stack_id, std::string stack_name, int64_t operation);

  // Stamps `lines` (and counts `dropped`, lines the host did not keep) into
  // *out: each under its own logical_id/function when it names one, else
  // `logical_id` and `function` (a hook's name).
  void Collect(const std::string& logical_id, std::string_view function, const std::vector<ProviderLogLine>& lines,
               int64_t dropped, std::vector<ProviderLogRecord>* out);
  // A hook's answer's lines.
  void Collect(const std::string& logical_id, Hook hook, const HookOutcome& o, std::vector<ProviderLogRecord>* out) {
    Collect(logical_id, HookName(hook), o.log, o.log_dropped, out);
  }
  // What the session's provider wrote outside a hook (Validate,
  // DecideUpdate) and what the observer's scenario wrote for this stack.
  void CollectSideLines(ProviderSession* session, std::vector<ProviderLogRecord>* out);
  // The last line of an operation that dropped some: "... N lines dropped".
  void RecordDropped(std::vector<ProviderLogRecord>* out);

 private:
  const Clock* clock_;
  OperationObserver* observer_;
  std::string stack_id_, stack_name_;
  int64_t operation_ = 0;
  size_t kept_ = 0;      // lines kept by this operation
  int64_t dropped_ = 0;  // and dropped past kProviderLogMaxLines
};

}  // namespace ms
