// Real, scaled and virtual clocks, and the ISO-8601 timestamp form.
#include "run/clock.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace ms {
namespace {

int64_t WallMs() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

class RealClock : public Clock {
 public:
  int64_t NowMs() const override { return WallMs(); }

  void AdvanceTo(int64_t t) override {
    // Sleep can end early (signals) or the wall clock can be stepped: loop
    // until the promise NowMs() >= t holds.
    for (int64_t now = NowMs(); now < t; now = NowMs()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(t - now));
    }
  }

  bool is_virtual() const override { return false; }

  double RealSecondsUntil(int64_t t) const override {
    return std::max<int64_t>(0, t - NowMs()) / 1000.0;
  }
};

// Simulated time = start + (steady time elapsed) / scale. The steady clock
// keeps simulated time monotonic even when the wall clock is stepped.
class ScaledClock : public Clock {
 public:
  explicit ScaledClock(double scale)
      : scale_(scale > 0 ? scale : 1.0), start_ms_(WallMs()), start_real_(std::chrono::steady_clock::now()) {}

  int64_t NowMs() const override {
    double real_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_real_).count();
    return start_ms_ + static_cast<int64_t>(real_ms / scale_);
  }

  void AdvanceTo(int64_t t) override {
    // Sleep until the steady instant where simulated time reaches t; the loop
    // absorbs rounding (NowMs truncates) and early wake-ups.
    while (NowMs() < t) std::this_thread::sleep_until(RealInstant(t));
  }

  bool is_virtual() const override { return false; }

  double RealSecondsUntil(int64_t t) const override {
    if (NowMs() >= t) return 0;
    double s = std::chrono::duration<double>(RealInstant(t) - std::chrono::steady_clock::now()).count();
    // Truncation in NowMs can leave t a hair in the future after the instant
    // has passed: ask for a microsecond rather than 0, so the caller waits
    // instead of spinning.
    return std::max(s, 1e-6);
  }

 private:
  // The steady-clock instant at which NowMs() reaches t.
  std::chrono::steady_clock::time_point RealInstant(int64_t t) const {
    // +1 ns: NowMs truncates, so aim just past the boundary.
    auto real = std::chrono::duration<double, std::milli>((t - start_ms_) * scale_);
    return start_real_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(real) +
           std::chrono::nanoseconds(1);
  }

  double scale_;
  int64_t start_ms_;
  std::chrono::steady_clock::time_point start_real_;
};

class VirtualClock : public Clock {
 public:
  explicit VirtualClock(int64_t start_ms) : now_(start_ms) {}

  int64_t NowMs() const override { return now_.load(std::memory_order_acquire); }

  // Never goes backwards: a timer due in the past is simply due. A
  // compare-and-swap, because the server's operation threads share one clock
  // and each scheduler advances it.
  void AdvanceTo(int64_t t) override {
    int64_t now = now_.load(std::memory_order_relaxed);
    while (t > now && !now_.compare_exchange_weak(now, t, std::memory_order_release, std::memory_order_relaxed)) {
    }
  }

  bool is_virtual() const override { return true; }

  double RealSecondsUntil(int64_t) const override { return 0; }

 private:
  std::atomic<int64_t> now_;
};

// Days since 1970-01-01 -> proleptic Gregorian y/m/d (Howard Hinnant's
// civil_from_days): pure arithmetic, so no gmtime/TZ/locale involvement.
void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);                // [0, 146096]
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // [0, 365]
  const unsigned mp = (5 * doy + 2) / 153;                                     // [0, 11], March-based
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2 ? 1 : 0);
}

// Floor division/modulo: times before 1970 still give a valid date and time.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

std::unique_ptr<Clock> NewRealClock() { return std::make_unique<RealClock>(); }
std::unique_ptr<Clock> NewScaledClock(double scale) { return std::make_unique<ScaledClock>(scale); }
std::unique_ptr<Clock> NewVirtualClock(int64_t start_ms) { return std::make_unique<VirtualClock>(start_ms); }

std::string FormatTimestamp(int64_t ms) {
  const int64_t secs = FloorDiv(ms, 1000);
  const int64_t millis = ms - secs * 1000;
  const int64_t days = FloorDiv(secs, 86400);
  const int64_t sod = secs - days * 86400;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<long long>(y), m, d,
                static_cast<int>(sod / 3600), static_cast<int>(sod / 60 % 60), static_cast<int>(sod % 60),
                static_cast<int>(millis));
  return buf;
}

}  // namespace ms
