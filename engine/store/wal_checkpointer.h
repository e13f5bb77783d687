// WalCheckpointer: copies a state file's write-ahead log into the database
// on a thread of its own while an operation runs.
//
// Why: a command's operation commits a checkpoint per step and SQLite copies
// the log into the database (and syncs it to disk) only when the last
// connection closes, so a long update ended with all of that I/O at once —
// 0.3–0.4 s of a 1,000-instance rolling update. Done every interval on
// another core instead, it overlaps the work, and the close has only the
// tail left. A checkpoint here is PASSIVE: it never blocks the writer, and
// one that finds the log busy just tries again next time.
//
// Thread-safety: the thread has its own connection; Stop (and the
// destructor) wait for it to close, so the owner's connection is the last
// one and still checkpoints the tail when it closes.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace ms {

class WalCheckpointer {
 public:
  WalCheckpointer(std::string path, int interval_ms);
  ~WalCheckpointer();
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

  void Stop();
  // Checkpoints run so far (tests).
  int runs() const;

 private:
  void Loop();

  const std::string path_;
  const int interval_ms_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;  // guarded by mu_
  int runs_ = 0;       // guarded by mu_
  std::thread thread_;
};

}  // namespace ms
