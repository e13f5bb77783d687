// The provider log's table: what hooks wrote (ctx.log, print, a runtime
// error's file:line) while an operation ran on a stack, kept with the stack.
//
// Written like events: the lines of one checkpoint go into StoreBatch::logs
// and CommitBatch (stack_tables.h) appends them as one row per stack and
// operation, a JSON array oldest first, in the checkpoint's transaction.
// Each operation on a stack has a number (NextProviderLogOperation): a
// stack keeps the lines of its last kProviderLogOperationsKept operations
// that wrote any, the older ones go as a new one's lines are appended. With
// the per-operation cap (provider/provider.h) a stack's log is bounded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "records/provider_log.h"
#include "store/database.h"

namespace ms {

inline constexpr int64_t kProviderLogOperationsKept = 10;


// The number the next operation on the stack logs under: one more than the
// last stored (1 for a stack that has none).
Status NextProviderLogOperation(Database* db, const std::string& stack_id, int64_t* operation);

// Appends one chunk: `lines` all of one stack (whose key is `stack_key`) and
// operation, and drops the stack's lines of operations older than the last
// kProviderLogOperationsKept. Runs inside CommitBatch's transaction.
Status AppendProviderLogChunk(Database* db, int64_t stack_key, const ProviderLogRecord* lines, size_t n);

// A stack's lines, oldest first. `logical_id` non-empty: only that resource's.
Status LoadProviderLog(Database* db, const std::string& stack_id, const std::string& logical_id,
                       std::vector<ProviderLogRecord>* out);

}  // namespace ms
