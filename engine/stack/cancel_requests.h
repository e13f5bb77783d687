// CancelRequests: cancel-update-stack's requests, handed from the thread
// that receives them (the server's request thread) to the thread running
// the stack's operation, which takes them between two scheduler rounds.
#pragma once

#include <mutex>
#include <string>
#include <unordered_set>

namespace ms {

class CancelRequests {
 public:
  void Request(const std::string& stack_id);
  // True once per request: the operation acts on it.
  bool Take(const std::string& stack_id);

 private:
  std::mutex mu_;
  std::unordered_set<std::string> ids_;  // guarded by mu_
};

}  // namespace ms
