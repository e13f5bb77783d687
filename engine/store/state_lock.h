// StateLock: one process writes a state file at a time.
//
// The world (the simulated cloud) and its ID generators live in each
// process's memory between checkpoints, so two processes writing one state
// file would hand out the same IDs and overwrite each other's records. The
// writer — `moonstack serve` for as long as it runs, or a command that
// changes something (create-stack, world call, ...) for as long as it runs —
// holds this lock; commands that only read (describe-*, list-*, get-*) take
// no lock, never change the state and never resume an operation.
//
// POSIX flock on `<state>.lock`, which holds the holder's description (pid
// and what it is) for the refusal message; the kernel releases the lock when
// the holder dies, so a crashed writer never blocks the next.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"

namespace ms {

class StateLock {
 public:
  enum class Wait {
    kNever,           // held by anyone: refused at once (serve)
    kUnlessServed,    // held by a command: wait for it; held by a server: refused (commands)
  };
  // Takes the lock of the state file at `state_path` for `holder` (e.g.
  // "moonstack serve on 127.0.0.1:4581"). ":memory:" stores are private to
  // their process: always granted.
  static Status Acquire(const std::string& state_path, const std::string& holder, Wait wait,
                        std::unique_ptr<StateLock>* out);
  ~StateLock();  // releases
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

  // The holder a server describes itself with starts with this.
  static constexpr const char* kServeHolder = "moonstack serve";

 private:
  explicit StateLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace ms
