#include "plan/plan_handoff.h"

#include <map>
#include <mutex>
#include <utility>

namespace ms {
namespace {

struct Offer {
  int64_t update_started_ms = 0;
  std::unique_ptr<Plan> plan;
};

std::mutex mu;
std::map<std::string, Offer> offers;  // by stack ID; guarded by mu

}  // namespace

void OfferPlan(const std::string& stack_id, int64_t update_started_ms, std::unique_ptr<Plan> plan) {
  std::lock_guard<std::mutex> lock(mu);
  offers[stack_id] = Offer{update_started_ms, std::move(plan)};
}

std::unique_ptr<Plan> TakePlan(const std::string& stack_id, int64_t update_started_ms) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = offers.find(stack_id);
  if (it == offers.end()) return nullptr;
  std::unique_ptr<Plan> plan;
  if (it->second.update_started_ms == update_started_ms) plan = std::move(it->second.plan);
  offers.erase(it);
  return plan;
}

}  // namespace ms
