// Clocks: what time it is for a workflow, and how waiting works.
//
//   RealClock     wall time; waiting sleeps.
//   ScaledClock   wall time since start multiplied by 1/scale: with scale 0.01 a
//                 30 s provider wait takes 0.3 s, and timestamps show 30 s.
//   VirtualClock  no waiting at all: AdvanceTo jumps. Timestamps still show
//                 the simulated durations. Deterministic: tests use it.
//
// Times are milliseconds since the Unix epoch (what event timestamps show).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ms {

class Clock {
 public:
  virtual ~Clock() = default;
  // The current time in ms since the epoch. Thread-safe.
  virtual int64_t NowMs() const = 0;
  // Blocks until NowMs() >= t (virtual: sets the time to t and returns).
  // Called from schedulers' threads (several at once in `moonstack serve`).
  virtual void AdvanceTo(int64_t t) = 0;
  // True for a clock that never waits (the scheduler then runs the DAG in
  // deterministic lock-step, see scheduler.h).
  virtual bool is_virtual() const = 0;
  // Real seconds until NowMs() >= t (0 when it already is, and always 0 for a
  // virtual clock): how long the scheduler may wait on a condition variable
  // for a timer due at t while still waking up for completed calls.
  virtual double RealSecondsUntil(int64_t t) const = 0;
};

std::unique_ptr<Clock> NewRealClock();
// scale > 0: 1 simulated second takes `scale` real seconds.
std::unique_ptr<Clock> NewScaledClock(double scale);
// Starts at start_ms (e.g. a fixed instant in tests, the wall time otherwise).
std::unique_ptr<Clock> NewVirtualClock(int64_t start_ms);

// "2026-11-22T10:28:07.123Z": the ISO-8601 UTC form AWS shows timestamps in.
std::string FormatTimestamp(int64_t ms);

}  // namespace ms
