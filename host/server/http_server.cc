#include "server/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "server/connection_threads.h"
#include "server/deadline_stream.h"
#include "server/request_guard.h"

namespace ms::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kWriteTimeout{5000};

Clock::duration Seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

void Fill(httplib::Response& res, const HttpServer::Answer& answer) {
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type.c_str());
}

}  // namespace

struct HttpServer::Connection {
  explicit Connection(DeadlineStream s) : stream(std::move(s)) {}
  DeadlineStream stream;
  bool head_read = false;         // the request being processed got as far as its body
  std::optional<Answer> refusal;  // the guard's answer to it
  bool body_known = true;         // its body's length is known (not chunked, not malformed)
  uint64_t body_start = 0;        // stream.consumed() when its head was in
  uint64_t body_length = 0;
};

// process_request runs a whole request on the connection's thread; the hooks
// cpp-httplib calls meanwhile (expect-100, pre-routing) find it here.
thread_local HttpServer::Connection* HttpServer::current_ = nullptr;

HttpServer::HttpServer(Limits limits) : limits_(limits) {
  if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;  // poll ignores -1: no wake-up
  // cpp-httplib's default options add SO_REUSEPORT; SO_REUSEADDR alone still
  // lets a restarted server bind while old connections linger in TIME_WAIT,
  // but never next to a server listening on the port.
  set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // A response is written in more than one segment (headers, then body): with
  // Nagle's algorithm the second waits for the client's delayed ACK, ~40 ms
  // on Linux, on every request of a keep-alive connection (boto3's).
  set_tcp_nodelay(true);
  set_keep_alive_timeout(static_cast<time_t>(std::ceil(limits_.keep_alive_seconds)));  // the Keep-Alive header's
  set_keep_alive_max_count(limits_.max_requests_per_connection);
  set_write_timeout(kWriteTimeout.count() / 1000, 0);
  new_task_queue = [this] {
    auto* threads = new ConnectionThreads(limits_.max_connections);
    threads_ = threads;
    return threads;
  };
  set_expect_100_continue_handler([](const httplib::Request&, httplib::Response& res) {
    if (current_ == nullptr || !current_->refusal) return 100;
    Fill(res, *current_->refusal);  // answered before the client sends its body
    return res.status;
  });
  set_pre_routing_handler([](const httplib::Request&, httplib::Response& res) {
    if (current_ == nullptr || !current_->refusal) return HandlerResponse::Unhandled;
    Fill(res, *current_->refusal);
    return HandlerResponse::Handled;
  });
}

HttpServer::~HttpServer() {
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
}

Status HttpServer::Bind(const std::string& host, int port) {
  errno = 0;
  if (!bind_to_port(host, port)) {
    const int err = errno;  // the failed bind's (closing its socket keeps errno)
    std::string why = err == EADDRINUSE ? "the port is in use (by another moonstack serve?)"
                      : err != 0        ? std::strerror(err)
                                        : "no such address";
    return Status::Validation("moonstack serve: cannot listen on " + host + ":" + std::to_string(port) + ": " + why);
  }
  // cpp-httplib listened with its compiled-in backlog (5); listening again
  // on the socket sets the new one.
  if (::listen(svr_sock_, limits_.listen_backlog) != 0) {
    return Status::Internal(std::string("moonstack serve: listen: ") + std::strerror(errno));
  }
  return Status::OK();
}

int HttpServer::BoundPort() const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (svr_sock_ == INVALID_SOCKET || getsockname(svr_sock_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return 0;
}

bool HttpServer::Serve() {
  const bool ok = listen_after_bind();
  threads_ = nullptr;
  return ok;
}

void HttpServer::Shutdown() {
  stopping_ = true;
  if (wake_[1] >= 0) {
    const char byte = 1;
    (void)!::write(wake_[1], &byte, 1);
  }
  // What httplib::Server::stop does, without its is_running() check: a stop
  // that comes before Serve has started accepting is not lost.
  const socket_t sock = svr_sock_.exchange(INVALID_SOCKET);
  if (sock != INVALID_SOCKET) {
    ::shutdown(sock, SHUT_RDWR);
    close(sock);
  }
}

bool HttpServer::process_and_close_socket(socket_t sock) {
  Connection c(DeadlineStream(sock, wake_[0], kWriteTimeout));
  const bool unread = ServeConnection(c);
  if (unread) {
    CloseLingering(sock, wake_[0]);
  } else {
    ::shutdown(sock, SHUT_RDWR);
    close(sock);
  }
  return true;
}

bool HttpServer::ServeConnection(Connection& c) {
  ConnectionThreads* threads = threads_.load();
  // An idle connection gives its thread up to a connection waiting for one.
  auto give_up = [&] { return stopping_.load() || (threads != nullptr && threads->Starved()); };
  for (size_t served = 0; served < limits_.max_requests_per_connection && !stopping_; ++served) {
    if (!c.stream.WaitForRequest(Clock::now() + Seconds(limits_.keep_alive_seconds), give_up)) return false;
    c.stream.set_read_deadline(Clock::now() + Seconds(limits_.read_timeout_seconds));  // the head's
    const bool last = served + 1 == limits_.max_requests_per_connection;
    bool connection_closed = false;
    c.head_read = false;
    current_ = &c;
    const bool ok = process_request(c.stream, last, connection_closed,
                                    [this, &c](httplib::Request& req) { SetUpRequest(c, req); });
    current_ = nullptr;
    if (!c.head_read) return false;  // cut at the deadline, or malformed (answered 400)
    const bool unread = c.refusal || !c.body_known || c.stream.consumed() - c.body_start != c.body_length;
    if (unread) return true;
    if (!ok || connection_closed) return false;
  }
  return false;
}

void HttpServer::SetUpRequest(Connection& c, httplib::Request& req) {
  c.head_read = true;
  c.refusal = guard_ ? guard_(req) : std::nullopt;
  c.body_start = c.stream.consumed();
  c.body_known = true;
  c.body_length = 0;
  if (c.refusal) {
    // Answered without reading the body; the connection ends after it.
    req.headers.erase("Content-Length");
    req.headers.erase("Transfer-Encoding");
    req.set_header("Content-Length", "0");
    return;
  }
  if (req.has_header("Transfer-Encoding")) {
    c.body_known = false;
  } else if (req.has_header("Content-Length")) {
    std::optional<uint64_t> n = ParseContentLength(req.get_header_value("Content-Length"));
    c.body_known = n.has_value();
    c.body_length = n.value_or(0);
  } else {
    // A request with neither header has no body (RFC 9112, 6.3);
    // cpp-httplib would read a POST's until the client closes.
    req.set_header("Content-Length", "0");
  }
  c.stream.set_read_deadline(Clock::now() + Seconds(limits_.read_timeout_seconds));  // the body's
}

// Closing a socket with input unread makes the kernel send a reset, which
// can overtake the answer just written (a refusal sent before the body was
// read). So the sending side is shut first, and what the client still sends
// is read and dropped for a moment.
void HttpServer::CloseLingering(socket_t sock, int wake_fd) {
  ::shutdown(sock, SHUT_WR);
  const auto until = Clock::now() + std::chrono::seconds(1);
  char buf[16384];
  size_t dropped = 0;
  while (dropped < (4u << 20)) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
    if (left <= 0) break;
    pollfd fds[2] = {{sock, POLLIN, 0}, {wake_fd, POLLIN, 0}};
    if (poll(fds, 2, static_cast<int>(left)) <= 0 || fds[1].revents != 0) break;
    const ssize_t n = recv(sock, buf, sizeof buf, 0);
    if (n <= 0) break;
    dropped += static_cast<size_t>(n);
  }
  close(sock);
}

}  // namespace ms::server
