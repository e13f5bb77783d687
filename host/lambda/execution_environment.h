// One warm execution environment: a harness process (harness/bootstrap.*)
// that ran the function's Init once and answers invocations one at a time,
// over the protocol bootstrap.py describes (length-prefixed JSON requests on
// its stdin, answers on its fd 3, its stdout/stderr the function's log).
// Owns the process and the environment's own directory (runtime/, task/,
// tmp/): both go when it is destroyed.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "lambda/child_process.h"

namespace ms::lambda {

using Clock = std::chrono::steady_clock;

// One message's wait: the answer, or why none came.
struct Exchange {
  bool answered = false;   // a whole answer arrived
  bool timed_out = false;  // the deadline passed first
  std::string answer;      // its JSON text
  std::string log;         // what the process printed meanwhile
  bool log_truncated = false;
  int exit_code = -1;  // the process ended instead (neither answered nor timed out)
  int signal = 0;
};

class ExecutionEnvironment {
 public:
  ExecutionEnvironment(LongLivedChild child, std::filesystem::path dir, std::string log_stream);
  ~ExecutionEnvironment();  // kills the process group, removes the directory
  ExecutionEnvironment(const ExecutionEnvironment&) = delete;
  ExecutionEnvironment& operator=(const ExecutionEnvironment&) = delete;

  // Waits for the next message (the ready message after Init).
  Exchange Receive(Clock::time_point deadline, size_t max_log_bytes);
  // Sends `request` and waits for its answer.
  Exchange Call(const std::string& request, Clock::time_point deadline, size_t max_log_bytes);

  // False once the process has ended (a crash between invocations).
  bool Alive();
  // The process's peak resident set so far (/proc/<pid>/status VmHWM).
  int64_t PeakRssKib() const;
  pid_t pid() const { return child_.pid; }
  // Lambda writes all of an environment's invocations to one log stream.
  const std::string& log_stream() const { return log_stream_; }

  Clock::time_point idle_since;  // set by the pool

 private:
  LongLivedChild child_;
  std::filesystem::path dir_;
  std::string log_stream_;
  std::string pending_;  // answer bytes read beyond the last message
};

}  // namespace ms::lambda
