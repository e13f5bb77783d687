// The warm execution environments kept between invocations, as Lambda keeps
// them: idle ones per key (a function's ARN + its code and configuration,
// runner.cc's EnvironmentKey, so a new code or configuration version never
// reuses an old one), a few per key and a bounded number in all (the least
// recently used idle one goes when a new one needs the room), reaped after
// an idle time of wall clock, and all killed when the process exits
// (atexit; a process that dies otherwise closes their stdin, and they end).
// An environment in use belongs to its invocation, not to the pool.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "lambda/execution_environment.h"

namespace ms::lambda {

struct PoolLimits {
  size_t per_key = 4;   // idle environments kept per function version
  size_t total = 32;    // idle environments kept in all
  std::chrono::milliseconds idle{std::chrono::minutes(5)};  // reaped after this long unused
};

// An idle environment for `key` that is still running, or null (a cold start).
std::unique_ptr<ExecutionEnvironment> TakeEnvironment(const std::string& key);

// Back after a clean invocation, to be reused.
void ReturnEnvironment(const std::string& key, std::unique_ptr<ExecutionEnvironment> environment);

// Every idle environment killed (process exit; tests).
void ClearEnvironments();

size_t IdleEnvironmentCount();

// For tests: the bounds above (the defaults are PoolLimits{}).
void SetPoolLimits(const PoolLimits& limits);

}  // namespace ms::lambda
