// DeadlineStream: cpp-httplib's view of one connection (httplib::Stream)
// whose reads end at a deadline the server sets for each part of a request
// (its head, then its body), or at once when the server's wake descriptor
// becomes readable (shutdown). cpp-httplib's own stream waits up to its read
// timeout for each byte, with no bound on the whole (http_server.h).
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace ms::server {

class DeadlineStream : public httplib::Stream {
 public:
  using Clock = std::chrono::steady_clock;

  // `sock`: the connection (not owned); `wake_fd`: readable once the server stops.
  DeadlineStream(int sock, int wake_fd, std::chrono::milliseconds write_timeout);

  // Reads after `deadline` fail (return -1).
  void set_read_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  // Waits for the first byte of the client's next request: true once one is
  // here; false at `until`, on wake, or once give_up() (asked every 100 ms)
  // says so.
  bool WaitForRequest(Clock::time_point until, const std::function<bool()>& give_up);
  // Bytes handed to cpp-httplib so far (read ahead but not handed out does not count).
  uint64_t consumed() const { return consumed_; }

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

 private:
  enum class Ready { kData, kTimeout, kWoken };
  // Polls the socket for `events` and the wake descriptor until `until`.
  Ready Wait(short events, Clock::time_point until) const;

  int sock_, wake_fd_;
  std::chrono::milliseconds write_timeout_;
  Clock::time_point deadline_;
  char buf_[4096];
  size_t begin_ = 0, end_ = 0;  // buffered bytes not handed out yet: buf_[begin_, end_)
  uint64_t consumed_ = 0;
};

}  // namespace ms::server
