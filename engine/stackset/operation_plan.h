// How a stack set operation visits its accounts and regions: AWS's
// StackSetOperationPreferences turned into waves (the instances started
// together before failures are counted) and per-region failure tolerances.
//
// AWS's rules (API reference, StackSetOperationPreferences):
//  - RegionConcurrencyType SEQUENTIAL (default): one region at a time, in
//    RegionOrder first, then the other requested regions in request order;
//    PARALLEL: every region at once.
//  - FailureToleranceCount / FailureTolerancePercentage: how many accounts
//    per region may fail before the operation stops in that region; a
//    percentage of the region's accounts rounded down. Default 0.
//  - MaxConcurrentCount / MaxConcurrentPercentage: accounts per region at
//    one time; a percentage rounded down, at least 1. Default 1. With
//    STRICT_FAILURE_TOLERANCE (the default ConcurrencyMode) at most one more
//    than the failure tolerance: moonstack lowers it to that.
//  - When a region's failures exceed its tolerance, the operation stops: the
//    accounts and regions not yet started are CANCELLED ("Cancelled since
//    failure tolerance has exceeded") and the operation is FAILED.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/status.h"
#include "stackset/stack_set.h"

namespace ms {

// The preferences' synchronous checks (count and percentage both given, a
// negative number, an unknown enum value).
Status CheckOperationPreferences(const OperationPreferences& p);

// The regions of `results` in the order the operation visits them.
std::vector<std::string> OrderedRegions(const OperationPreferences& p, const std::vector<OperationResult>& results);

// For a region with `accounts` accounts.
int64_t FailureTolerance(const OperationPreferences& p, size_t accounts);
int64_t MaxConcurrency(const OperationPreferences& p, size_t accounts);

// The waves, in order: indexes into `results`. SEQUENTIAL: a region's
// batches of MaxConcurrency accounts, region after region; PARALLEL: wave k
// holds the k-th batch of every region.
std::vector<std::vector<size_t>> PlanWaves(const OperationPreferences& p, const std::vector<OperationResult>& results);

// Whether a region whose `failed` accounts out of `accounts` exceed its tolerance.
bool ExceedsTolerance(const OperationPreferences& p, size_t accounts, size_t failed);

}  // namespace ms
