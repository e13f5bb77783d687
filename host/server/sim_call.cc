#include "server/sim_call.h"

#include <iostream>

#include "cli/io.h"
#include "lua/provider_host.h"
#include "server/aws_shapes.h"
#include "server/service_models.h"
#include "store/schema.h"
#include "store/world_table.h"

namespace ms::server {

SimOutcome RunSimAction(lua::Runtime& rt, const std::string& service, const std::string& action,
                        const Value& params, const std::string& region, const std::string& account) {
  SimOutcome out;
  lua::CallResult sim = rt.Require("sim");
  if (!sim.ok()) {
    out.message = sim.error->message;
    return out;
  }
  Value opts = Value::MakeMap();
  if (!region.empty()) opts.set("region", Value::String(region));  // else the sim's default
  if (!account.empty()) opts.set("account", Value::String(account));
  lua::CallResult r = rt.CallField(sim.refs[0], "call", {Value::String(service), Value::String(action), params, opts});
  if (!r.ok()) {
    out.code = r.error->code;
    out.message = r.error->message;
    return out;
  }
  out.ok = true;
  out.result = r.value().is_null() ? Value::MakeMap() : r.value();
  return out;
}

Value ShapedSimResult(const std::string& service, const std::string& action, const Value& result) {
  const ServiceModel* model = ServiceModels::Get().Find(service);
  const ModelJson* op = model != nullptr ? model->Operation(action) : nullptr;
  if (op == nullptr) return result;
  auto output = op->find("output");  // the output shape's name
  if (output == op->end() || !output->is_string()) return result;
  const ModelJson* shape = model->Shape(output->get<std::string>());
  return shape != nullptr ? ListsByShape(*model, *shape, result) : result;
}

struct SimHost::Lane {
  std::unique_ptr<lua::Runtime> rt;
  std::unique_ptr<lua::WorldBinding> binding;
};

SimHost::SimHost() = default;
SimHost::~SimHost() = default;

Status SimHost::NewLane(std::unique_ptr<Lane>* out) {
  lua::ProviderPaths paths = lua::DefaultProviderPaths(cli::Home(), provider_dirs_);
  lua::RuntimeOptions options;
  options.module_roots.push_back(paths.sdk_dir);
  for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
  auto lane = std::make_unique<Lane>();
  Status s;
  lane->rt = lua::Runtime::Create(options, &s);
  if (!lane->rt) return s;
  MS_RETURN_IF_ERROR(lua::WorldBinding::Install(lane->rt.get(), world_, &lane->binding));
  *out = std::move(lane);
  return Status::OK();
}

Status SimHost::Open(World* world, Clock* clock, const std::vector<std::string>& provider_dirs) {
  world_ = world;
  clock_ = clock;
  provider_dirs_ = provider_dirs;
  std::unique_ptr<Lane> first;
  MS_RETURN_IF_ERROR(NewLane(&first));
  std::lock_guard<std::mutex> lock(mu_);
  lanes_ = 1;
  free_.push_back(std::move(first));
  return Status::OK();
}

std::unique_ptr<SimHost::Lane> SimHost::TakeLane(Status* status) {
  std::unique_lock<std::mutex> lock(mu_);
  lane_freed_.wait(lock, [this] { return !free_.empty() || lanes_ < kMaxRuntimes; });
  if (!free_.empty()) {
    std::unique_ptr<Lane> lane = std::move(free_.back());
    free_.pop_back();
    return lane;
  }
  ++lanes_;  // counted before it is made: another request may not make a 17th meanwhile
  lock.unlock();
  std::unique_ptr<Lane> lane;
  *status = NewLane(&lane);
  if (!status->ok()) {
    lock.lock();
    --lanes_;
    lane_freed_.notify_one();
  }
  return lane;
}

void SimHost::GiveBack(std::unique_ptr<Lane> lane) {
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(std::move(lane));
  lane_freed_.notify_one();
}

Status SimHost::SaveEachCallTo(const std::string& state_path) {
  std::lock_guard<std::mutex> lock(save_mu_);
  return OpenStore(state_path, &db_);
}

SimOutcome SimHost::Call(const std::string& service, const std::string& action, const Value& params,
                         const std::string& region, const std::string& account) {
  Status made;
  std::unique_ptr<Lane> lane = TakeLane(&made);
  if (!lane) {
    SimOutcome failed;
    failed.message = "moonstack serve could not start a runtime for " + service + " " + action + ": " + made.message();
    return failed;
  }
  lane->binding->set_now_ms(clock_->NowMs());
  SimOutcome out = RunSimAction(*lane->rt, service, action, params, region, account);
  GiveBack(std::move(lane));
  std::lock_guard<std::mutex> lock(save_mu_);
  if (db_ != nullptr) {
    // A failed save keeps the changes for the next one (SaveWorld): the answer
    // stands. Another call's save may have taken this one's changes: it
    // ended before this one got save_mu_, so they are saved either way.
    Status saved = SaveWorld(db_.get(), world_);
    if (!saved.ok()) std::cerr << "moonstack serve: saving the world after " << service << " " << action << ": "
                               << saved.message() << "\n";
  }
  return out;
}

}  // namespace ms::server
