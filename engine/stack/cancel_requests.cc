#include "stack/cancel_requests.h"

namespace ms {

void CancelRequests::Request(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  ids_.insert(stack_id);
  auto it = watchers_.find(stack_id);
  if (it != watchers_.end()) it->second();
}

void CancelRequests::RequestDelete(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  deletes_.insert(stack_id);
  auto it = watchers_.find(stack_id);
  if (it != watchers_.end()) it->second();
}

bool CancelRequests::TakeDelete(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return deletes_.erase(stack_id) > 0;
}

void CancelRequests::Watch(const std::string& stack_id, std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(mu_);
  watchers_[stack_id] = std::move(wake);
}

void CancelRequests::Unwatch(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  watchers_.erase(stack_id);
}

void CancelRequests::WakeAll() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [stack_id, wake] : watchers_) wake();
}

bool CancelRequests::Take(const std::string& stack_id) {
  std::lock_guard<std::mutex> lock(mu_);
  return ids_.erase(stack_id) > 0;
}

}  // namespace ms
