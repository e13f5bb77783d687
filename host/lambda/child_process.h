// One child process run to completion or to a wall-clock limit: its own
// process group (killed as a whole), an address-space limit, an explicit
// environment, stdout and stderr collected together. POSIX only.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
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

// Runs the child and waits for it; at wall_limit its process group gets
// SIGKILL. Whatever it leaves running in its group is killed as it ends.
ChildResult RunChild(const ChildSpec& spec);

// The full path of `program` in the directories of `path` (a $PATH value),
// or "" when none of them holds an executable of that name.
std::string FindOnPath(const std::string& program, const std::string& path);

}  // namespace ms::lambda
