// Running one action of the simulated cloud (providers/sim/): the one code
// path behind `moonstack world call` and the AWS APIs `moonstack serve`
// answers (aws_api.h), so both see and change the world the same way.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "run/clock.h"
#include "store/database.h"
#include "template/value.h"
#include "world/world.h"

namespace ms::server {

struct SimOutcome {
  bool ok = false;
  Value result;              // the action's answer (AWS's response shape)
  std::string code, message;  // AWS's error code and message when !ok ("" code: not an AWS error)
};

// sim.call(service, action, params, {region=region}) in `rt` ("" region: the sim's default), whose
// `moonstack.world` is the world to act on; the binding's clock is the caller's.
SimOutcome RunSimAction(lua::Runtime& rt, const std::string& service, const std::string& action,
                        const Value& params, const std::string& region, const std::string& account = "");

// The answer of `service`'s `action` as AWS's JSON has it: its lists as
// lists (aws_shapes.h ListsByShape) when the service's model knows the
// action, else `result` unchanged. For the JSON that `world call` prints.
Value ShapedSimResult(const std::string& service, const std::string& action, const Value& result);

// Lua runtimes over a server's world, running its requests' actions. A
// request takes a runtime of its own for its action, so requests run at
// once: a Lambda function that Invoke (or a function URL) is running calls
// the server's APIs from its process, and those calls must not wait for
// the Invoke to end (they did, until the function timed out). The world
// keeps the actions atomic (world.atomic); a runtime is made when every
// one is busy, up to kMaxRuntimes, then a request waits for one.
class SimHost {
 public:
  static constexpr size_t kMaxRuntimes = 16;

  SimHost();
  ~SimHost();

  // Makes the first runtime (a provider directory that does not load fails here).
  Status Open(World* world, Clock* clock, const std::vector<std::string>& provider_dirs);
  // From now on each call's changes are saved to the state file before it
  // answers (a client told its object is stored finds it after a crash,
  // and the blobs a call gave or took from a record change owner at once:
  // store/blob_store.h).
  Status SaveEachCallTo(const std::string& state_path);
  SimOutcome Call(const std::string& service, const std::string& action, const Value& params,
                  const std::string& region, const std::string& account = "");

 private:
  struct Lane;  // one runtime and its world binding
  Status NewLane(std::unique_ptr<Lane>* out);
  std::unique_ptr<Lane> TakeLane(Status* status);
  void GiveBack(std::unique_ptr<Lane> lane);

  World* world_ = nullptr;
  Clock* clock_ = nullptr;
  std::vector<std::string> provider_dirs_;
  std::mutex mu_;  // guards the lanes
  std::condition_variable lane_freed_;
  std::vector<std::unique_ptr<Lane>> free_;
  size_t lanes_ = 0;  // made, free or busy
  std::mutex save_mu_;  // one SaveWorld at a time
  std::unique_ptr<Database> db_;  // SaveEachCallTo's
};

}  // namespace ms::server
