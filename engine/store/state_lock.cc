#include "store/state_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ms {
namespace {

// What the holder wrote into the lock file ("" when it is not readable).
std::string ReadHolder(int fd) {
  char buf[512];
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

void WriteHolder(int fd, const std::string& holder) {
  const std::string text = "pid " + std::to_string(::getpid()) + ": " + holder;
  if (::ftruncate(fd, 0) == 0) {
    (void)!::pwrite(fd, text.data(), text.size(), 0);  // informative only
  }
}

}  // namespace

Status StateLock::Acquire(const std::string& state_path, const std::string& holder, Wait wait,
                          std::unique_ptr<StateLock>* out) {
  out->reset();
  if (state_path == ":memory:") {
    out->reset(new StateLock(-1));
    return Status::OK();
  }
  const std::string path = state_path + ".lock";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Internal("store: cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    if (err != EWOULDBLOCK) {
      ::close(fd);
      return Status::Internal("store: cannot lock " + path + ": " + std::strerror(err));
    }
    const std::string other = ReadHolder(fd);
    const bool served = other.find(kServeHolder) != std::string::npos;
    if (wait == Wait::kNever || served) {
      ::close(fd);
      return Status::Validation(
          "The state file " + state_path + " is in use by another moonstack process (" +
          (other.empty() ? "unknown" : other) + "): one process writes a state file at a time" +
          (served ? "; send this request to that server (--endpoint-url), or stop it first" : ""));
    }
    while (::flock(fd, LOCK_EX) != 0) {  // another command: it ends on its own
      if (errno != EINTR) {
        const int e = errno;
        ::close(fd);
        return Status::Internal("store: cannot lock " + path + ": " + std::strerror(e));
      }
    }
  }
  WriteHolder(fd, holder);
  out->reset(new StateLock(fd));
  return Status::OK();
}

StateLock::~StateLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace ms
