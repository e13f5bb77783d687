#include "stack/resource_signals.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace ms {
namespace {

// "The maximum time that you can specify is 12 hours." (CreationPolicy
// attribute reference, ResourceSignal Timeout)
constexpr int64_t kMaxTimeoutSeconds = 12 * 3600;

std::string Text(const Value* v) { return v == nullptr ? "" : v->is_scalar() ? v->scalar_text() : v->ToJson(); }

// "arn:aws:cloudformation:<region>:<account>:stack/<name>/<guid>" -> name;
// anything else is a name already.
std::string StackNameOf(const std::string& name_or_arn) {
  if (name_or_arn.rfind("arn:", 0) != 0) return name_or_arn;
  const size_t a = name_or_arn.find(":stack/");
  if (a == std::string::npos) return name_or_arn;
  const size_t b = name_or_arn.find('/', a + 7);
  return name_or_arn.substr(a + 7, b == std::string::npos ? std::string::npos : b - a - 7);
}

}  // namespace

// AWS's wording for a malformed Count or Timeout was not found (searched the
// docs, issues and pages corpora); these messages are moonstack's own.
Status ParseSignalPolicy(const Value& creation_policy, bool* has, SignalPolicy* out) {
  *has = false;
  *out = SignalPolicy();
  if (!creation_policy.is_map()) return Status::OK();
  const Value* signal = creation_policy.find("ResourceSignal");
  if (signal == nullptr || signal->is_null()) return Status::OK();
  if (!signal->is_map()) return Status::Validation("CreationPolicy ResourceSignal must be an object");
  *has = true;
  if (const Value* count = signal->find("Count")) {
    std::optional<int64_t> n = count->as_integer();
    if (!n || *n < 0) {
      return Status::Validation("CreationPolicy ResourceSignal Count '" + Text(count) +
                                "' is not a whole number of signals");
    }
    out->count = *n;
  }
  if (const Value* timeout = signal->find("Timeout")) {
    int64_t seconds = 0;
    if (!timeout->is_string() || !ParseSignalDuration(timeout->str(), &seconds)) {
      return Status::Validation("CreationPolicy ResourceSignal Timeout '" + Text(timeout) +
                                "' is not an ISO 8601 duration of the form PT#H#M#S");
    }
    if (seconds > kMaxTimeoutSeconds) {
      return Status::Validation("CreationPolicy ResourceSignal Timeout '" + timeout->str() +
                                "' exceeds the maximum of 12 hours (PT12H)");
    }
    out->timeout_seconds = seconds;
  }
  if (const Value* asg = creation_policy.find("AutoScalingCreationPolicy"); asg != nullptr && asg->is_map()) {
    if (const Value* pct = asg->find("MinSuccessfulInstancesPercent")) {
      std::optional<double> p = pct->as_double();
      if (!p || *p < 0 || *p > 100) {
        return Status::Validation("CreationPolicy AutoScalingCreationPolicy MinSuccessfulInstancesPercent '" +
                                  Text(pct) + "' is not a percentage from 0 to 100");
      }
      out->min_successful_tenths = std::llround(*p * 10);
    }
  }
  return Status::OK();
}

int64_t SignalPolicy::Needed() const { return (count * min_successful_tenths + 999) / 1000; }

std::string ResourceSignalRecordId(const std::string& stack_name, const std::string& logical_id) {
  return StackNameOf(stack_name) + "/" + logical_id;
}

namespace {
// The referrers-index id every signal of a resource refers to.
std::string SignalsIndexId(const std::string& resource) { return "signals:" + resource; }
}  // namespace

void PutResourceSignal(World* world, const std::string& stack_name, const std::string& logical_id,
                       const ResourceSignal& signal) {
  auto lock = world->Lock();  // the counter and the signal: one step
  const std::string resource = ResourceSignalRecordId(stack_name, logical_id);
  int64_t seq = 1;
  if (const WorldRecord* counter = world->Find(kResourceSignalSeqKind, resource); counter && counter->value().is_map()) {
    if (const Value* next = counter->value().find("Next")) seq = next->as_integer().value_or(1);
  }
  Value counter = Value::MakeMap();
  counter.set("Next", Value::Integer(seq + 1));
  world->Put(kResourceSignalSeqKind, resource, WorldRecord(std::move(counter)));

  Value data = Value::MakeMap();
  data.set("StackName", Value::String(StackNameOf(stack_name)));
  data.set("LogicalResourceId", Value::String(logical_id));
  data.set("UniqueId", Value::String(signal.unique_id));
  data.set("Status", Value::String(signal.status));
  data.set("StackId", Value::String(signal.stack_id));
  data.set("Timestamp", Value::Integer(signal.timestamp_ms));
  data.set("Seq", Value::Integer(seq));
  world->Put(kResourceSignalKind, resource + "/" + signal.unique_id,
             WorldRecord(std::move(data), {SignalsIndexId(resource)}));
}

std::vector<ResourceSignal> SignalsFor(const World& world, const std::string& stack_name,
                                       const std::string& stack_id, const std::string& logical_id,
                                       int64_t since_ms) {
  std::vector<std::pair<int64_t, ResourceSignal>> found;  // (Seq, signal)
  auto lock = world.Lock();
  for (const WorldKey& key : world.Referrers(SignalsIndexId(ResourceSignalRecordId(stack_name, logical_id)))) {
    if (key.first != kResourceSignalKind) continue;
    const WorldRecord* rec = world.Find(key.first, key.second);
    if (rec == nullptr || !rec->value().is_map()) continue;
    const Value& v = rec->value();
    ResourceSignal s;
    s.unique_id = Text(v.find("UniqueId"));
    s.status = Text(v.find("Status"));
    s.stack_id = Text(v.find("StackId"));
    const Value* t = v.find("Timestamp");
    s.timestamp_ms = t == nullptr ? 0 : t->as_integer().value_or(0);
    if (!s.stack_id.empty() && s.stack_id != stack_id) continue;  // a namesake stack's
    if (s.timestamp_ms < since_ms) continue;                      // sent before this wait began
    const Value* seq = v.find("Seq");
    found.emplace_back(seq == nullptr ? 0 : seq->as_integer().value_or(0), std::move(s));
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ResourceSignal> out;
  out.reserve(found.size());
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

bool AutoSignalled(const World& world, const std::string& type) {
  auto lock = world.Lock();
  const WorldRecord* cfg = world.Find("config", "cloudformation");
  const Value* types = cfg != nullptr && cfg->value().is_map() ? cfg->value().find("creation_policy_auto_signal_types") : nullptr;
  if (types == nullptr) return false;
  if (!types->is_list()) return false;  // false, or an empty Lua table: none
  for (const Value& t : types->list()) {
    if (t.is_string() && t.str() == type) return true;
  }
  return false;
}

// AWS's reasons, as they appear in stack events:
//   "Received SUCCESS signal with UniqueId i-df0b7058" (CREATE_IN_PROGRESS;
//     quoted in crewjam/etcd-aws#5 and aws-cloudformation-templates events)
//   "Received FAILURE signal with UniqueId <id>" (CREATE_FAILED; widdix/aws-ec2-ssh#137)
//   "Failed to receive 1 resource signal(s) within the specified duration"
//     (CREATE_FAILED; aws/aws-cli#7133, CloudSmith-Delivery-Troubleshooting/CFNDeployment#70)
std::string ReceivedSuccessReason(const std::string& unique_id) {
  return "Received SUCCESS signal with UniqueId " + unique_id;
}

SignalVerdict Decide(const SignalPolicy& policy, const std::vector<ResourceSignal>& signals,
                     const std::set<std::string>& reported, int64_t since_ms, int64_t now_ms) {
  SignalVerdict v;
  int64_t successes = 0;
  int64_t failures = 0;
  const int64_t needed = policy.Needed();
  if (needed <= successes) {
    v.kind = SignalVerdict::Kind::kComplete;
    return v;
  }
  for (const ResourceSignal& s : signals) {
    // A FAILURE fails the wait once too few of the Count are left to succeed.
    if (s.status == "FAILURE" && ++failures > policy.count - needed) {
      v.kind = SignalVerdict::Kind::kFailed;
      v.reason = "Received FAILURE signal with UniqueId " + s.unique_id;
      return v;
    }
    if (s.status != "SUCCESS") continue;  // the senders accept only SUCCESS and FAILURE
    if (reported.count(s.unique_id) == 0) v.received.push_back(s.unique_id);
    if (++successes >= needed) {
      v.kind = SignalVerdict::Kind::kComplete;
      return v;
    }
  }
  if (now_ms >= since_ms + policy.timeout_seconds * 1000) {
    v.kind = SignalVerdict::Kind::kFailed;
    v.reason = "Failed to receive " + std::to_string(policy.count) + " resource signal(s) within the specified duration";
  }
  return v;
}

}  // namespace ms
