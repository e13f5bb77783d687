// What the stack tests' harnesses share (lifecycle_test.cc,
// resource_signal_test.cc, update_harness.h): a StackService over an
// in-memory store, a world and a virtual clock, with the fake providers
// `Providers`, and create-stack run to the end.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "stack/stack_service.h"
#include "store/schema.h"

namespace ms::testing {

template <typename Providers>
struct ServiceFixture {
  std::unique_ptr<ms::Database> db;
  ms::World world;
  Providers providers;
  std::unique_ptr<ms::Clock> clock;
  std::unique_ptr<ms::StackService> service;

  // `observer` may be a member of the derived harness (only its address is kept).
  explicit ServiceFixture(int64_t start_ms = 1700000000000, ms::OperationObserver* observer = nullptr)
      : ServiceFixture(ms::NewVirtualClock(start_ms), observer, ms::SchedulerOptions()) {}
  // Any clock (a real one: the real-time tests) and scheduler.
  ServiceFixture(std::unique_ptr<ms::Clock> c, ms::OperationObserver* observer, ms::SchedulerOptions scheduler)
      : clock(std::move(c)) {
    REQUIRE(ms::OpenStore(":memory:", &db).ok());
    ms::OperationContext ctx;
    ctx.db = db.get();
    ctx.world = &world;
    ctx.providers = &providers;
    ctx.clock = clock.get();
    ctx.observer = observer;
    ctx.scheduler = scheduler;
    service = std::make_unique<ms::StackService>(ctx);
  }

  // create-stack, run to the end (whatever status that is); the stack ID.
  std::string CreateWith(const ms::CreateStackInput& in) {
    std::string id;
    ms::Status s = service->StartCreate(in, &id);
    INFO(s.message());
    REQUIRE(s.ok());
    s = service->Run(id);
    INFO(s.message());
    REQUIRE(s.ok());
    return id;
  }
};

}  // namespace ms::testing
