#include "policy/resource_policies.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "base/strings.h"
#include "policy/policy_values.h"
#include "policy/update_restrictions.h"

namespace ms {
namespace {

// Messages. Verified against AWS: only kPauseTimeError (an UPDATE_FAILED
// reason quoted in aws-cdk#1113). The others are moonstack's, extrapolated:
// errors inside AutoScalingRollingUpdate take AWS's prefix of that verified
// message, "Invalid Autoscaling rolling update policy: "; everything else
// takes the prefix policy/update_restrictions.cc already gives seed 003's
// Allow errors, "Invalid UpdatePolicy for resource <id>: " (and
// "Invalid CreationPolicy for resource <id>: ").
constexpr const char* kRollingPrefix = "Invalid Autoscaling rolling update policy: ";
constexpr const char* kPauseTimeError =
    "Invalid Autoscaling rolling update policy: PauseTime must be in the ISO8601 time period format and must be "
    "no greater than PT3600S seconds, e.g. \"PT5M30S\" specifies a pause time of 5 minutes and 30 seconds.";
constexpr int64_t kMaxPauseTimeSeconds = 3600;  // "The maximum PauseTime is one hour (PT1H)." (seed 004)

// The Auto Scaling processes SuspendProcesses may name (the ScalingProcesses
// of Auto Scaling's SuspendProcesses action).
const std::vector<std::string> kScalingProcesses = {
    "Launch",           "Terminate",          "HealthCheck",  "ReplaceUnhealthy",  "AZRebalance",
    "AlarmNotification", "ScheduledActions", "AddToLoadBalancer", "InstanceRefresh"};

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  for (const std::string& n : names) {
    if (n == name) return true;
  }
  return false;
}

// Where an error is reported: which attribute of which resource, or inside
// AutoScalingRollingUpdate (AWS's own prefix).
class Reporter {
 public:
  explicit Reporter(std::string prefix) : prefix_(std::move(prefix)) {}
  Status Invalid(const std::string& what) const { return Status::Validation(prefix_ + what); }

  // Every member of `obj` is one of `valid`.
  Status KnownKeys(const Value& obj, const std::string& where, const std::vector<std::string>& valid) const {
    for (const Member& m : obj.map()) {
      if (!Contains(valid, m.key)) {
        return Invalid(where + " has an unknown key " + m.key + " (valid: " + Join(valid, ", ") + ")");
      }
    }
    return Status::OK();
  }
  // Absent, Unknown or a boolean ("true"/"false" too).
  Status Bool(const Value* v, const std::string& name) const {
    bool b = false;
    if (v == nullptr || v->is_unknown() || ReadPolicyBool(*v, &b)) return Status::OK();
    return Invalid(name + " must be a boolean");
  }
  // Absent, Unknown or an integer ("2" too) within [min, max].
  Status Integer(const Value* v, const std::string& name, int64_t min, int64_t max) const {
    int64_t n = 0;
    if (v == nullptr || v->is_unknown() || (ReadPolicyInteger(*v, &n) && n >= min && n <= max)) return Status::OK();
    if (max == INT64_MAX) return Invalid(name + " must be an integer of at least " + std::to_string(min));
    return Invalid(name + " must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
  }
  // Absent, Unknown or a string (a number is its text).
  Status String(const Value* v, const std::string& name) const {
    if (v == nullptr || v->is_unknown() || v->is_string() || v->is_number()) return Status::OK();
    return Invalid(name + " must be a string");
  }

 private:
  std::string prefix_;
};

// A boolean that may be Unknown: -1 unknown, else 0/1; `absent` when missing.
int TriBool(const Value* v, int absent) {
  bool b = false;
  if (v == nullptr) return absent;
  if (v->is_unknown() || !ReadPolicyBool(*v, &b)) return -1;
  return b ? 1 : 0;
}

Status CheckRollingUpdate(const Reporter&, const Value& p) {
  const Reporter r(kRollingPrefix);
  if (!p.is_map()) return r.Invalid("AutoScalingRollingUpdate must be an object");
  MS_RETURN_IF_ERROR(r.KnownKeys(p, "AutoScalingRollingUpdate",
                                 {"MaxBatchSize", "MinActiveInstancesPercent", "MinInstancesInService",
                                  "MinSuccessfulInstancesPercent", "PauseTime", "SuspendProcesses",
                                  "WaitOnResourceSignals"}));
  MS_RETURN_IF_ERROR(r.Integer(p.find("MaxBatchSize"), "MaxBatchSize", 1, 100));
  MS_RETURN_IF_ERROR(r.Integer(p.find("MinInstancesInService"), "MinInstancesInService", 0, INT64_MAX));
  MS_RETURN_IF_ERROR(r.Integer(p.find("MinSuccessfulInstancesPercent"), "MinSuccessfulInstancesPercent", 0, 100));
  MS_RETURN_IF_ERROR(r.Integer(p.find("MinActiveInstancesPercent"), "MinActiveInstancesPercent", 0, 100));
  MS_RETURN_IF_ERROR(r.Bool(p.find("WaitOnResourceSignals"), "WaitOnResourceSignals"));

  const Value* pause = p.find("PauseTime");
  if (pause != nullptr && !pause->is_unknown()) {
    int64_t seconds = 0;
    if (!pause->is_string() || !ParseSignalDuration(pause->str(), &seconds) || seconds > kMaxPauseTimeSeconds) {
      return Status::Validation(kPauseTimeError);
    }
  }

  if (const Value* processes = p.find("SuspendProcesses"); processes != nullptr && !processes->is_unknown()) {
    if (!processes->is_list()) return r.Invalid("SuspendProcesses must be a list of Auto Scaling process names");
    for (const Value& name : processes->list()) {
      if (name.is_unknown()) continue;
      if (!name.is_string() || !Contains(kScalingProcesses, name.str())) {
        return r.Invalid("SuspendProcesses has an unknown process " +
                         (name.is_scalar() ? name.scalar_text() : name.ToJson()) + " (valid: " +
                         Join(kScalingProcesses, ", ") + ")");
      }
    }
  }

  // "If you specify the MinSuccessfulInstancesPercent property, you must
  // also enable the WaitOnResourceSignals and PauseTime properties";
  // "[MinActiveInstancesPercent:] you must also enable the PauseTime
  // property" (seed 004). WaitOnResourceSignals defaults to false: the seed
  // says true, but AWS's reference said false for years and rolling updates
  // without it are observed not to wait for signals (the Auto Scaling
  // provider, providers/aws/autoscaling/lib/update_policy.lua, does the same).
  const int wait = TriBool(p.find("WaitOnResourceSignals"), 0);
  if (p.find("MinSuccessfulInstancesPercent") != nullptr && wait == 0) {
    return r.Invalid("MinSuccessfulInstancesPercent requires WaitOnResourceSignals to be true");
  }
  if (p.find("MinActiveInstancesPercent") != nullptr && pause == nullptr && wait == 0) {
    return r.Invalid("MinActiveInstancesPercent requires PauseTime");
  }
  return Status::OK();
}

Status CheckReplacingUpdate(const Reporter& r, const Value& p) {
  if (!p.is_map()) return r.Invalid("AutoScalingReplacingUpdate must be an object");
  MS_RETURN_IF_ERROR(r.KnownKeys(p, "AutoScalingReplacingUpdate", {"WillReplace"}));
  return r.Bool(p.find("WillReplace"), "AutoScalingReplacingUpdate.WillReplace");
}

Status CheckScheduledAction(const Reporter& r, const Value& p) {
  if (!p.is_map()) return r.Invalid("AutoScalingScheduledAction must be an object");
  MS_RETURN_IF_ERROR(r.KnownKeys(p, "AutoScalingScheduledAction", {"IgnoreUnmodifiedGroupSizeProperties"}));
  return r.Bool(p.find("IgnoreUnmodifiedGroupSizeProperties"),
                "AutoScalingScheduledAction.IgnoreUnmodifiedGroupSizeProperties");
}

Status CheckCodeDeployLambdaAliasUpdate(const Reporter& r, const Value& p) {
  if (!p.is_map()) return r.Invalid("CodeDeployLambdaAliasUpdate must be an object");
  const std::vector<std::string> keys = {"AfterAllowTrafficHook", "ApplicationName", "BeforeAllowTrafficHook",
                                         "DeploymentGroupName"};
  MS_RETURN_IF_ERROR(r.KnownKeys(p, "CodeDeployLambdaAliasUpdate", keys));
  for (const std::string& k : keys) {
    MS_RETURN_IF_ERROR(r.String(p.find(k), "CodeDeployLambdaAliasUpdate." + k));
  }
  for (const char* required : {"ApplicationName", "DeploymentGroupName"}) {
    if (p.find(required) == nullptr) {
      return r.Invalid(std::string("CodeDeployLambdaAliasUpdate.") + required + " is required");
    }
  }
  return Status::OK();
}

// UseOnlineResharding, EnableVersionUpgrade, StartFleet: a boolean.
Status CheckFlag(const Reporter& r, const Value& v, const std::string& name) { return r.Bool(&v, name); }

// StopBeforeUpdate / StartAfterUpdate: a boolean, or {Type: <boolean>} as
// seed 004's syntax for the AppStream fleet spells it.
Status CheckFleetFlag(const Reporter& r, const Value& v, const std::string& name) {
  if (!v.is_map()) return r.Bool(&v, name);
  MS_RETURN_IF_ERROR(r.KnownKeys(v, name, {"Type"}));
  return r.Bool(v.find("Type"), name + ".Type");
}

Status CheckResourceSignal(const Reporter& r, const Value& p) {
  if (!p.is_map()) return r.Invalid("ResourceSignal must be an object");
  // Count and Timeout themselves: when the wait begins (ParseSignalPolicy).
  return r.KnownKeys(p, "ResourceSignal", {"Count", "Timeout"});
}

Status CheckAutoScalingCreationPolicy(const Reporter& r, const Value& p) {
  if (!p.is_map()) return r.Invalid("AutoScalingCreationPolicy must be an object");
  MS_RETURN_IF_ERROR(r.KnownKeys(p, "AutoScalingCreationPolicy", {"MinSuccessfulInstancesPercent"}));
  return r.Integer(p.find("MinSuccessfulInstancesPercent"), "AutoScalingCreationPolicy.MinSuccessfulInstancesPercent",
                   0, 100);
}

// One key of a policy attribute and its check (the value is known: not
// Unknown, not Null).
struct PolicyKey {
  const char* name;
  Status (*check)(const Reporter&, const Value&, const std::string& name);
};

template <Status (*F)(const Reporter&, const Value&)>
Status Object(const Reporter& r, const Value& v, const std::string&) {
  return F(r, v);
}

const PolicyKey kRollingUpdate{"AutoScalingRollingUpdate", Object<CheckRollingUpdate>};
const PolicyKey kReplacingUpdate{"AutoScalingReplacingUpdate", Object<CheckReplacingUpdate>};
const PolicyKey kScheduledAction{"AutoScalingScheduledAction", Object<CheckScheduledAction>};
const PolicyKey kCodeDeploy{"CodeDeployLambdaAliasUpdate", Object<CheckCodeDeployLambdaAliasUpdate>};
const PolicyKey kResharding{"UseOnlineResharding", CheckFlag};
const PolicyKey kVersionUpgrade{"EnableVersionUpgrade", CheckFlag};
const PolicyKey kStopBeforeUpdate{"StopBeforeUpdate", CheckFleetFlag};
const PolicyKey kStartAfterUpdate{"StartAfterUpdate", CheckFleetFlag};
const PolicyKey kResourceSignal{"ResourceSignal", Object<CheckResourceSignal>};
const PolicyKey kAutoScalingCreation{"AutoScalingCreationPolicy", Object<CheckAutoScalingCreationPolicy>};
const PolicyKey kStartFleet{"StartFleet", CheckFlag};

// The types AWS documents policies for; any other type's policies are
// ignored (Allow excepted).
struct TypePolicies {
  const char* type;
  std::vector<PolicyKey> update;
  std::vector<PolicyKey> creation;
};

const std::vector<TypePolicies>& Types() {
  static const std::vector<TypePolicies> types = {
      {"AWS::AutoScaling::AutoScalingGroup",
       {kReplacingUpdate, kRollingUpdate, kScheduledAction},
       {kResourceSignal, kAutoScalingCreation}},
      {"AWS::Lambda::Alias", {kCodeDeploy}, {}},
      {"AWS::ElastiCache::ReplicationGroup", {kResharding}, {}},
      {"AWS::OpenSearchService::Domain", {kVersionUpgrade}, {}},
      {"AWS::Elasticsearch::Domain", {kVersionUpgrade}, {}},
      {"AWS::AppStream::Fleet", {kStopBeforeUpdate, kStartAfterUpdate}, {kStartFleet}},
      {"AWS::EC2::Instance", {}, {kResourceSignal}},
      {"AWS::CloudFormation::WaitCondition", {}, {kResourceSignal}},
  };
  return types;
}

const TypePolicies* FindType(const std::string& type) {
  for (const TypePolicies& t : Types()) {
    if (type == t.type) return &t;
  }
  return nullptr;
}

// Seed 003's Allow, through its own parser, without members still Unknown.
Status CheckAllow(const std::string& logical_id, const Value& allow) {
  if (allow.is_unknown()) return Status::OK();
  Value known = allow;
  if (allow.is_map()) {
    known = Value::MakeMap();
    for (const Member& m : allow.map()) {
      if (!m.value.is_unknown()) known.set(m.key, m.value);
    }
  }
  Value policy = Value::MakeMap();
  policy.set("Allow", std::move(known));
  UpdateRestrictions ignored;
  return ParseUpdateRestrictions(logical_id, policy, &ignored);
}

// One policy attribute: each member is one of `keys` (plus Allow for
// UpdatePolicy) and passes its check. `keys` null: the type has none, its
// members are not read.
Status CheckAttribute(const Reporter& r, const std::string& attribute, const std::string& logical_id,
                      const std::string& type, const Value& policy, const std::vector<PolicyKey>* keys) {
  const bool update = attribute == "UpdatePolicy";
  if (policy.is_null() || policy.is_unknown()) return Status::OK();
  if (!policy.is_map()) return r.Invalid(attribute + " must be an object");
  for (const Member& m : policy.map()) {
    if (update && m.key == "Allow") {
      MS_RETURN_IF_ERROR(CheckAllow(logical_id, m.value));
      continue;
    }
    if (keys == nullptr) continue;
    const PolicyKey* key = nullptr;
    for (const PolicyKey& k : *keys) {
      if (m.key == k.name) key = &k;
    }
    if (key == nullptr) {
      std::vector<std::string> valid;
      for (const PolicyKey& k : *keys) valid.push_back(k.name);
      if (update) valid.push_back("Allow");
      return r.Invalid(attribute + " has an unknown key " + m.key + " for " + type + " (valid: " + Join(valid, ", ") +
                       ")");
    }
    if (m.value.is_null() || m.value.is_unknown()) continue;
    MS_RETURN_IF_ERROR(key->check(r, m.value, m.key));
  }
  return Status::OK();
}

}  // namespace

Status CheckResourcePolicies(const std::string& logical_id, const std::string& type, const Value& update_policy,
                             const Value& creation_policy) {
  const TypePolicies* rules = FindType(type);
  const std::vector<PolicyKey>* update_keys = rules != nullptr && !rules->update.empty() ? &rules->update : nullptr;
  const std::vector<PolicyKey>* creation_keys =
      rules != nullptr && !rules->creation.empty() ? &rules->creation : nullptr;
  MS_RETURN_IF_ERROR(CheckAttribute(Reporter("Invalid UpdatePolicy for resource " + logical_id + ": "), "UpdatePolicy",
                                    logical_id, type, update_policy, update_keys));
  return CheckAttribute(Reporter("Invalid CreationPolicy for resource " + logical_id + ": "), "CreationPolicy",
                        logical_id, type, creation_policy, creation_keys);
}

}  // namespace ms
