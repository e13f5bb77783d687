// One child process run to completion or to a wall-clock limit: its own
// process group (killed as a whole), an address-space limit, an explicit
// environment, stdout and stderr collected together. POSIX only.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ms::lambda {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the program's path
  std::vector<std::string> env;   // "NAME=value": the child's whole environment
  std::string cwd;
  size_t address_space_bytes = 0;      // RLIMIT_AS; 0: no limit
  std::chrono::milliseconds wall_limit{3000};
  size_t max_output_bytes = size_t{1} << 20;  // more is dropped (output_truncated)
};

struct ChildResult {
  bool started = false;
  std::string start_error;  // why it did not start
  bool timed_out = false;   // killed at wall_limit
  int exit_code = -1;       // -1 when killed by a signal
  int signal = 0;
  std::string output;       // stdout and stderr, interleaved as written
  bool output_truncated = false;
  std::chrono::microseconds elapsed{0};
  int64_t max_rss_kib = 0;  // the child's peak resident set (getrusage)
};

// A child that stays up between exchanges (a warm execution environment):
// requests go to its stdin, its answers come on its fd 3, what it prints
// (stdout and stderr) on `log_fd`. The descriptors are the parent's ends,
// close-on-exec, so no other child inherits them (the child sees EOF on
// stdin when this process ends, however it ends).
struct LongLivedChild {
  pid_t pid = -1;
  int request_fd = -1;   // write end of the child's stdin
  int response_fd = -1;  // read end of the child's fd 3
  int log_fd = -1;       // read end of the child's stdout+stderr (non-blocking)
};

// Starts one; false and `error` when it cannot be started. The spec's
// wall_limit and max_output_bytes do not apply: the caller bounds each
// exchange itself.
bool StartChild(const ChildSpec& spec, LongLivedChild* child, std::string* error);

// SIGKILL to its process group, the descriptors closed, the child reaped.
void StopChild(LongLivedChild* child);

// Runs the child and waits for it; at wall_limit its process group gets
// SIGKILL. Whatever it leaves running in its group is killed as it ends.
ChildResult RunChild(const ChildSpec& spec);

// The full path of `program` in the directories of `path` (a $PATH value),
// or "" when none of them holds an executable of that name.
std::string FindOnPath(const std::string& program, const std::string& path);

}  // namespace ms::lambda
