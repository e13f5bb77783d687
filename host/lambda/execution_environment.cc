#include "lambda/execution_environment.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

namespace ms::lambda {
namespace {

void AppendLog(const char* data, size_t n, size_t max, Exchange* ex) {
  const size_t room = max - std::min(max, ex->log.size());
  ex->log.append(data, std::min(room, n));
  if (n > room) ex->log_truncated = true;
}

// Whatever the log pipe holds now (it is non-blocking).
void DrainLog(int fd, size_t max, Exchange* ex) {
  char buf[65536];
  for (;;) {
    const ssize_t got = read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    AppendLog(buf, static_cast<size_t>(got), max, ex);
  }
}

bool WriteAll(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = write(fd, data.data() + off, data.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

// A whole message at the front of `buffer`: taken out into `message`.
bool TakeMessage(std::string* buffer, std::string* message) {
  if (buffer->size() < 4) return false;
  const auto* b = reinterpret_cast<const unsigned char*>(buffer->data());
  const size_t length = (size_t{b[0]} << 24) | (size_t{b[1]} << 16) | (size_t{b[2]} << 8) | size_t{b[3]};
  if (buffer->size() < 4 + length) return false;
  *message = buffer->substr(4, length);
  buffer->erase(0, 4 + length);
  return true;
}

}  // namespace

ExecutionEnvironment::ExecutionEnvironment(LongLivedChild child, std::filesystem::path dir, std::string log_stream)
    : child_(child), dir_(std::move(dir)), log_stream_(std::move(log_stream)) {}

ExecutionEnvironment::~ExecutionEnvironment() {
  StopChild(&child_);
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

Exchange ExecutionEnvironment::Receive(Clock::time_point deadline, size_t max_log_bytes) {
  Exchange ex;
  char buf[65536];
  bool log_open = true;
  for (;;) {
    if (TakeMessage(&pending_, &ex.answer)) {
      ex.answered = true;
      break;
    }
    const Clock::time_point now = Clock::now();
    if (now >= deadline) { ex.timed_out = true; break; }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();  // never early
    struct pollfd p[2] = {{child_.response_fd, POLLIN, 0}, {log_open ? child_.log_fd : -1, POLLIN, 0}};
    const int n = poll(p, 2, static_cast<int>(std::min<long long>(left, 1 << 30)));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) continue;  // the deadline, checked above
    if (p[1].revents != 0) {
      const ssize_t got = read(child_.log_fd, buf, sizeof buf);
      if (got > 0) AppendLog(buf, static_cast<size_t>(got), max_log_bytes, &ex);
      if (got == 0) log_open = false;
    }
    if (p[0].revents != 0) {
      const ssize_t got = read(child_.response_fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {  // the process ended without answering
        int status = 0;
        while (waitpid(child_.pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFEXITED(status)) ex.exit_code = WEXITSTATUS(status);
        if (WIFSIGNALED(status)) ex.signal = WTERMSIG(status);
        kill(-child_.pid, SIGKILL);  // what it left running in its group
        child_.pid = 0;              // reaped: StopChild must not wait for it again
        break;
      }
      pending_.append(buf, static_cast<size_t>(got));
    }
  }
  // Printed before the answer was written: in the pipe by now.
  DrainLog(child_.log_fd, max_log_bytes, &ex);
  return ex;
}

Exchange ExecutionEnvironment::Call(const std::string& request, Clock::time_point deadline, size_t max_log_bytes) {
  std::string frame(4, '\0');
  const size_t n = request.size();
  frame[0] = static_cast<char>((n >> 24) & 0xff), frame[1] = static_cast<char>((n >> 16) & 0xff);
  frame[2] = static_cast<char>((n >> 8) & 0xff), frame[3] = static_cast<char>(n & 0xff);
  frame += request;
  // A failed write (the process is gone) shows as the end of its answers.
  WriteAll(child_.request_fd, frame);
  return Receive(deadline, max_log_bytes);
}

bool ExecutionEnvironment::Alive() {
  if (child_.pid <= 0) return false;
  int status = 0;
  if (waitpid(child_.pid, &status, WNOHANG) == 0) return true;
  kill(-child_.pid, SIGKILL);
  child_.pid = 0;  // reaped
  return false;
}

int64_t ExecutionEnvironment::PeakRssKib() const {
  if (child_.pid <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(child_.pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6));
  }
  return 0;
}

}  // namespace ms::lambda
