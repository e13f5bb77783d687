#include "store/stack_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "records/stack_name.h"

namespace ms {
namespace {

// FNV-1a, 64 bits: stable across builds and platforms (std::hash is not),
// so every moonstack process on a state file names a stack's lock alike.
uint64_t Fnv1a64(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// True when `fd` is still the file at `path`: a holder removes the file
// before it unlocks, so a lock taken on a file that is gone (or replaced)
// meanwhile is no lock at all.
bool StillLinked(int fd, const std::string& path) {
  struct stat held, named;
  if (::fstat(fd, &held) != 0 || ::stat(path.c_str(), &named) != 0) return false;
  return held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

}  // namespace

std::string StackLock::LockFilePath(const std::string& state_path, const std::string& region,
                                    const std::string& stack_name) {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.lock",
                static_cast<unsigned long long>(Fnv1a64(region + "\n" + stack_name)));
  return (std::filesystem::path(state_path + ".locks") / name).string();
}

Status StackLock::TryAcquire(const std::string& state_path, const std::string& region,
                             const std::string& stack_name, std::unique_ptr<StackLock>* out) {
  out->reset();
  MS_RETURN_IF_ERROR(CheckStackName(stack_name));
  if (state_path == ":memory:") {
    out->reset(new StackLock(-1, ""));
    return Status::OK();
  }
  const std::string path = LockFilePath(state_path, region, stack_name);
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::Internal("store: cannot create " + dir.string() + ": " + ec.message());
  // A few rounds at most: each retry means a holder let go (and removed the
  // file) between our open and our flock.
  for (int attempt = 0; attempt < 16; ++attempt) {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Status::Internal("store: cannot open " + path + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) return Status::OK();  // held by a live process
      return Status::Internal("store: cannot lock " + path + ": " + std::strerror(err));
    }
    if (StillLinked(fd, path)) {
      out->reset(new StackLock(fd, path));
      return Status::OK();
    }
    ::close(fd);
  }
  return Status::OK();  // the lock keeps changing hands: taken as held by another process
}

StackLock::~StackLock() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // while still held: see StillLinked
  ::close(fd_);             // closing releases the flock
}

}  // namespace ms
