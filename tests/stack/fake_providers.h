// A C++ ProviderRuntime for the stack-lifecycle tests: one type, Test::Fake::Thing,
// whose properties script what its hooks do, and a record of what "exists".
//
//   CreateSeconds: N   create answers in progress for N seconds first
//   CreateFails: "m"   create fails with reason m (after CreateSeconds)
//   DeleteFails: "m"   delete fails with reason m
//   Invalid: "m"       validation fails with m
//   BlockMs: N         create holds its worker for N real milliseconds
//   Forever: true      create answers "in progress, call again at once" forever
//   PhysicalId: "s"    create answers s as the physical ID instead
//   Repeat: N          CreateFails' reason and PhysicalId are s repeated N times
//   Log: "m"           every hook's answer carries the log line "<hook> m" (INFO)
// Any other property is accepted. Physical IDs are "<LogicalId>-<n>", n
// counting that logical ID's creates.
#pragma once

#include <map>
#include <memory>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "provider/provider.h"

namespace ms::testing {

class FakeProviders : public ProviderRuntime {
 public:
  FakeProviders() {
    schema_.type = "Test::Fake::Thing";
    schema_.source = "fake";
    schema_.accepts_undeclared_properties = true;
    schema_.accepts_any_attribute = true;
  }

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {"Test::Fake::Thing"}; }
  const TypeSchema* Schema(std::string_view type) const override { return type == "Test::Fake::Thing" ? &schema_ : nullptr; }

  // Physical IDs created and not deleted.
  std::set<std::string> live() const {
    std::lock_guard<std::mutex> l(mu_);
    return live_;
  }
  int calls() const {
    std::lock_guard<std::mutex> l(mu_);
    return calls_;
  }
  // The type's handler timeout (TypeSchema::timeout_seconds); set before use.
  void set_timeout_seconds(int s) { schema_.timeout_seconds = s; }

 private:
  friend class FakeSession;
  TypeSchema schema_;
  mutable std::mutex mu_;
  std::set<std::string> live_;
  std::map<std::string, int> next_id_;  // per logical ID: deterministic whatever the worker order
  int calls_ = 0;
};

class FakeSession : public ProviderSession {
 public:
  explicit FakeSession(FakeProviders* p) : p_(p) {}
  const TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }
  Status Validate(std::string_view, const HookContext&, const Value& props, Value* coerced) override {
    if (const Value* invalid = props.find("Invalid")) return Status::Validation(invalid->str());
    *coerced = props;
    return Status::OK();
  }
  Status DecideUpdate(std::string_view, std::string_view, const Value&, const Value&, const HookContext&,
                      UpdateBehavior* out) override {
    *out = UpdateBehavior::kNone;
    return Status::OK();
  }
  HookOutcome Call(const HookCall& call) override {
    HookOutcome o = Answer(call);
    if (const Value* log = call.properties.find("Log")) {
      ProviderLogLine line;
      line.message = std::string(HookName(call.hook)) + " " + log->str();
      o.log.push_back(std::move(line));
    }
    return o;
  }

 private:
  HookOutcome Answer(const HookCall& call) {
    if (const Value* block = call.properties.find("BlockMs"); block && call.hook == Hook::kCreate) {
      std::this_thread::sleep_for(std::chrono::milliseconds(block->as_integer().value_or(0)));
    }
    std::lock_guard<std::mutex> l(p_->mu_);
    ++p_->calls_;
    HookOutcome o;
    const Value& props = call.properties;
    if (call.hook == Hook::kCreate) {
      const int64_t seconds = props.find("CreateSeconds") ? props.find("CreateSeconds")->as_integer().value_or(0) : 0;
      int64_t waited = call.ctx.progress.is_map() && call.ctx.progress.find("waited")
                           ? call.ctx.progress.find("waited")->as_integer().value_or(0)
                           : 0;
      std::string id = call.ctx.progress.is_map() && call.ctx.progress.find("id")
                           ? call.ctx.progress.find("id")->str()
                           : call.ctx.logical_id + "-" + std::to_string(++p_->next_id_[call.ctx.logical_id]);
      if (waited == 0 && !props.find("CreateFails")) p_->live_.insert(id);
      if (props.find("Forever")) {
        o.kind = HookOutcome::Kind::kInProgress;
        o.after_seconds = 0;
        o.physical_id = id;
        o.progress = Value::MakeMap();
        o.progress.set("waited", Value::Integer(1));
        o.progress.set("id", Value::String(id));
        return o;
      }
      if (waited < seconds) {
        o.kind = HookOutcome::Kind::kInProgress;
        o.after_seconds = 10;
        o.physical_id = id;
        o.progress = Value::MakeMap();
        o.progress.set("waited", Value::Integer(waited + 10));
        o.progress.set("id", Value::String(id));
        return o;
      }
      const int64_t repeat = props.find("Repeat") ? props.find("Repeat")->as_integer().value_or(1) : 1;
      auto repeated = [repeat](const std::string& s) {
        std::string out;
        out.reserve(s.size() * static_cast<size_t>(repeat));
        for (int64_t i = 0; i < repeat; ++i) out += s;
        return out;
      };
      if (const Value* fails = props.find("CreateFails")) {
        p_->live_.erase(id);
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = repeated(fails->str());
        return o;
      }
      o.physical_id = props.find("PhysicalId") ? repeated(props.find("PhysicalId")->str()) : id;
      o.attributes = Value::MakeMap();
      o.attributes.set("Arn", Value::String("arn:test:" + id));
      return o;
    }
    if (call.hook == Hook::kDelete) {
      if (const Value* fails = props.find("DeleteFails")) {
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = fails->str();
        return o;
      }
      p_->live_.erase(call.physical_id);
      return o;
    }
    o.kind = HookOutcome::Kind::kFailed;
    o.reason = "fake: unsupported hook";
    return o;
  }

  FakeProviders* p_;
};

inline Status FakeProviders::NewSession(std::unique_ptr<ProviderSession>* out) {
  *out = std::make_unique<FakeSession>(this);
  return Status::OK();
}

}  // namespace ms::testing
