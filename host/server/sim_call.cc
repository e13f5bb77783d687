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

Status SimHost::Open(World* world, Clock* clock, const std::vector<std::string>& provider_dirs) {
  clock_ = clock;
  lua::ProviderPaths paths = lua::DefaultProviderPaths(cli::Home(), provider_dirs);
  lua::RuntimeOptions options;
  options.module_roots.push_back(paths.sdk_dir);
  for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
  Status s;
  rt_ = lua::Runtime::Create(options, &s);
  if (!rt_) return s;
  return lua::WorldBinding::Install(rt_.get(), world, &binding_);
}

Status SimHost::SaveEachCallTo(const std::string& state_path) {
  std::lock_guard<std::mutex> lock(mu_);
  return OpenStore(state_path, &db_);
}

SimOutcome SimHost::Call(const std::string& service, const std::string& action, const Value& params,
                         const std::string& region, const std::string& account) {
  std::lock_guard<std::mutex> lock(mu_);
  binding_->set_now_ms(clock_->NowMs());
  SimOutcome out = RunSimAction(*rt_, service, action, params, region, account);
  if (db_ != nullptr) {
    // A failed save keeps the changes for the next one (SaveWorld): the answer stands.
    Status saved = SaveWorld(db_.get(), binding_->world());
    if (!saved.ok()) std::cerr << "moonstack serve: saving the world after " << service << " " << action << ": "
                               << saved.message() << "\n";
  }
  return out;
}

}  // namespace ms::server
