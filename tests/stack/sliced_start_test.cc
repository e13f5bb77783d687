// Wide phases in real time (OperationCore::StartInSlices): a create of
// hundreds of independent resources starts them a slice at a time, and the
// first slice's calls go out before the last resource has started. Under a
// virtual clock the whole phase starts in one round.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "fake_providers.h"
#include "service_fixture.h"
#include "stack/observer.h"
#include "stack/stack_service.h"
#include "store/schema.h"
#include "store/stack_tables.h"

namespace {

// A template of `n` independent fake resources; `extra` is put in R0000's
// properties.
std::string WideTemplate(int n, const std::string& extra = "") {
  std::string body = R"({"Resources": {)";
  for (int i = 0; i < n; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "R%04d", i);
    if (i > 0) body += ",";
    body += std::string("\"") + name + R"(": {"Type": "Test::Fake::Thing", "Properties": {"N": )" +
            std::to_string(i) + (i == 0 ? extra : "") + "}}";
  }
  return body + "}}";
}

// How many resources had started (their first CREATE_IN_PROGRESS) when the
// first provider call went out.
struct FirstCallWatcher : ms::OperationObserver {
  int started = 0;
  int started_at_first_call = -1;
  void OnEvent(const ms::StackEvent& e) override {
    if (e.status == "CREATE_IN_PROGRESS" && e.reason.empty() && e.type == "Test::Fake::Thing") ++started;
  }
  bool BeforeCall(const ms::HookCall&, ms::HookOutcome*, double*) override {
    if (started_at_first_call < 0) started_at_first_call = started;
    return false;
  }
};

struct Wide : ms::testing::ServiceFixture<ms::testing::FakeProviders> {
  FirstCallWatcher watcher;

  explicit Wide(std::unique_ptr<ms::Clock> c)
      : ServiceFixture(std::move(c), &watcher, ms::SchedulerOptions{/*workers=*/2, /*max_concurrency=*/1024}) {}

  std::string Create(const std::string& body) {
    ms::CreateStackInput in;
    in.stack_name = "wide";
    in.template_body = body;
    return CreateWith(in);
  }

  ms::StackRecord Stack(const std::string& id) {
    ms::StackRecord st;
    bool found = false;
    REQUIRE(ms::LoadStack(db.get(), id, &st, &found).ok());
    REQUIRE(found);
    return st;
  }

  std::vector<ms::StackEvent> Events(const std::string& id) {
    std::vector<ms::StackEvent> events;
    REQUIRE(ms::LoadEvents(db.get(), id, &events).ok());
    return events;
  }
};

int Count(const std::vector<ms::StackEvent>& events, const std::string& status, const std::string& reason) {
  int n = 0;
  for (const ms::StackEvent& e : events) n += e.status == status && e.reason == reason;
  return n;
}

}  // namespace

TEST_CASE("real time: a wide create sends its first calls before the last resource has started",
          "[stack][slices]") {
  Wide w(ms::NewRealClock());
  const std::string id = w.Create(WideTemplate(400));
  CHECK(w.Stack(id).status == ms::StackStatus::kCreateComplete);
  // The first slice (32 resources) is committed and its calls sent first.
  CHECK(w.watcher.started_at_first_call == 32);
  const std::vector<ms::StackEvent> events = w.Events(id);
  CHECK(events.size() == 400 * 3 + 2);
  CHECK(Count(events, "CREATE_IN_PROGRESS", "") == 400);  // the stack's own says "User Initiated"
  CHECK(Count(events, "CREATE_IN_PROGRESS", "Resource creation Initiated") == 400);
  CHECK(Count(events, "CREATE_COMPLETE", "") == 400 + 1);
  std::vector<ms::ResourceRecord> records;
  REQUIRE(ms::LoadResources(w.db.get(), id, &records).ok());
  CHECK(records.size() == 400);
  CHECK(w.providers.live().size() == 400);
}

TEST_CASE("virtual time: a wide create starts every resource before the first call", "[stack][slices]") {
  Wide w(ms::NewVirtualClock(1700000000000));
  const std::string id = w.Create(WideTemplate(400));
  CHECK(w.Stack(id).status == ms::StackStatus::kCreateComplete);
  CHECK(w.watcher.started_at_first_call == 400);
}

TEST_CASE("real time: a failure in the first slice rolls back every resource that started",
          "[stack][slices]") {
  Wide w(ms::NewRealClock());
  const std::string id = w.Create(WideTemplate(400, R"(, "CreateFails": "no capacity")"));
  CHECK(w.Stack(id).status == ms::StackStatus::kRollbackComplete);
  const std::vector<ms::StackEvent> events = w.Events(id);
  // Which resources started depends on when the failure arrives; every one
  // that did was rolled back (a failed or cancelled one too: nothing of it
  // may be left).
  std::set<std::string> started, deleted;
  for (const ms::StackEvent& e : events) {
    if (e.type != "Test::Fake::Thing") continue;
    if (e.status == "CREATE_IN_PROGRESS") started.insert(e.logical_id);
    if (e.status == "DELETE_COMPLETE") deleted.insert(e.logical_id);
  }
  CHECK(started.count("R0000") == 1);
  CHECK(Count(events, "CREATE_FAILED", "no capacity") == 1);
  CHECK(deleted == started);
  CHECK(w.providers.live().empty());  // nothing lost
}
