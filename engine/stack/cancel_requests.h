// CancelRequests: requests to stop a running operation, handed from the
// thread that receives them (the server's request thread) to the thread
// running the stack's operation, which takes them between two scheduler
// rounds: cancel-update-stack's (an update rolls back), and delete-stack's
// while the stack is being created (the create is cancelled, rolls back, and
// the stack is deleted; a create that ended first is deleted after it).
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ms {

class CancelRequests {
 public:
  void Request(const std::string& stack_id);
  // True once per request: the operation acts on it.
  bool Take(const std::string& stack_id);
  // delete-stack on a stack being created.
  void RequestDelete(const std::string& stack_id);
  bool TakeDelete(const std::string& stack_id);
  // The operation running on the stack: `wake` (thread-safe) is called on a
  // request, so an operation waiting for a long timer acts at once.
  void Watch(const std::string& stack_id, std::function<void()> wake);
  void Unwatch(const std::string& stack_id);
  // Wakes every watched operation, so it looks at OperationContext::interrupt now.
  void WakeAll();

 private:
  std::mutex mu_;
  std::unordered_set<std::string> ids_;                               // guarded by mu_
  std::unordered_set<std::string> deletes_;                           // guarded by mu_
  std::unordered_map<std::string, std::function<void()>> watchers_;  // guarded by mu_
};

}  // namespace ms
