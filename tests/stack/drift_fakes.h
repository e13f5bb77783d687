// A C++ ProviderRuntime for the drift tests: Test::Drift::Thing keeps each
// resource's properties in `actual` (what its read hook reports; a test edits
// it to make an out-of-band change, or erases it to delete the resource: its
// read then answers NotFound); Test::Drift::Opaque's read answers no
// properties, as the Lua host does for a type without a read hook. A Thing with ReadFails: "m" fails its
// read with m. A Thing's Password is write-only.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "provider/provider.h"

namespace ms::testing {

class DriftProviders : public ProviderRuntime {
 public:
  DriftProviders() {
    for (TypeSchema* s : {&thing_, &opaque_}) {
      s->source = "fake";
      s->accepts_undeclared_properties = true;
      s->accepts_any_attribute = true;
    }
    thing_.type = "Test::Drift::Thing";
    PropertySchema password;  // write-only: never returned by a real read, never compared
    password.name = "Password";
    password.write_only = true;
    thing_.properties.push_back(password);
    opaque_.type = "Test::Drift::Opaque";
  }

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override { return {"Test::Drift::Opaque", "Test::Drift::Thing"}; }
  const TypeSchema* Schema(std::string_view type) const override {
    if (type == thing_.type) return &thing_;
    if (type == opaque_.type) return &opaque_;
    return nullptr;
  }

  // Physical ID -> the resource's actual properties.
  std::map<std::string, Value> actual;
  std::mutex mu;

 private:
  TypeSchema thing_, opaque_;
};

class DriftSession : public ProviderSession {
 public:
  explicit DriftSession(DriftProviders* p) : p_(p) {}
  const TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }
  Status Validate(std::string_view, const HookContext&, const Value& props, Value* coerced) override {
    *coerced = props;
    return Status::OK();
  }
  Status DecideUpdate(std::string_view, std::string_view, const Value&, const Value&, const HookContext&,
                      UpdateBehavior* out) override {
    *out = UpdateBehavior::kNone;
    return Status::OK();
  }
  HookOutcome Call(const HookCall& call) override {
    std::lock_guard<std::mutex> l(p_->mu);
    HookOutcome o;
    switch (call.hook) {
      case Hook::kCreate:
        o.physical_id = call.ctx.logical_id + "-id";
        p_->actual[o.physical_id] = call.properties;
        return o;
      case Hook::kUpdate:
        p_->actual[call.physical_id] = call.properties;
        return o;
      case Hook::kDelete:
        p_->actual.erase(call.physical_id);
        return o;
      case Hook::kRead: {
        if (call.type == "Test::Drift::Opaque") return o;  // no read hook: done, no properties
        if (const Value* fails = call.properties.find("ReadFails")) {
          o.kind = HookOutcome::Kind::kFailed;
          o.reason = fails->str();
          return o;
        }
        auto it = p_->actual.find(call.physical_id);
        if (it == p_->actual.end()) {
          o.kind = HookOutcome::Kind::kFailed;
          o.error_code = "NotFound";
          o.reason = "not found";
        } else {
          o.properties = it->second;
        }
        return o;
      }
      default:
        o.kind = HookOutcome::Kind::kFailed;
        o.reason = "fake: unsupported hook";
        return o;
    }
  }

 private:
  DriftProviders* p_;
};

inline Status DriftProviders::NewSession(std::unique_ptr<ProviderSession>* out) {
  *out = std::make_unique<DriftSession>(this);
  return Status::OK();
}

}  // namespace ms::testing
