// SessionPool (host/server/session_pool.h): provider sessions kept from one
// operation to the next, each lent to one worker at a time.
#include <catch2/catch.hpp>

#include <set>

// The server's sources are compiled into the moonstack binary only, not a
// library the tests link: this one file is all the test needs.
#include "server/session_pool.cc"  // NOLINT(bugprone-suspicious-include)

namespace {

class CountingSession : public ms::ProviderSession {
 public:
  explicit CountingSession(int id) : id(id) {}
  const ms::TypeSchema* Schema(std::string_view) override { return nullptr; }
  ms::Status Validate(std::string_view, const ms::HookContext&, const ms::Value& p, ms::Value* out) override {
    *out = p;
    return ms::Status::OK();
  }
  ms::Status DecideUpdate(std::string_view, std::string_view, const ms::Value&, const ms::Value&,
                          const ms::HookContext&, ms::UpdateBehavior* out) override {
    *out = ms::UpdateBehavior::kNone;
    return ms::Status::OK();
  }
  ms::HookOutcome Call(const ms::HookCall&) override {
    ms::HookOutcome o;
    o.physical_id = "session-" + std::to_string(id);  // which session answered
    return o;
  }
  int id;
};

class CountingRuntime : public ms::ProviderRuntime {
 public:
  ms::Status NewSession(std::unique_ptr<ms::ProviderSession>* out) override {
    *out = std::make_unique<CountingSession>(++made);
    return ms::Status::OK();
  }
  std::vector<std::string> Types() const override { return {}; }
  const ms::TypeSchema* Schema(std::string_view) const override { return nullptr; }
  int made = 0;
};

std::string Who(ms::ProviderSession& s) { return s.Call(ms::HookCall()).physical_id; }

}  // namespace

TEST_CASE("the session pool lends kept sessions to the next operation, one borrower each", "[server]") {
  CountingRuntime runtime;
  ms::server::SessionPool pool(&runtime, 2);
  REQUIRE(pool.Warm(2).ok());
  CHECK(runtime.made == 2);

  std::set<std::string> first;
  {
    // One operation's two workers: the two warm sessions, no new one.
    std::unique_ptr<ms::ProviderSession> a, b;
    REQUIRE(pool.NewSession(&a).ok());
    REQUIRE(pool.NewSession(&b).ok());
    CHECK(runtime.made == 2);
    first = {Who(*a), Who(*b)};
    CHECK(first == std::set<std::string>{"session-1", "session-2"});
    // A third worker while both are lent: a new session, never a lent one.
    std::unique_ptr<ms::ProviderSession> c;
    REQUIRE(pool.NewSession(&c).ok());
    CHECK(runtime.made == 3);
    CHECK(Who(*c) == "session-3");
  }  // the operation ends: its workers drop their sessions; the pool keeps 2 of the 3

  std::unique_ptr<ms::ProviderSession> d, e, f;
  REQUIRE(pool.NewSession(&d).ok());
  REQUIRE(pool.NewSession(&e).ok());
  CHECK(runtime.made == 3);  // the next operation reuses kept sessions
  CHECK(Who(*d) != Who(*e));
  REQUIRE(pool.NewSession(&f).ok());
  CHECK(runtime.made == 4);  // only 2 were kept
}

TEST_CASE("the session pool lends a worker the session that ran the most hooks and other borrowers the one that ran the fewest", "[server]") {
  CountingRuntime runtime;
  ms::server::SessionPool pool(&runtime, 2);
  REQUIRE(pool.Warm(2).ok());
  std::string busy, idle;
  {
    // An operation: its own checks borrow one session, its worker the other.
    std::unique_ptr<ms::ProviderSession> checks, worker;
    REQUIRE(pool.NewSession(&checks).ok());
    REQUIRE(pool.NewHookSession(&worker).ok());
    idle = Who(*checks);  // one hook
    for (int i = 0; i < 3; ++i) busy = Who(*worker);  // three: it has loaded more providers
    REQUIRE(busy != idle);
    worker.reset();  // the worker's comes back first, the checks' last
  }
  // The next operation's worker asks first: it gets the busy session, not
  // the one given back last.
  std::unique_ptr<ms::ProviderSession> worker, checks;
  REQUIRE(pool.NewHookSession(&worker).ok());
  REQUIRE(pool.NewSession(&checks).ok());
  CHECK(Who(*worker) == busy);
  CHECK(Who(*checks) == idle);
  CHECK(runtime.made == 2);
}
