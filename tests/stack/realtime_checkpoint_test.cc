// Checkpoints in real time (OperationCore::CheckpointDue): completions that
// send no call share a deferred commit, which still reaches the store while
// other calls are running, not only when the operation ends.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "fake_providers.h"
#include "stack/stack_service.h"
#include "store/schema.h"
#include "store/stack_tables.h"

namespace {

bool HasEvent(ms::Database* db, const std::string& stack_id, const std::string& logical_id, const std::string& status) {
  std::vector<ms::StackEvent> events;
  REQUIRE(ms::LoadEvents(db, stack_id, &events).ok());
  for (const ms::StackEvent& e : events) {
    if (e.logical_id == logical_id && e.status == status) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("real time: a completion is in the store while a slower call still runs", "[stack][checkpoint]") {
  const auto dir = std::filesystem::temp_directory_path() / "moonstack-realtime-checkpoint-test";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "state.db").string();
  std::unique_ptr<ms::Database> db, reader;
  REQUIRE(ms::OpenStore(path, &db).ok());
  REQUIRE(ms::OpenStore(path, &reader).ok());  // another connection, as a DescribeStackEvents would use
  ms::World world;
  ms::testing::FakeProviders providers;
  auto clock = ms::NewRealClock();
  ms::OperationContext ctx;
  ctx.db = db.get();
  ctx.world = &world;
  ctx.providers = &providers;
  ctx.clock = clock.get();
  ctx.scheduler.workers = 2;  // Fast is not queued behind Slow
  ms::StackService service(ctx);

  ms::CreateStackInput in;
  in.stack_name = "rt";
  in.template_body = R"({"Resources": {
    "Slow": {"Type": "Test::Fake::Thing", "Properties": {"BlockMs": 1500}},
    "Fast": {"Type": "Test::Fake::Thing"}}})";
  std::string id;
  REQUIRE(service.StartCreate(in, &id).ok());
  auto run = std::async(std::launch::async, [&] { return service.Run(id); });

  // Fast completes at once; its commit is deferred at most 10 ms, and must
  // not wait for Slow's 1.5 s.
  const auto start = std::chrono::steady_clock::now();
  bool seen = false;
  while (!seen && std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1000)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    seen = HasEvent(reader.get(), id, "Fast", "CREATE_COMPLETE");
  }
  CHECK(seen);
  CHECK_FALSE(HasEvent(reader.get(), id, "Slow", "CREATE_COMPLETE"));  // still running

  REQUIRE(run.get().ok());
  CHECK(HasEvent(reader.get(), id, "Slow", "CREATE_COMPLETE"));
  CHECK(HasEvent(reader.get(), id, "rt", "CREATE_COMPLETE"));
  reader.reset();
  db.reset();
  std::filesystem::remove_all(dir);
}
