// Clocks and the timestamp form.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "run/clock.h"

namespace {

int64_t WallMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

TEST_CASE("FormatTimestamp gives AWS's ISO-8601 UTC form", "[clock]") {
  CHECK(ms::FormatTimestamp(0) == "1970-01-01T00:00:00.000Z");
  CHECK(ms::FormatTimestamp(1795343287123) == "2026-11-22T10:28:07.123Z");
  // Milliseconds always take three digits.
  CHECK(ms::FormatTimestamp(5) == "1970-01-01T00:00:00.005Z");
  CHECK(ms::FormatTimestamp(40) == "1970-01-01T00:00:00.040Z");
  CHECK(ms::FormatTimestamp(951825600005) == "2000-02-29T12:00:00.005Z");  // divisible by 400: leap
  CHECK(ms::FormatTimestamp(1709251199999) == "2024-02-29T23:59:59.999Z");
  CHECK(ms::FormatTimestamp(1709251199999 + 1) == "2024-03-01T00:00:00.000Z");
  CHECK(ms::FormatTimestamp(4107542400040) == "2100-03-01T00:00:00.040Z");  // 2100: not leap
  CHECK(ms::FormatTimestamp(4107542400040 - 86400000) == "2100-02-28T00:00:00.040Z");
  // Before the epoch: floor, not truncation.
  CHECK(ms::FormatTimestamp(-1) == "1969-12-31T23:59:59.999Z");
  CHECK(ms::FormatTimestamp(-2203891200000) == "1900-03-01T00:00:00.000Z");
  CHECK(ms::FormatTimestamp(-2203891200001) == "1900-02-28T23:59:59.999Z");  // 1900: not leap
  CHECK(ms::FormatTimestamp(86400000LL * 365 - 1) == "1970-12-31T23:59:59.999Z");
}

TEST_CASE("the virtual clock jumps and never waits", "[clock]") {
  auto c = ms::NewVirtualClock(1795343287123);
  CHECK(c->is_virtual());
  CHECK(c->NowMs() == 1795343287123);
  c->AdvanceTo(1795343287123 + 3600 * 1000);  // an hour, instantly
  CHECK(c->NowMs() == 1795343287123 + 3600 * 1000);
  CHECK(ms::FormatTimestamp(c->NowMs()) == "2026-11-22T11:28:07.123Z");
  CHECK(c->RealSecondsUntil(c->NowMs() + 1000000) == 0);
  // Time never runs backwards: a timer due in the past is simply due.
  c->AdvanceTo(0);
  CHECK(c->NowMs() == 1795343287123 + 3600 * 1000);
}

TEST_CASE("the virtual clock is read safely from other threads", "[clock]") {
  auto c = ms::NewVirtualClock(0);
  int64_t last_seen = 0;
  bool monotonic = true;
  std::thread reader([&] {
    for (int i = 0; i < 100000; ++i) {
      int64_t now = c->NowMs();
      if (now < last_seen) monotonic = false;
      last_seen = now;
    }
  });
  for (int64_t t = 1; t <= 100000; ++t) c->AdvanceTo(t);
  reader.join();
  CHECK(monotonic);
  CHECK(c->NowMs() == 100000);
}

TEST_CASE("the real clock shows wall time", "[clock]") {
  auto c = ms::NewRealClock();
  CHECK_FALSE(c->is_virtual());
  int64_t before = WallMs();
  int64_t now = c->NowMs();
  CHECK(now >= before);
  c->AdvanceTo(now + 2);  // sleeps ~2 ms
  CHECK(c->NowMs() >= now + 2);
  CHECK(c->RealSecondsUntil(c->NowMs() - 1000) == 0);
  CHECK(c->RealSecondsUntil(c->NowMs() + 60000) > 0);
}

TEST_CASE("the scaled clock runs simulated time faster", "[clock]") {
  auto c = ms::NewScaledClock(0.001);  // 1 simulated second = 1 real ms
  CHECK_FALSE(c->is_virtual());
  int64_t start = c->NowMs();
  auto real_start = std::chrono::steady_clock::now();
  c->AdvanceTo(start + 10000);  // 10 simulated seconds
  double real_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - real_start).count();
  CHECK(c->NowMs() >= start + 10000);
  CHECK(real_s < 2.0);  // loose: proves it did not sleep 10 s
  // Waiting for a time 30 simulated seconds ahead takes at most ~30 ms.
  CHECK(c->RealSecondsUntil(c->NowMs() + 30000) <= 0.0301);
  CHECK(c->RealSecondsUntil(c->NowMs() - 1) == 0);
}
