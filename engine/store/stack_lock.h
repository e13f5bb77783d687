// StackLock: at most one process runs a stack's operation at a time.
//
// A workflow command holds its stack's lock (by name) from before it saves
// the stack in progress until the operation ends; any other command that
// finds a stack *_IN_PROGRESS tries the lock without waiting — if it gets it,
// the process that ran the operation is gone (a crash, SIGKILL) and the
// operation is resumed from the store. POSIX flock on a file in a directory
// beside the state file: the kernel releases it when the holder dies.
//
// Stacks are per region (records/stack_scope.h): the lock is the region's
// stack of that name, so the same name in two regions runs in parallel.
// The file is named by a hash of the region and stack name, never by the name itself,
// and the name is checked first (records/stack_name.h): nothing a caller
// passes becomes a path. The holder removes the file when it lets go, so
// the directory holds a file only per stack being operated on (or left so by
// a crash, until its recovery), however many stacks come and go.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"

namespace ms {

class StackLock {
 public:
  // The lock of `stack_name` for the state file at `state_path`, or nullptr
  // in *out when another process holds it; AWS's ValidationError when
  // stack_name is not a stack name. ":memory:" stores are private to their
  // process: the lock is always granted.
  static Status TryAcquire(const std::string& state_path, const std::string& region, const std::string& stack_name,
                           std::unique_ptr<StackLock>* out);
  // The lock file of `stack_name` in `region` (a test looks for it).
  static std::string LockFilePath(const std::string& state_path, const std::string& region,
                                  const std::string& stack_name);
  ~StackLock();  // removes the file, then releases
  StackLock(const StackLock&) = delete;
  StackLock& operator=(const StackLock&) = delete;

 private:
  StackLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

}  // namespace ms
