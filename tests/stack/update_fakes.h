// A C++ ProviderRuntime for the update tests (a copy of fake_providers.h with
// update behaviours): one type, Test::Upd::Thing, and Test::Upd::Other (the
// same, for type changes), and Test::Upd::Partial (the same, but its failed
// updates may be half-applied: leaves_partial_updates).
//
// Declared properties and their update behaviour (any other property is an
// update without interruption, as undeclared ones are):
//   ImageId, CidrBlock, VpcId, SubnetId, Path   replace
//   InstanceType                                 some
//   Frozen                                       unsupported
// Scripting properties (as fake_providers.h): CreateSeconds, CreateFails,
// CreateFailsLeaving (a create that fails after it made its resource: the
// resource stays until deleted), DeleteFails (every delete of it fails), UpdateFails, UpdateSeconds (update and
// rollback hooks: the rollback hook gets the properties to go back to).
// Physical IDs are "<LogicalId>-<n>", n counting that logical ID's creates.
// SetMissing names AWS-specific parameter values that do not exist.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "provider/provider.h"

namespace ms::testing {

class UpdFakeProviders : public ProviderRuntime {
 public:
  UpdFakeProviders() {
    for (const char* type : {"Test::Upd::Thing", "Test::Upd::Other", "Test::Upd::Partial"}) {
      TypeSchema s;
      s.type = type;
      s.source = "upd-fake";
      s.accepts_undeclared_properties = true;
      s.accepts_any_attribute = true;
      auto prop = [&s](const char* name, UpdateBehavior b) {
        PropertySchema p;
        p.name = name;
        p.type = "json";
        p.update = b;
        s.properties.push_back(p);
      };
      for (const char* n : {"ImageId", "CidrBlock", "VpcId", "SubnetId", "Path"}) prop(n, UpdateBehavior::kReplace);
      prop("InstanceType", UpdateBehavior::kSome);
      prop("Frozen", UpdateBehavior::kUnsupported);
      s.leaves_partial_updates = std::string(type) == "Test::Upd::Partial";
      schemas_[type] = s;
    }
  }

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override {
    return {"Test::Upd::Other", "Test::Upd::Partial", "Test::Upd::Thing"};
  }
  const TypeSchema* Schema(std::string_view type) const override {
    auto it = schemas_.find(std::string(type));
    return it == schemas_.end() ? nullptr : &it->second;
  }

  // Physical IDs created and not deleted.
  std::set<std::string> live() const {
    std::lock_guard<std::mutex> l(mu_);
    return live_;
  }
  // AWS-specific parameter values (AWS::EC2::Image::Id, ...) that do not
  // exist in the world: ValueExists answers false for them.
  void SetMissing(std::set<std::string> values) {
    std::lock_guard<std::mutex> l(mu_);
    missing_ = std::move(values);
  }
  // The resource was fixed by hand: its UpdateFails no longer applies.
  void Fix(const std::string& physical_id) {
    std::lock_guard<std::mutex> l(mu_);
    fixed_.insert(physical_id);
  }
  // "hook physical_id policy=<UpdatePolicy> old=<old UpdatePolicy>" per
  // update or rollback call that had either.
  std::vector<std::string> policy_log() const {
    std::lock_guard<std::mutex> l(mu_);
    return policy_log_;
  }
  // "hook physical_id [changed,...]" per call, in call order.
  std::vector<std::string> log() const {
    std::lock_guard<std::mutex> l(mu_);
    return log_;
  }

 private:
  friend class UpdFakeSession;
  std::map<std::string, TypeSchema> schemas_;
  mutable std::mutex mu_;
  std::set<std::string> live_;
  std::map<std::string, int> next_id_;
  std::vector<std::string> log_;
  std::set<std::string> missing_;
  std::set<std::string> fixed_;
  std::vector<std::string> policy_log_;
};

class UpdFakeSession : public ProviderSession {
 public:
  explicit UpdFakeSession(UpdFakeProviders* p) : p_(p) {}
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
  bool ValueExists(std::string_view, std::string_view value, std::string_view, std::string_view) override {
    std::lock_guard<std::mutex> l(p_->mu_);
    return p_->missing_.count(std::string(value)) == 0;
  }
  HookOutcome Call(const HookCall& call) override {
    std::lock_guard<std::mutex> l(p_->mu_);
    HookOutcome o;
    const Value& props = call.properties;
    auto waited = [&call]() -> int64_t {
      return call.ctx.progress.is_map() && call.ctx.progress.find("waited")
                 ? call.ctx.progress.find("waited")->as_integer().value_or(0)
                 : 0;
    };
    auto seconds = [&props](const char* name) -> int64_t {
      return props.find(name) ? props.find(name)->as_integer().value_or(0) : 0;
    };
    if (call.hook == Hook::kCreate) {
      std::string id = call.ctx.progress.is_map() && call.ctx.progress.find("id")
                           ? call.ctx.progress.find("id")->str()
                           : call.ctx.logical_id + "-" + std::to_string(++p_->next_id_[call.ctx.logical_id]);
      if (waited() == 0) p_->log_.push_back("create " + id);
      if (waited() == 0 && !props.find("CreateFails")) p_->live_.insert(id);
      if (waited() < seconds("CreateSeconds")) {
        o.kind = HookOutcome::Kind::kInProgress;
        o.after_seconds = 10;
        o.physical_id = id;
        o.progress = Value::MakeMap();
        o.progress.set("waited", Value::Integer(waited() + 10));
        o.progress.set("id", Value::String(id));
        return o;
      }
      if (const Value* fails = props.find("CreateFails")) {
        p_->live_.erase(id);
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = fails->str();
        return o;
      }
      if (const Value* fails = props.find("CreateFailsLeaving")) {
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = fails->str();
        return o;
      }
      o.physical_id = id;
      o.attributes = Value::MakeMap();
      o.attributes.set("Arn", Value::String("arn:test:" + id));
      return o;
    }
    if (call.hook == Hook::kUpdate || call.hook == Hook::kRollback) {
      if (waited() == 0) {
        std::string changed;
        for (const std::string& c : call.changed) changed += (changed.empty() ? "" : ",") + c;
        p_->log_.push_back(std::string(HookName(call.hook)) + " " + call.physical_id + " [" + changed + "]");
        if (!call.ctx.update_policy.is_null() || !call.ctx.old_update_policy.is_null()) {
          p_->policy_log_.push_back(std::string(HookName(call.hook)) + " " + call.physical_id +
                                    " policy=" + call.ctx.update_policy.ToJson() +
                                    " old=" + call.ctx.old_update_policy.ToJson());
        }
      }
      if (waited() < seconds("UpdateSeconds")) {
        o.kind = HookOutcome::Kind::kInProgress;
        o.after_seconds = 10;
        o.progress = Value::MakeMap();
        o.progress.set("waited", Value::Integer(waited() + 10));
        return o;
      }
      const Value* fails = props.find("UpdateFails");
      if (fails != nullptr && !Fixed(call.physical_id)) {
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = fails->str();
        return o;
      }
      return o;
    }
    if (call.hook == Hook::kDelete) {
      p_->log_.push_back("delete " + call.physical_id);
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

 private:
  bool Fixed(const std::string& physical_id) const {  // Call holds p_->mu_
    return p_->fixed_.count(physical_id) > 0;
  }

  UpdFakeProviders* p_;
};

inline Status UpdFakeProviders::NewSession(std::unique_ptr<ProviderSession>* out) {
  *out = std::make_unique<UpdFakeSession>(this);
  return Status::OK();
}

}  // namespace ms::testing
