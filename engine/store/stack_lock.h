// StackLock: at most one process runs a stack's operation at a time.
//
// A workflow command holds its stack's lock (by name) from before it saves
// the stack in progress until the operation ends; any other command that
// finds a stack *_IN_PROGRESS tries the lock without waiting — if it gets it,
// the process that ran the operation is gone (a crash, SIGKILL) and the
// operation is resumed from the store. POSIX flock on a file beside the state
// file: the kernel releases it when the holder dies.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"

namespace ms {

class StackLock {
 public:
  // The lock of `stack_name` for the state file at `state_path`, or nullptr
  // in *out when another process holds it. ":memory:" stores are private to
  // their process: the lock is always granted.
  static Status TryAcquire(const std::string& state_path, const std::string& stack_name,
                           std::unique_ptr<StackLock>* out);
  ~StackLock();  // releases
  StackLock(const StackLock&) = delete;
  StackLock& operator=(const StackLock&) = delete;

 private:
  explicit StackLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace ms
