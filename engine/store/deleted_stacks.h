// Deleted stacks are kept as AWS keeps them — listed (DELETE_COMPLETE) and
// found by their ID, with their events, for 90 days — and then pruned: their
// row, templates, resources, events, provider log, change sets and drift
// results go.
//
// Time is the operation clock's (simulated under a virtual clock, so a test
// passes 90 days without waiting). Pruning runs when a stack is deleted
// (CommitBatch, in the same transaction) and is bounded: the oldest few
// expired stacks, found through an index of deleted stacks by deletion time,
// so each deletion prunes more than it adds and nothing scans every stack.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"
#include "records/stack.h"
#include "store/database.h"

namespace ms {

inline constexpr int64_t kDeletedStackRetentionMs = int64_t{90} * 24 * 3600 * 1000;

// True when a DELETE_COMPLETE stack is past its 90 days at now_ms.
bool DeletedStackExpired(const StackRecord& s, int64_t now_ms);

// Removes at most `max_stacks` stacks deleted before now_ms - 90 days,
// oldest first, with everything stored under them. Call inside a
// transaction.
Status PruneDeletedStacks(Database* db, int64_t now_ms, size_t max_stacks = 8);

}  // namespace ms
