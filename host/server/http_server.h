// HttpServer: cpp-httplib's Server with the limits a server that any local
// program can connect to needs. cpp-httplib 0.11 (Debian's, compiled into
// its shared library, so its CPPHTTPLIB_* settings cannot be changed here)
// has none of them:
//
//   port         exclusive: cpp-httplib sets SO_REUSEPORT, with which a
//                second server binds the same port and the kernel splits the
//                connections between the two. Here a second server fails to
//                bind (EADDRINUSE).
//   backlog      512 connections waiting to be accepted (cpp-httplib: 5,
//                which drops SYNs under a burst of connections).
//   threads      one per connection, up to max_connections (cpp-httplib: a
//                pool of 8 that eight idle or slow clients fill). A
//                connection waiting for its client's next request gives its
//                thread up as soon as a new connection waits for one.
//   deadlines    a request's headers must arrive within read_timeout of its
//                first byte, and its body within read_timeout of its headers
//                (cpp-httplib waits up to 5 s for each byte: a client sending
//                a byte a second holds a thread forever); a connection idle
//                for keep_alive_timeout is closed.
//   stop         Shutdown() returns at once and wakes every connection
//                waiting for a request or for bytes; handlers running finish
//                (cpp-httplib waits up to 5 s per idle keep-alive connection).
//   bodies       a request whose body was not read to its end (refused, or a
//                GET that had one) ends its connection: what is left would
//                read as the next request.
//   guard        set_guard: run on each request's head before its body is
//                read (request_guard.h); its answer replaces the route's.
#pragma once

#include <httplib.h>

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "base/status.h"

namespace ms::server {

class ConnectionThreads;

class HttpServer : public httplib::Server {
 public:
  struct Limits {
    double read_timeout_seconds = 5;
    double keep_alive_seconds = 5;
    size_t max_connections = 128;        // served at once; more wait to be accepted
    size_t max_requests_per_connection = 1000;
    int listen_backlog = 512;
  };
  // An answer given instead of routing the request.
  struct Answer {
    int status = 400;
    std::string content_type, body;
  };
  using Guard = std::function<std::optional<Answer>(const httplib::Request&)>;

  explicit HttpServer(Limits limits);
  ~HttpServer() override;

  void set_guard(Guard guard) { guard_ = std::move(guard); }
  // Binds the port (exclusively) and listens; the error names the address
  // and why ("Address already in use").
  Status Bind(const std::string& host, int port);
  // The port bound (the kernel's pick after Bind(host, 0)); 0 before Bind.
  int BoundPort() const;
  // Serves until Shutdown; false when the listening socket failed.
  bool Serve();
  // Thread-safe: stops accepting, wakes every connection waiting on its
  // client; Serve returns once the handlers running have finished.
  void Shutdown();

 private:
  struct Connection;
  bool process_and_close_socket(socket_t sock) override;
  // Serves the connection's requests; true when it ends with input unread.
  bool ServeConnection(Connection& c);
  // The request's head is in: runs the guard, and fixes what the body
  // reader is told to expect.
  void SetUpRequest(Connection& c, httplib::Request& req);
  static void CloseLingering(socket_t sock, int wake_fd);

  static thread_local Connection* current_;  // the connection whose request this thread processes

  Limits limits_;
  Guard guard_;
  int wake_[2] = {-1, -1};  // a byte in the pipe (never read) wakes every poll: Shutdown
  std::atomic<bool> stopping_{false};
  std::atomic<ConnectionThreads*> threads_{nullptr};  // while Serve runs
};

}  // namespace ms::server
