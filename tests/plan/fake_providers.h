// C++ fake providers for the planner tests (a planner-side copy of the idea
// of tests/stack/fake_providers.h): only schemas, Validate and DecideUpdate
// matter — the planner never calls a hook.
//
// Types (update behaviour per property, after the AWS resource reference
// pages the seeds use):
//   Test::EC2::VPC       CidrBlock replace, Tags none            attrs VpcId, CidrBlock
//   Test::EC2::Subnet    VpcId replace, CidrBlock replace, Tags none   attrs SubnetId
//   Test::EC2::Instance  ImageId replace, SubnetId replace, Tags none, UserData some,
//                        InstanceType conditional: "some", but "replace" for
//                        a *.metal type (a stand-in for EBS vs instance store),
//                        Ports list (Validate splits "80,443")   attrs PublicIp
//   Test::IAM::Role      Path replace, RoleName replace, Policies none  attrs Arn, RoleId
//   Test::IAM::Policy    PolicyName none, Roles none, PolicyDocument none
//   Test::CFN::WaitCondition  Handle unsupported, Timeout unsupported, Count unsupported
//   Test::CFN::WaitConditionHandle  (no properties)
//   Custom::Thing        any property (accepts undeclared): none
// Validate rejects undeclared properties with AWS's "Encountered unsupported
// property X" and coerces list properties given as a comma string.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/strings.h"
#include "plan/property_diff.h"
#include "provider/provider.h"

namespace ms::plantest {

class PlanFakeProviders : public ProviderRuntime {
 public:
  PlanFakeProviders() {
    Add("Test::EC2::VPC", {{"CidrBlock", "string", UpdateBehavior::kReplace}, {"Tags", "tags", UpdateBehavior::kNone}},
        {"VpcId", "CidrBlock"});
    Add("Test::EC2::Subnet",
        {{"VpcId", "string", UpdateBehavior::kReplace},
         {"CidrBlock", "string", UpdateBehavior::kReplace},
         {"Tags", "tags", UpdateBehavior::kNone}},
        {"SubnetId"});
    Add("Test::EC2::Instance",
        {{"ImageId", "string", UpdateBehavior::kReplace},
         {"InstanceType", "string", UpdateBehavior::kSome, /*conditional=*/true},
         {"SubnetId", "string", UpdateBehavior::kReplace},
         {"UserData", "string", UpdateBehavior::kSome},
         {"Ports", "list", UpdateBehavior::kNone},
         {"Tags", "tags", UpdateBehavior::kNone}},
        {"PublicIp"});
    Add("Test::IAM::Role",
        {{"Path", "string", UpdateBehavior::kReplace},
         {"RoleName", "string", UpdateBehavior::kReplace},
         {"Policies", "list", UpdateBehavior::kNone}},
        {"Arn", "RoleId"});
    Add("Test::IAM::Policy",
        {{"PolicyName", "string", UpdateBehavior::kNone},
         {"Roles", "list", UpdateBehavior::kNone},
         {"PolicyDocument", "json", UpdateBehavior::kNone}},
        {});
    Add("Test::CFN::WaitCondition",
        {{"Handle", "string", UpdateBehavior::kUnsupported},
         {"Timeout", "string", UpdateBehavior::kUnsupported},
         {"Count", "integer", UpdateBehavior::kUnsupported}},
        {"Data"});
    Add("Test::CFN::WaitConditionHandle", {}, {});
    TypeSchema& custom = Add("Custom::Thing", {}, {});
    custom.accepts_undeclared_properties = true;
    custom.accepts_any_attribute = true;
  }

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override {
    std::vector<std::string> out;
    for (const auto& [t, s] : schemas_) out.push_back(t);
    return out;
  }
  const TypeSchema* Schema(std::string_view type) const override {
    auto it = schemas_.find(std::string(type));
    return it == schemas_.end() ? nullptr : &it->second;
  }

  int validate_calls = 0;
  int decide_calls = 0;

 private:
  struct Prop {
    std::string name, type;
    UpdateBehavior update;
    bool conditional = false;
  };
  TypeSchema& Add(const std::string& type, const std::vector<Prop>& props, const std::vector<std::string>& attrs) {
    TypeSchema& s = schemas_[type];
    s.type = type;
    s.source = "fake";
    for (const Prop& p : props) {
      PropertySchema ps;
      ps.name = p.name;
      ps.type = p.type;
      ps.update = p.update;
      ps.conditional = p.conditional;
      s.properties.push_back(ps);
    }
    s.attributes = attrs;
    return s;
  }
  std::map<std::string, TypeSchema> schemas_;
};

class PlanFakeSession : public ProviderSession {
 public:
  explicit PlanFakeSession(PlanFakeProviders* p) : p_(p) {}
  const TypeSchema* Schema(std::string_view type) override { return p_->Schema(type); }

  Status Validate(std::string_view type, const HookContext&, const Value& props, Value* coerced) override {
    ++p_->validate_calls;
    const TypeSchema* s = p_->Schema(type);
    if (s == nullptr) return Status::Validation("No provider for resource type " + std::string(type));
    Value out = Value::MakeMap();
    for (const Member& m : props.map()) {
      const PropertySchema* ps = s->FindProperty(m.key);
      if (ps == nullptr && !s->accepts_undeclared_properties) {
        return Status::Validation("Encountered unsupported property " + m.key);
      }
      if (ps != nullptr && ps->type == "list" && m.value.is_string()) {
        out.set(m.key, Value::StringList(SplitCommaList(m.value.str())));
      } else {
        out.set(m.key, m.value);
      }
    }
    *coerced = std::move(out);
    return Status::OK();
  }

  Status DecideUpdate(std::string_view type, std::string_view property, const Value& old_value,
                      const Value& new_value, const HookContext& ctx, UpdateBehavior* out) override {
    ++p_->decide_calls;
    // As the Lua host: an unknown value anywhere in what it is handed fails.
    for (const Value* v : {&old_value, &new_value, ctx.old_properties, ctx.new_properties}) {
      if (v != nullptr && !UnknownRefs(*v).empty()) return Status::Internal("fake: an unknown value reached DecideUpdate");
    }
    if (type != "Test::EC2::Instance" || property != "InstanceType") {
      return Status::Internal("fake: no update function for " + std::string(property));
    }
    const std::string& t = new_value.str();
    const bool metal = t.size() > 6 && t.compare(t.size() - 6, 6, ".metal") == 0;
    *out = metal ? UpdateBehavior::kReplace : UpdateBehavior::kSome;
    return Status::OK();
  }

  HookOutcome Call(const HookCall&) override {
    HookOutcome o;
    o.kind = HookOutcome::Kind::kFailed;
    o.reason = "fake: the planner calls no hook";
    return o;
  }

 private:
  PlanFakeProviders* p_;
};

inline Status PlanFakeProviders::NewSession(std::unique_ptr<ProviderSession>* out) {
  *out = std::make_unique<PlanFakeSession>(this);
  return Status::OK();
}

}  // namespace ms::plantest
