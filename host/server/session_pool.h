// SessionPool: a ProviderRuntime that keeps provider sessions for the next
// operation. Each operation's Scheduler takes a session per worker thread and
// drops them when the operation ends; making one loads every provider into a
// new lua_State (milliseconds each), which for a short operation is much of
// its time. The pool keeps dropped sessions (up to `keep`) and lends them to
// the next operation's workers. A session is still used by one thread at a
// time: it is either idle in the pool or lent to one worker.
//
// A scheduler worker (NewHookSession) gets the idle session that has run
// the most hooks, anyone else (an operation's own checks, NewSession) the
// one that has run the fewest: a session loads a type's provider on its
// first hook, so the session that ran the last operation's hooks is the one
// the next operation's worker wants. (Lent last-in-first-out, the two
// sessions of an operation swapped roles, and the worker of every other
// operation loaded its providers again: 25 ms of a 300-queue create.)
//
// The lent session forwards every ProviderSession method (a method added to
// ProviderSession must be forwarded in session_pool.cc too).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "provider/provider.h"

namespace ms::server {

class SessionPool : public ProviderRuntime {
 public:
  // `inner` outlives the pool and every session lent.
  SessionPool(ProviderRuntime* inner, size_t keep) : inner_(inner), keep_(keep) {}

  // Makes `n` sessions ahead, so the first operations find them ready.
  Status Warm(size_t n);

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  Status NewHookSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return inner_->Types(); }
  const TypeSchema* Schema(std::string_view type) const override { return inner_->Schema(type); }
  void ReloadChanged() override { inner_->ReloadChanged(); }

 private:
  class Lent;
  struct Idle {
    std::unique_ptr<ProviderSession> session;
    uint64_t calls = 0;  // hooks it has run
  };
  void GiveBack(Idle idle);
  Status Lend(bool for_hooks, std::unique_ptr<ProviderSession>* out);

  ProviderRuntime* inner_;
  size_t keep_;
  std::mutex mu_;
  std::vector<Idle> idle_;  // guarded by mu_
};

}  // namespace ms::server
