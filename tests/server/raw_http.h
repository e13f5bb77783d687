// Plain-socket HTTP for the server tests: what the aws CLI and boto3 never
// send (a wrong Host, a text/plain body, no Content-Length, a byte a second)
// and connections held open on purpose.
#pragma once

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <string>

namespace ms::test::server {

using SteadyClock = std::chrono::steady_clock;

inline double SecondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    REQUIRE(connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  }
  ~RawConnection() { close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // False once the server has closed the connection.
  bool Send(const std::string& bytes) {
    return send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // One response: its head and the Content-Length bytes of body after it;
  // what came when the server closed or `timeout` seconds passed.
  std::string ReadResponse(double timeout = 5) {
    const auto until = SteadyClock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout * 1000));
    while (true) {
      const size_t head_end = buffer_.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        size_t length = 0;
        const size_t at = Lower(buffer_.substr(0, head_end)).find("\r\ncontent-length:");
        if (at != std::string::npos) length = std::stoul(buffer_.substr(at + 17));
        if (buffer_.size() >= head_end + 4 + length) {
          std::string response = buffer_.substr(0, head_end + 4 + length);
          buffer_.erase(0, response.size());
          return response;
        }
      }
      if (!Fill(until)) {
        std::string partial;
        partial.swap(buffer_);
        return partial;
      }
    }
  }
  // True when the server closes the connection within `timeout` seconds
  // (whatever it sent first is read and dropped).
  bool ClosedWithin(double timeout) {
    const auto until = SteadyClock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeout * 1000));
    while (Fill(until)) buffer_.clear();
    return closed_;
  }

 private:
  static std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  // Reads what arrives before `until`: false at the deadline or once closed.
  bool Fill(SteadyClock::time_point until) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - SteadyClock::now()).count();
    if (left <= 0) return false;
    pollfd p = {fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    char buf[4096];
    const ssize_t n = recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) {
      closed_ = true;
      return false;
    }
    buffer_.append(buf, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  std::string buffer_;
  bool closed_ = false;
};

// The status code of an HTTP response ("HTTP/1.1 403 Forbidden..." -> 403), or 0.
inline int StatusOf(const std::string& response) {
  return response.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(response.c_str() + 9) : 0;
}

// One request on a new connection: the response.
inline std::string Exchange(int port, const std::string& request, double timeout = 5) {
  RawConnection c(port);
  REQUIRE(c.Send(request));
  return c.ReadResponse(timeout);
}

// A request with a body: `headers` are lines ending in \r\n (Host included).
inline std::string Request(const std::string& method, const std::string& path, const std::string& headers,
                           const std::string& body) {
  return method + " " + path + " HTTP/1.1\r\n" + headers + "Content-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body;
}

}  // namespace ms::test::server
