// A C++ ProviderRuntime for the property-based lifecycle test (property_test.cc):
// one type, Test::Prop::Thing, whose properties script what its hooks do, and
// a record of which physical resources are alive.
//
// Declared properties and their update behaviour (anything else is an update
// without interruption, as undeclared properties are):
//   Rep, RepRef     replace       (RepRef: a list of Refs to other resources)
//   Some, SomeRef   some interruptions
// Scripting properties (the failure schedule is decided by the generator and
// written into the template, so a run is a function of the template alone):
//   CreateSeconds: N     create answers in progress for N seconds first
//   CreateFails: "m"     create fails with m (after CreateSeconds); nothing is made
//   UpdateSeconds: N     update / rollback answer in progress for N seconds first
//   UpdateFails: "m"     the update hook fails with m (nothing changed)
//   RollbackFails: "m"   the rollback hook fails with m (it gets the properties
//                        to go back to, so this sits in the earlier template)
//   DeleteFailsTimes: N  the first N deletes of each physical resource fail
// Physical IDs are "<LogicalId>-<n>", n counting that logical ID's creates.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "provider/provider.h"

namespace ms::testing {

class PropFakeProviders : public ProviderRuntime {
 public:
  static constexpr const char* kType = "Test::Prop::Thing";

  PropFakeProviders() {
    schema_.type = kType;
    schema_.source = "prop-fake";
    schema_.accepts_undeclared_properties = true;
    schema_.accepts_any_attribute = true;
    auto prop = [this](const char* name, UpdateBehavior b) {
      PropertySchema p;
      p.name = name;
      p.type = "json";
      p.update = b;
      schema_.properties.push_back(p);
    };
    prop("Rep", UpdateBehavior::kReplace);
    prop("RepRef", UpdateBehavior::kReplace);
    prop("Some", UpdateBehavior::kSome);
    prop("SomeRef", UpdateBehavior::kSome);
  }

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {kType}; }
  const TypeSchema* Schema(std::string_view type) const override { return type == kType ? &schema_ : nullptr; }

  // Physical IDs created and not deleted.
  std::set<std::string> live() const {
    std::lock_guard<std::mutex> l(mu_);
    return live_;
  }
  // "hook physical_id" per call (first call of each hook only), in call order.
  std::vector<std::string> log() const {
    std::lock_guard<std::mutex> l(mu_);
    return log_;
  }

 private:
  friend class PropFakeSession;
  TypeSchema schema_;
  mutable std::mutex mu_;
  std::set<std::string> live_;
  std::map<std::string, int> next_id_;        // per logical ID
  std::map<std::string, int> delete_failed_;  // per physical ID: deletes that failed so far
  std::vector<std::string> log_;
};

class PropFakeSession : public ProviderSession {
 public:
  explicit PropFakeSession(PropFakeProviders* p) : p_(p) {}
  const TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }
  Status Validate(std::string_view, const HookContext&, const Value& props, Value* coerced) override {
    *coerced = props;
    return Status::OK();
  }
  Status DecideUpdate(std::string_view, std::string_view, const Value&, const Value&, const HookContext&,
                      UpdateBehavior* out) override {
    *out = UpdateBehavior::kNone;  // the schema's per-property behaviours decide
    return Status::OK();
  }

  HookOutcome Call(const HookCall& call) override {
    std::lock_guard<std::mutex> l(p_->mu_);
    HookOutcome o;
    const Value& props = call.properties;
    const int64_t waited = call.ctx.progress.is_map() && call.ctx.progress.find("waited")
                               ? call.ctx.progress.find("waited")->as_integer().value_or(0)
                               : 0;
    auto integer = [&props](const char* name) -> int64_t {
      return props.find(name) ? props.find(name)->as_integer().value_or(0) : 0;
    };
    auto in_progress = [&o, waited](const std::string& id) {
      o.kind = HookOutcome::Kind::kInProgress;
      o.after_seconds = 10;
      o.physical_id = id;
      o.progress = Value::MakeMap();
      o.progress.set("waited", Value::Integer(waited + 10));
      if (!id.empty()) o.progress.set("id", Value::String(id));
    };
    switch (call.hook) {
      case Hook::kCreate: {
        const std::string id = call.ctx.progress.is_map() && call.ctx.progress.find("id")
                                   ? call.ctx.progress.find("id")->str()
                                   : call.ctx.logical_id + "-" + std::to_string(++p_->next_id_[call.ctx.logical_id]);
        if (waited == 0) p_->log_.push_back("create " + id);
        if (waited == 0 && !props.find("CreateFails")) p_->live_.insert(id);
        if (waited < integer("CreateSeconds")) {
          // A failing create has made nothing: no ID to hand back.
          in_progress(props.find("CreateFails") ? std::string() : id);
          if (props.find("CreateFails")) o.progress.set("id", Value::String(id));
          return o;
        }
        if (const Value* fails = props.find("CreateFails")) {
          o.kind = HookOutcome::Kind::kFailed;
          o.reason = fails->str();
          return o;
        }
        o.physical_id = id;
        o.attributes = Value::MakeMap();
        o.attributes.set("Arn", Value::String("arn:test:" + id));
        return o;
      }
      case Hook::kUpdate:
      case Hook::kRollback: {
        if (waited == 0) p_->log_.push_back(std::string(HookName(call.hook)) + " " + call.physical_id);
        if (waited < integer("UpdateSeconds")) {
          in_progress("");
          return o;
        }
        const Value* fails = props.find(call.hook == Hook::kUpdate ? "UpdateFails" : "RollbackFails");
        if (fails != nullptr) {
          o.kind = HookOutcome::Kind::kFailed;
          o.reason = fails->str();
          return o;
        }
        o.attributes = Value::MakeMap();
        o.attributes.set("Arn", Value::String("arn:test:" + call.physical_id));
        return o;
      }
      case Hook::kDelete: {
        p_->log_.push_back("delete " + call.physical_id);
        if (p_->delete_failed_[call.physical_id] < integer("DeleteFailsTimes")) {
          ++p_->delete_failed_[call.physical_id];
          o.kind = HookOutcome::Kind::kFailed;
          o.reason = "resource " + call.physical_id + " has a dependent object";
          return o;
        }
        p_->live_.erase(call.physical_id);
        return o;
      }
      default:
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = "fake: unsupported hook";
        return o;
    }
  }

 private:
  PropFakeProviders* p_;
};

inline Status PropFakeProviders::NewSession(std::unique_ptr<ProviderSession>* out) {
  *out = std::make_unique<PropFakeSession>(this);
  return Status::OK();
}

}  // namespace ms::testing
