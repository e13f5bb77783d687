#include "store/stack_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace ms {

Status StackLock::TryAcquire(const std::string& state_path, const std::string& stack_name,
                             std::unique_ptr<StackLock>* out) {
  out->reset();
  if (state_path == ":memory:") {
    out->reset(new StackLock(-1));
    return Status::OK();
  }
  const std::filesystem::path dir = state_path + ".locks";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Internal("store: cannot create " + dir.string() + ": " + ec.message());
  const std::string path = (dir / stack_name).string();  // stack names are [a-zA-Z][-a-zA-Z0-9]*
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::Internal("store: cannot open " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) return Status::OK();  // held by a live process
    return Status::Internal("store: cannot lock " + path + ": " + std::strerror(err));
  }
  out->reset(new StackLock(fd));
  return Status::OK();
}

StackLock::~StackLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace ms
