// A provider log line as the engine stamps and stores it: what a hook wrote
// (ctx.log, print, its failure), with the operation's clock, stack, logical
// ID and hook. Written by stack/operation_core, kept by
// store/provider_log_table.h, shown by OperationObserver::OnProviderLog and
// printed as stack/provider_log_format.h says.
#pragma once

#include <cstdint>
#include <string>

#include "base/log_level.h"

namespace ms {

struct ProviderLogRecord {
  std::string stack_id;
  std::string stack_name;
  int64_t operation = 0;      // the stack's operation number (1, 2, ...)
  int64_t timestamp_ms = 0;   // the operation's clock when the hook answered
  std::string logical_id;     // empty for a line about the operation (the dropped count)
  std::string hook;           // create, update, delete, rollback, read; empty with logical_id
  LogLevel level = LogLevel::kInfo;
  std::string message;
  std::string detail;         // a runtime error's traceback, or empty
};

}  // namespace ms
