#include "server/deadline_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ms::server {
namespace {

void IpAndPort(const sockaddr_storage& addr, std::string& ip, int& port) {
  char text[INET6_ADDRSTRLEN] = "";
  if (addr.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(addr);
    inet_ntop(AF_INET, &a.sin_addr, text, sizeof text);
    port = ntohs(a.sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto& a = reinterpret_cast<const sockaddr_in6&>(addr);
    inet_ntop(AF_INET6, &a.sin6_addr, text, sizeof text);
    port = ntohs(a.sin6_port);
  }
  ip = text;
}

}  // namespace

DeadlineStream::DeadlineStream(int sock, int wake_fd, std::chrono::milliseconds write_timeout)
    : sock_(sock), wake_fd_(wake_fd), write_timeout_(write_timeout), deadline_(Clock::now()) {}

DeadlineStream::Ready DeadlineStream::Wait(short events, Clock::time_point until) const {
  pollfd fds[2] = {{sock_, events, 0}, {wake_fd_, POLLIN, 0}};
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) return Ready::kTimeout;
    const int n = poll(fds, 2, static_cast<int>(std::min<long long>(left, 60000)));
    if (n < 0 && errno != EINTR) return Ready::kWoken;  // a broken descriptor: give up as on a stop
    if (n <= 0) continue;
    if (fds[1].revents != 0) return Ready::kWoken;
    if (fds[0].revents != 0) return Ready::kData;  // data, or a hang-up/error the next call reports
  }
}

bool DeadlineStream::WaitForRequest(Clock::time_point until, const std::function<bool()>& give_up) {
  if (begin_ < end_) return true;  // pipelined: the next request is read already
  while (Clock::now() < until) {
    const Ready r = Wait(POLLIN, std::min(until, Clock::now() + std::chrono::milliseconds(100)));
    if (r == Ready::kData) return true;
    if (r == Ready::kWoken || give_up()) return false;
  }
  return false;
}

bool DeadlineStream::is_readable() const { return begin_ < end_ || Wait(POLLIN, deadline_) == Ready::kData; }

// Writes are not cut short by a stop: a response being written is finished.
bool DeadlineStream::is_writable() const {
  pollfd fd = {sock_, POLLOUT, 0};
  return poll(&fd, 1, static_cast<int>(write_timeout_.count())) > 0 && (fd.revents & POLLOUT) != 0;
}

ssize_t DeadlineStream::read(char* ptr, size_t size) {
  if (begin_ == end_) {
    if (Wait(POLLIN, deadline_) != Ready::kData) return -1;
    ssize_t n;
    do {
      n = recv(sock_, buf_, sizeof buf_, 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return n;
    begin_ = 0;
    end_ = static_cast<size_t>(n);
  }
  const size_t n = std::min(size, end_ - begin_);
  std::memcpy(ptr, buf_ + begin_, n);
  begin_ += n;
  consumed_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t DeadlineStream::write(const char* ptr, size_t size) {
  if (!is_writable()) return -1;
  ssize_t n;
  do {
    n = send(sock_, ptr, size, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n;
}

void DeadlineStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) IpAndPort(addr, ip, port);
}

void DeadlineStream::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) IpAndPort(addr, ip, port);
}

}  // namespace ms::server
