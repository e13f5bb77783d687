#include "lambda/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ms::lambda {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> CStrings(const std::vector<std::string>& v) {
  std::vector<char*> out;
  out.reserve(v.size() + 1);
  for (const std::string& s : v) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// A descriptor moved above the standard ones (close-on-exec), so that the
// dup2s below cannot overwrite one source with another.
int Lifted(int fd) { return fd < 0 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 10); }

// In the child between fork and exec: async-signal-safe calls only.
// `in_fd` becomes stdin (/dev/null when -1), `out_fd` stdout and stderr,
// `answer_fd` fd 3 (none when -1); `err_fd` gets errno when exec fails.
[[noreturn]] void ExecChild(const ChildSpec& spec, char* const* argv, char* const* envp, int in_fd, int out_fd,
                            int answer_fd, int err_fd) {
  setpgid(0, 0);
  in_fd = Lifted(in_fd), out_fd = Lifted(out_fd), answer_fd = Lifted(answer_fd), err_fd = Lifted(err_fd);
  signal(SIGPIPE, SIG_DFL);  // the parent may ignore it; an ignored signal survives exec
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  if (in_fd < 0) in_fd = open("/dev/null", O_RDONLY);
  if (in_fd >= 0) dup2(in_fd, STDIN_FILENO);
  if (answer_fd >= 0) dup2(answer_fd, 3);
  if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
    int e = errno;
    (void)!write(err_fd, &e, sizeof e);
    _exit(127);
  }
  if (spec.address_space_bytes > 0) {
    struct rlimit rl{spec.address_space_bytes, spec.address_space_bytes};
    setrlimit(RLIMIT_AS, &rl);
  }
  execve(argv[0], argv, envp);
  int e = errno;
  (void)!write(err_fd, &e, sizeof e);  // the parent reads why exec failed
  _exit(127);
}

// Reads the errno a failed exec wrote, or "" once exec succeeded (the pipe
// closes on exec).
std::string ExecError(int status_fd) {
  int exec_errno = 0;
  std::string error;
  if (read(status_fd, &exec_errno, sizeof exec_errno) == static_cast<ssize_t>(sizeof exec_errno)) {
    error = std::strerror(exec_errno);
  }
  close(status_fd);
  return error;
}

void CloseAll(std::initializer_list<int> fds) {
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
}

}  // namespace

std::string FindOnPath(const std::string& program, const std::string& path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = end > start ? path.substr(start, end - start) : ".";
    const std::string candidate = dir + "/" + program;
    struct stat st{};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return "";
}

ChildResult RunChild(const ChildSpec& spec) {
  ChildResult r;
  int out[2], status_pipe[2];
  if (pipe2(out, O_CLOEXEC) != 0) { r.start_error = std::strerror(errno); return r; }
  if (pipe2(status_pipe, O_CLOEXEC) != 0) {
    r.start_error = std::strerror(errno);
    close(out[0]); close(out[1]);
    return r;
  }
  std::vector<char*> argv = CStrings(spec.argv), envp = CStrings(spec.env);
  const Clock::time_point begin = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) ExecChild(spec, argv.data(), envp.data(), -1, out[1], -1, status_pipe[1]);
  close(out[1]);
  close(status_pipe[1]);
  if (pid < 0) {
    r.start_error = std::strerror(errno);
    close(out[0]); close(status_pipe[0]);
    return r;
  }
  setpgid(pid, pid);  // also from here, so the group exists before any kill below
  r.start_error = ExecError(status_pipe[0]);

  // Collect output until the pipe closes or the wall-clock limit passes.
  const Clock::time_point deadline = begin + spec.wall_limit;
  char buf[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) { r.timed_out = true; break; }
    struct pollfd p{out[0], POLLIN, 0};
    const int n = poll(&p, 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) { r.timed_out = true; break; }
    const ssize_t got = read(out[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // every writer closed its end: the child (and its children) ended
    const size_t room = spec.max_output_bytes - std::min(spec.max_output_bytes, r.output.size());
    r.output.append(buf, std::min(room, static_cast<size_t>(got)));
    if (static_cast<size_t>(got) > room) r.output_truncated = true;
  }
  close(out[0]);
  // The group goes: at the deadline, and after an ordinary end too (a
  // background process the function started must not outlive the call).
  kill(-pid, SIGKILL);
  int status = 0;
  struct rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  r.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begin);
  r.max_rss_kib = usage.ru_maxrss;
  r.started = r.start_error.empty();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

bool StartChild(const ChildSpec& spec, LongLivedChild* child, std::string* error) {
  int in[2] = {-1, -1}, answer[2] = {-1, -1}, out[2] = {-1, -1}, status_pipe[2] = {-1, -1};
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(answer, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(status_pipe, O_CLOEXEC) != 0) {
    *error = std::strerror(errno);
    CloseAll({in[0], in[1], answer[0], answer[1], out[0], out[1], status_pipe[0], status_pipe[1]});
    return false;
  }
  std::vector<char*> argv = CStrings(spec.argv), envp = CStrings(spec.env);
  const pid_t pid = fork();
  if (pid == 0) ExecChild(spec, argv.data(), envp.data(), in[0], out[1], answer[1], status_pipe[1]);
  CloseAll({in[0], answer[1], out[1], status_pipe[1]});
  if (pid < 0) {
    *error = std::strerror(errno);
    CloseAll({in[1], answer[0], out[0], status_pipe[0]});
    return false;
  }
  setpgid(pid, pid);
  *child = LongLivedChild{pid, in[1], answer[0], out[0]};
  fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
  *error = ExecError(status_pipe[0]);
  if (!error->empty()) {
    StopChild(child);
    return false;
  }
  return true;
}

void StopChild(LongLivedChild* child) {
  if (child->pid > 0) kill(-child->pid, SIGKILL);  // pid 0: already reaped
  CloseAll({child->request_fd, child->response_fd, child->log_fd});
  while (child->pid > 0 && waitpid(child->pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  *child = LongLivedChild{};
}

}  // namespace ms::lambda
