// Running one action of the simulated cloud (providers/sim/): the one code
// path behind `moonstack world call` and the AWS APIs `moonstack serve`
// answers (aws_api.h), so both see and change the world the same way.
#pragma once

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

// A Lua runtime over a server's world, one request at a time.
class SimHost {
 public:
  Status Open(World* world, Clock* clock, const std::vector<std::string>& provider_dirs);
  // From now on each call's changes are saved to the state file before it
  // answers (a client told its object is stored finds it after a crash,
  // and the blobs a call gave or took from a record change owner at once:
  // store/blob_store.h).
  Status SaveEachCallTo(const std::string& state_path);
  SimOutcome Call(const std::string& service, const std::string& action, const Value& params,
                  const std::string& region, const std::string& account = "");

 private:
  std::mutex mu_;
  Clock* clock_ = nullptr;
  std::unique_ptr<lua::Runtime> rt_;
  std::unique_ptr<lua::WorldBinding> binding_;
  std::unique_ptr<Database> db_;  // SaveEachCallTo's
};

}  // namespace ms::server
