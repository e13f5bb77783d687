// OperationContext::interrupt: a process that stops (a server shutting down
// or resetting) stops its operations after their current checkpoint, the
// stack left in progress with its journal, and the next start resumes them.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "fake_providers.h"
#include "service_fixture.h"
#include "store/stack_tables.h"

namespace {

using ms::testing::FakeProviders;

// Sets the interrupt before the n-th provider call is sent, from the
// operation's own thread: a deterministic point in the run.
class InterruptAtCall : public ms::OperationObserver {
 public:
  InterruptAtCall(std::atomic<bool>* flag, int n) : flag_(flag), n_(n) {}
  bool BeforeCall(const ms::HookCall&, ms::HookOutcome*, double*) override {
    if (++calls_ == n_) flag_->store(true);
    return false;
  }

 private:
  std::atomic<bool>* flag_;
  int n_;
  int calls_ = 0;
};

ms::ResourceRecord Resource(ms::Database* db, const std::string& stack_id, const std::string& logical_id) {
  std::vector<ms::ResourceRecord> records;
  REQUIRE(ms::LoadResources(db, stack_id, &records).ok());
  for (const ms::ResourceRecord& r : records) {
    if (r.logical_id == logical_id) return r;
  }
  FAIL("no record for " << logical_id);
  return {};
}

ms::StackStatus StatusOf(ms::Database* db, const std::string& stack_id) {
  ms::StackRecord stack;
  bool found = false;
  REQUIRE(ms::LoadStack(db, stack_id, &stack, &found).ok());
  REQUIRE(found);
  return stack.status;
}

int Count(ms::Database* db, const std::string& stack_id, const std::string& logical_id, const std::string& status) {
  std::vector<ms::StackEvent> events;
  REQUIRE(ms::LoadEvents(db, stack_id, &events).ok());
  int n = 0;
  for (const ms::StackEvent& e : events) n += e.logical_id == logical_id && e.status == status;
  return n;
}

}  // namespace

TEST_CASE("an interrupted create stops at a checkpoint in progress and the next run finishes it", "[stack][interrupt]") {
  std::atomic<bool> interrupt{false};
  // Slow answers in progress 30 times (10 simulated seconds apart). The
  // interrupt is set as Slow's third call goes out (Quick's create is the
  // first call): that call completes, then the next checkpoint is the last.
  InterruptAtCall observer(&interrupt, 4);
  ms::testing::ServiceFixture<FakeProviders> f(1700000000000, &observer);
  ms::CreateStackInput in;
  in.stack_name = "long";
  in.template_body = R"({"Resources": {
    "Quick": {"Type": "Test::Fake::Thing"},
    "Slow": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 300}, "DependsOn": "Quick"}}})";
  std::string id;
  REQUIRE(f.service->StartCreate(in, &id).ok());
  ms::OperationContext ctx = f.service->context();
  ctx.interrupt = &interrupt;
  REQUIRE(ms::RunOperation(ctx, id).ok());

  // Stopped where the journal says: Quick done, Slow's create under way with its progress.
  CHECK(StatusOf(f.db.get(), id) == ms::StackStatus::kCreateInProgress);
  CHECK(f.providers.calls() == 4);
  CHECK(Resource(f.db.get(), id, "Quick").status == ms::ResourceStatus::kCreateComplete);
  const ms::ResourceRecord slow = Resource(f.db.get(), id, "Slow");
  CHECK(slow.status == ms::ResourceStatus::kCreateInProgress);
  CHECK(slow.pending_hook == "create");
  CHECK(slow.progress.ToJson() == R"({"waited":30,"id":"Slow-1"})");

  // The next start (no interrupt) resumes from there: Slow's create is
  // polled on from its saved progress, nothing is made twice.
  interrupt = false;
  REQUIRE(ms::RunOperation(f.service->context(), id).ok());
  CHECK(StatusOf(f.db.get(), id) == ms::StackStatus::kCreateComplete);
  CHECK(f.providers.live() == std::set<std::string>{"Quick-1", "Slow-1"});
  CHECK(f.providers.calls() == 1 + 31);  // Slow: waited 0, 10, ..., 300, each once
  CHECK(Count(f.db.get(), id, "Quick", "CREATE_COMPLETE") == 1);
  CHECK(Count(f.db.get(), id, "Slow", "CREATE_COMPLETE") == 1);
  CHECK(Count(f.db.get(), id, "long", "CREATE_COMPLETE") == 1);
}

TEST_CASE("real time: an interrupt wakes an operation waiting for a long timer", "[stack][interrupt]") {
  ms::testing::ServiceFixture<FakeProviders> f(ms::NewRealClock(), nullptr, ms::SchedulerOptions());
  ms::CancelRequests cancels;
  std::atomic<bool> interrupt{false};
  ms::OperationContext ctx = f.service->context();
  ctx.cancels = &cancels;
  ctx.interrupt = &interrupt;
  ms::CreateStackInput in;
  in.stack_name = "waiting";
  // In progress, polled every 10 real seconds.
  in.template_body = R"({"Resources": {"Slow": {"Type": "Test::Fake::Thing", "Properties": {"CreateSeconds": 60}}}})";
  std::string id;
  REQUIRE(f.service->StartCreate(in, &id).ok());
  auto run = std::async(std::launch::async, [&] { return ms::RunOperation(ctx, id); });
  while (f.providers.calls() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));

  const auto start = std::chrono::steady_clock::now();
  interrupt = true;
  cancels.WakeAll();
  REQUIRE(run.wait_for(std::chrono::seconds(3)) == std::future_status::ready);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
  REQUIRE(run.get().ok());
  CHECK(StatusOf(f.db.get(), id) == ms::StackStatus::kCreateInProgress);
  CHECK(Resource(f.db.get(), id, "Slow").progress.ToJson() == R"({"waited":10,"id":"Slow-1"})");
}
