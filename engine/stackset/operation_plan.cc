#include "stackset/operation_plan.h"

#include <algorithm>
#include <map>

namespace ms {
namespace {

// The accounts (result indexes) of each region, in request order.
std::map<std::string, std::vector<size_t>> ByRegion(const std::vector<OperationResult>& results) {
  std::map<std::string, std::vector<size_t>> out;
  for (size_t i = 0; i < results.size(); ++i) out[results[i].region].push_back(i);
  return out;
}

}  // namespace

// The messages are moonstack's own (unverified against AWS).
Status CheckOperationPreferences(const OperationPreferences& p) {
  if (!p.region_concurrency_type.empty() && p.region_concurrency_type != "SEQUENTIAL" &&
      p.region_concurrency_type != "PARALLEL") {
    return Status::Validation("1 validation error detected: Value '" + p.region_concurrency_type +
                              "' at 'operationPreferences.regionConcurrencyType' failed to satisfy constraint: "
                              "Member must satisfy enum value set: [SEQUENTIAL, PARALLEL]");
  }
  if (p.failure_tolerance_count && p.failure_tolerance_percentage) {
    return Status::Validation("You can specify either FailureToleranceCount or FailureTolerancePercentage, but not both.");
  }
  if (p.max_concurrent_count && p.max_concurrent_percentage) {
    return Status::Validation("You can specify either MaxConcurrentCount or MaxConcurrentPercentage, but not both.");
  }
  for (const auto* v : {&p.failure_tolerance_count, &p.failure_tolerance_percentage}) {
    if (*v && **v < 0) return Status::Validation("Failure tolerance must be at least 0.");
  }
  if ((p.max_concurrent_count && *p.max_concurrent_count < 1) ||
      (p.max_concurrent_percentage && *p.max_concurrent_percentage < 1)) {
    return Status::Validation("Max concurrency must be at least 1.");
  }
  if ((p.failure_tolerance_percentage && *p.failure_tolerance_percentage > 100) ||
      (p.max_concurrent_percentage && *p.max_concurrent_percentage > 100)) {
    return Status::Validation("A percentage must be at most 100.");
  }
  return Status::OK();
}

std::vector<std::string> OrderedRegions(const OperationPreferences& p, const std::vector<OperationResult>& results) {
  std::vector<std::string> requested;
  for (const OperationResult& r : results) {
    if (std::find(requested.begin(), requested.end(), r.region) == requested.end()) requested.push_back(r.region);
  }
  std::vector<std::string> out;
  for (const std::string& r : p.region_order) {
    if (std::find(requested.begin(), requested.end(), r) != requested.end() &&
        std::find(out.begin(), out.end(), r) == out.end()) {
      out.push_back(r);
    }
  }
  for (const std::string& r : requested) {
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  }
  return out;
}

int64_t FailureTolerance(const OperationPreferences& p, size_t accounts) {
  if (p.failure_tolerance_count) return *p.failure_tolerance_count;
  if (p.failure_tolerance_percentage) return static_cast<int64_t>(accounts) * *p.failure_tolerance_percentage / 100;
  return 0;
}

int64_t MaxConcurrency(const OperationPreferences& p, size_t accounts) {
  int64_t n = 1;
  if (p.max_concurrent_count) n = *p.max_concurrent_count;
  if (p.max_concurrent_percentage) {
    n = std::max<int64_t>(1, static_cast<int64_t>(accounts) * *p.max_concurrent_percentage / 100);
  }
  if (p.concurrency_mode != "SOFT_FAILURE_TOLERANCE") n = std::min(n, FailureTolerance(p, accounts) + 1);
  return std::max<int64_t>(1, n);
}

std::vector<std::vector<size_t>> PlanWaves(const OperationPreferences& p, const std::vector<OperationResult>& results) {
  const auto by_region = ByRegion(results);
  // Each region's batches.
  std::vector<std::vector<std::vector<size_t>>> regions;
  for (const std::string& region : OrderedRegions(p, results)) {
    const std::vector<size_t>& accounts = by_region.at(region);
    const size_t size = static_cast<size_t>(MaxConcurrency(p, accounts.size()));
    std::vector<std::vector<size_t>> batches;
    for (size_t i = 0; i < accounts.size(); i += size) {
      batches.emplace_back(accounts.begin() + static_cast<long>(i),
                           accounts.begin() + static_cast<long>(std::min(accounts.size(), i + size)));
    }
    regions.push_back(std::move(batches));
  }
  std::vector<std::vector<size_t>> waves;
  if (p.region_concurrency_type == "PARALLEL") {
    for (size_t k = 0;; ++k) {
      std::vector<size_t> wave;
      for (const auto& batches : regions) {
        if (k < batches.size()) wave.insert(wave.end(), batches[k].begin(), batches[k].end());
      }
      if (wave.empty()) break;
      waves.push_back(std::move(wave));
    }
  } else {
    for (auto& batches : regions) {
      for (auto& b : batches) waves.push_back(std::move(b));
    }
  }
  return waves;
}

bool ExceedsTolerance(const OperationPreferences& p, size_t accounts, size_t failed) {
  return static_cast<int64_t>(failed) > FailureTolerance(p, accounts);
}

}  // namespace ms
