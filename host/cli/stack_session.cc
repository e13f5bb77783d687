#include "cli/stack_session.h"

#include <algorithm>
#include <chrono>

#include "cli/io.h"
#include "cli/load_providers.h"
#include "store/schema.h"
#include "store/world_table.h"

namespace ms::cli {
namespace {

// The world record that remembers how far the virtual clock got.
constexpr const char* kClockKind = "moonstack";
constexpr const char* kClockId = "clock";

int64_t WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Status StackSession::Open(const SessionOptions& options, OperationObserver* observer) {
  MS_RETURN_IF_ERROR(OpenStore(StatePath(options.state), &db_));
  MS_RETURN_IF_ERROR(LoadWorld(db_.get(), &world_));
  MS_RETURN_IF_ERROR(LoadProviders(options.providers, &providers_, options.stub_unknown_types, &world_));
  if (options.time_scale <= 0) {
    int64_t start = WallMs();
    if (const WorldRecord* saved = world_.Find(kClockKind, kClockId)) {
      if (const Value* now = saved->data.find("now_ms")) start = std::max(start, now->as_integer().value_or(0));
    }
    clock_ = NewVirtualClock(start);
  } else if (options.time_scale == 1) {
    clock_ = NewRealClock();
  } else {
    clock_ = NewScaledClock(options.time_scale);
  }
  OperationContext ctx;
  ctx.db = db_.get();
  ctx.world = &world_;
  ctx.providers = providers_.get();
  ctx.clock = clock_.get();
  ctx.observer = observer;
  ctx.scheduler.max_concurrency = std::max(1, options.max_concurrency);
  ctx.region = options.region;
  service_ = std::make_unique<StackService>(ctx);
  return Status::OK();
}

Status StackSession::Close() {
  WorldRecord clock;
  clock.data = Value::MakeMap();
  clock.data.set("now_ms", Value::Integer(clock_->NowMs()));
  world_.Put(kClockKind, kClockId, std::move(clock));
  return SaveWorld(db_.get(), &world_);
}

}  // namespace ms::cli
