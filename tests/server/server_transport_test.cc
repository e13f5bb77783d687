// The transport of `moonstack serve` (host/server/http_server.h): one server
// per port, slow and idle clients that cannot starve the others, a listen
// backlog for bursts, and a prompt exit on SIGTERM whatever the clients do.
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include "raw_http.h"
#include "server_fixture.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

const std::string kHealth = "GET /moonstack/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

// A health request on a new connection: how long its answer took (-1: none within 5 s).
double TimeHealth(int port) {
  const auto start = SteadyClock::now();
  const std::string r = Exchange(port, kHealth);
  return r.find("{\"status\":\"ok\"}") != std::string::npos ? SecondsSince(start) : -1;
}

}  // namespace

TEST_CASE("a second server on a taken port fails at once", "[server][transport]") {
  Server server("port_taken");
  const auto start = SteadyClock::now();
  // timeout: a second server that did bind would serve until killed.
  Run second = Sh("timeout 5 " + std::string(MOONSTACK_BINARY) + " serve --port " + std::to_string(server.port()) +
                  " --state " + server.dir() + "/second.db");
  INFO(second.out);
  CHECK(second.exit_code == 1);
  CHECK(second.out.find("moonstack serve: cannot listen on 127.0.0.1:" + std::to_string(server.port()) +
                        ": the port is in use (by another moonstack serve?)") != std::string::npos);
  CHECK(SecondsSince(start) < 4);
  CHECK(TimeHealth(server.port()) >= 0);  // the first one still answers
}

TEST_CASE("slow clients neither block others nor hold a connection past the read deadline", "[server][transport]") {
  Server server("slowloris", "0.001", {"--read-timeout", "1"});
  // 16 connections sending a request's head a byte every 100 ms: it would
  // take them 5 s to finish the head.
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 16; ++i) slow.push_back(std::make_unique<RawConnection>(server.port()));
  const std::string head = "GET /moonstack/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + std::string(40, 'a');
  for (auto& c : slow) REQUIRE(c->Send(head.substr(0, 1)));
  std::vector<double> health;
  const auto start = SteadyClock::now();
  for (size_t byte = 1; SecondsSince(start) < 1.6; ++byte) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (auto& c : slow) c->Send(head.substr(byte, 1));
    if (byte % 5 == 0) health.push_back(TimeHealth(server.port()));
  }
  CHECK(health.size() >= 2);
  for (double t : health) {
    CHECK(t >= 0);
    CHECK(t < 1);
  }
  // Cut at the head's deadline (1 s after its first byte), well before its end.
  for (auto& c : slow) CHECK(c->ClosedWithin(2));
}

TEST_CASE("idle keep-alive connections never delay a new one", "[server][transport]") {
  Server server("keepalive");
  // Connections asked once and kept open, as an SDK's connection pool keeps
  // them: 16, then more than the server has threads for connections (128).
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int total : {16, 140}) {
    INFO(total << " idle connections");
    const size_t opened = idle.size();
    while (idle.size() < static_cast<size_t>(total)) {
      idle.push_back(std::make_unique<RawConnection>(server.port()));
      REQUIRE(idle.back()->Send(kHealth));
    }
    for (size_t i = opened; i < idle.size(); ++i) {
      CHECK(idle[i]->ReadResponse().find("{\"status\":\"ok\"}") != std::string::npos);
    }
    for (int i = 0; i < 3; ++i) {
      const double t = TimeHealth(server.port());
      REQUIRE(t >= 0);
      CHECK(t < 1);
    }
  }
}

TEST_CASE("SIGTERM ends the server at once with idle and slow connections open", "[server][transport]") {
  Server server("sigterm_connections");
  RawConnection idle(server.port()), slow(server.port());
  REQUIRE(idle.Send(kHealth));
  REQUIRE(idle.ReadResponse().find("200 OK") != std::string::npos);
  REQUIRE(slow.Send("GET /moonstack/health HTTP/1.1\r\nHost: 127."));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const Server::Exit exit = server.Terminate();
  CHECK_FALSE(exit.killed);
  CHECK(exit.seconds < 1.5);
  CHECK(WIFEXITED(exit.status));
  CHECK(WEXITSTATUS(exit.status) == 0);
}

TEST_CASE("the server listens with a backlog for bursts of connections", "[server][transport]") {
  Server server("backlog");
  // ss shows a listening socket's backlog as its Send-Q.
  Run ss = Sh("ss -Hltn 'sport = :" + std::to_string(server.port()) + "'");
  INFO(ss.out);
  REQUIRE(ss.exit_code == 0);
  std::istringstream fields(ss.out);
  std::string state, recv_q, send_q;
  fields >> state >> recv_q >> send_q;
  CHECK(state == "LISTEN");
  CHECK(std::stoi(send_q) >= 512);
}
