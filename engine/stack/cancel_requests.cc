#include "stack/cancel_requests.h"

namespace ms {

void CancelRequests::Request(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  ids_.insert(stack_id);
}

bool CancelRequests::Take(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return ids_.erase(stack_id) > 0;
}

}  // namespace ms
