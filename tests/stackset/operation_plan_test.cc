// The stack set operation planner (engine/stackset/operation_plan.h): AWS's
// operation preferences as waves and per-region failure tolerances.
#include <catch2/catch.hpp>

#include "stackset/operation_plan.h"

namespace {

// `accounts` accounts in each of `regions`, account-major as a request lists them.
std::vector<ms::OperationResult> Results(const std::vector<std::string>& accounts,
                                         const std::vector<std::string>& regions) {
  std::vector<ms::OperationResult> out;
  for (const std::string& a : accounts) {
    for (const std::string& r : regions) out.push_back({a, r, "PENDING", "", ""});
  }
  return out;
}

// Each wave as "account/region ..." for readable comparisons.
std::vector<std::string> Waves(const ms::OperationPreferences& p, const std::vector<ms::OperationResult>& results) {
  std::vector<std::string> out;
  for (const auto& wave : ms::PlanWaves(p, results)) {
    std::string w;
    for (size_t i : wave) w += (w.empty() ? "" : " ") + results[i].account.substr(0, 1) + "/" + results[i].region;
    out.push_back(w);
  }
  return out;
}

}  // namespace

TEST_CASE("stack set plan: by default one account at a time, region after region in request order",
          "[stackset]") {
  auto results = Results({"111111111111", "222222222222"}, {"us-east-1", "eu-west-1"});
  CHECK(Waves({}, results) ==
        std::vector<std::string>{"1/us-east-1", "2/us-east-1", "1/eu-west-1", "2/eu-west-1"});
  CHECK(ms::FailureTolerance({}, 2) == 0);
  CHECK(ms::MaxConcurrency({}, 2) == 1);
}

TEST_CASE("stack set plan: RegionOrder first, then the other regions as requested", "[stackset]") {
  ms::OperationPreferences p;
  p.region_order = {"eu-west-1", "ap-south-1"};  // ap-south-1 is not in the operation: ignored
  auto results = Results({"111111111111"}, {"us-east-1", "us-west-2", "eu-west-1"});
  CHECK(ms::OrderedRegions(p, results) == std::vector<std::string>{"eu-west-1", "us-east-1", "us-west-2"});
  CHECK(Waves(p, results) == std::vector<std::string>{"1/eu-west-1", "1/us-east-1", "1/us-west-2"});
}

TEST_CASE("stack set plan: PARALLEL runs each region's k-th batch together", "[stackset]") {
  ms::OperationPreferences p;
  p.region_concurrency_type = "PARALLEL";
  p.failure_tolerance_count = 1;
  p.max_concurrent_count = 2;
  auto results = Results({"111111111111", "222222222222", "333333333333"}, {"us-east-1", "us-west-2"});
  CHECK(Waves(p, results) == std::vector<std::string>{"1/us-east-1 2/us-east-1 1/us-west-2 2/us-west-2",
                                                      "3/us-east-1 3/us-west-2"});
}

TEST_CASE("stack set plan: percentages round down, concurrency at least 1 and at most tolerance + 1",
          "[stackset]") {
  ms::OperationPreferences p;
  p.failure_tolerance_percentage = 50;
  CHECK(ms::FailureTolerance(p, 3) == 1);  // 1.5 rounds down
  CHECK(ms::FailureTolerance(p, 1) == 0);
  p.max_concurrent_percentage = 10;
  CHECK(ms::MaxConcurrency(p, 3) == 1);  // 0.3 rounds down to 0: 1 instead
  p.max_concurrent_percentage = 100;
  CHECK(ms::MaxConcurrency(p, 4) == 3);  // STRICT_FAILURE_TOLERANCE: at most tolerance (2) + 1
  p.concurrency_mode = "SOFT_FAILURE_TOLERANCE";
  CHECK(ms::MaxConcurrency(p, 4) == 4);
  ms::OperationPreferences counted;
  counted.failure_tolerance_count = 1;
  CHECK_FALSE(ms::ExceedsTolerance(counted, 3, 1));
  CHECK(ms::ExceedsTolerance(counted, 3, 2));
  CHECK(ms::ExceedsTolerance({}, 3, 1));
}

TEST_CASE("stack set plan: a count and a percentage of the same preference are refused", "[stackset]") {
  ms::OperationPreferences p;
  p.failure_tolerance_count = 1;
  p.failure_tolerance_percentage = 10;
  CHECK(ms::CheckOperationPreferences(p).message() ==
        "You can specify either FailureToleranceCount or FailureTolerancePercentage, but not both.");
  ms::OperationPreferences q;
  q.region_concurrency_type = "SOMETIMES";
  CHECK(ms::CheckOperationPreferences(q).code() == ms::Status::Code::kValidation);
  CHECK(ms::CheckOperationPreferences({}).ok());
}
