// Resource signals: a resource with a CreationPolicy ResourceSignal stays
// CREATE_IN_PROGRESS after its provider's create completes, until Count
// SUCCESS signals arrive (CREATE_COMPLETE), a FAILURE signal arrives, or its
// Timeout passes (CREATE_FAILED, then the usual rollback).
//
// Signals live in the world, so every sender records them the same way: the
// CLI (signal-resource), the server (SignalResource), scenarios and
// simulated instances whose boot script runs cfn-signal (through the sim's
// cloudformation.SignalResource, providers/sim/cloudformation.lua, which
// writes the same records as PutResourceSignal below). One record per
// signal, so a signal costs the same however many the resource has:
//
//   kind  "cloudformation.signal"
//   id    "<stack name>/<logical ID>/<UniqueId>"  (cfn-signal names the stack
//                                                  by name; an ARN is reduced to its name)
//   data  { StackName, LogicalResourceId, UniqueId, Status, StackId, Timestamp, Seq }
//   refs  [ "signals:<stack name>/<logical ID>" ]  (the world's referrers
//                                                  index lists a resource's signals)
//
// Seq orders a resource's signals by arrival (a counter record, kind
// "cloudformation.signal_seq", id "<stack name>/<logical ID>"); a signal with
// the UniqueId of an earlier one replaces it and counts as arriving then.
// StackId is empty when the sender named the stack by name only; a wait
// counts the signals sent to its stack (by ID, or by name) at or after it
// began, so a deleted namesake's signals do not count.
//
// The engine side (operation.cc) parses the policy, and re-checks the world
// every few simulated seconds with Decide() until it says done.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "policy/policy_values.h"
#include "template/value.h"
#include "world/world.h"

namespace ms {

constexpr const char* kResourceSignalKind = "cloudformation.signal";
constexpr const char* kResourceSignalSeqKind = "cloudformation.signal_seq";

// CreationPolicy: { ResourceSignal: { Count, Timeout },
//                   AutoScalingCreationPolicy: { MinSuccessfulInstancesPercent } },
// evaluated.
struct SignalPolicy {
  int64_t count = 1;              // default 1 (CreationPolicy attribute reference)
  int64_t timeout_seconds = 300;  // default PT5M
  // An Auto Scaling group's: the share of the Count that must signal
  // SUCCESS, in tenths of a percent (AWS rounds to the nearest tenth); the
  // rest may send FAILURE or nothing. Default 100%.
  int64_t min_successful_tenths = 1000;

  // SUCCESS signals that complete the wait: Count x the percentage,
  // rounded up ("five instances with a minimum successful percentage of
  // 50, three instances must signal success").
  int64_t Needed() const;
};

// ParseSignalDuration (an ISO 8601 PT#H#M#S duration) is in
// policy/policy_values.h, shared with UpdatePolicy's PauseTime.

// *has is false when the policy has no ResourceSignal (nothing to wait for).
// A bad Count or Timeout is the resource's CREATE_FAILED reason.
Status ParseSignalPolicy(const Value& creation_policy, bool* has, SignalPolicy* out);

struct ResourceSignal {
  std::string unique_id;
  std::string status;    // SUCCESS or FAILURE
  std::string stack_id;  // empty: sent by stack name
  int64_t timestamp_ms = 0;
};

// "<stack name>/<logical ID>": the counter's id, and its signals' id prefix.
std::string ResourceSignalRecordId(const std::string& stack_name, const std::string& logical_id);

// Records a signal (replacing one with the same UniqueId).
void PutResourceSignal(World* world, const std::string& stack_name, const std::string& logical_id,
                       const ResourceSignal& signal);

// The signals of one wait, in arrival order: sent to this stack (by ID or by
// name) at or after since_ms.
std::vector<ResourceSignal> SignalsFor(const World& world, const std::string& stack_name,
                                       const std::string& stack_id, const std::string& logical_id,
                                       int64_t since_ms);

// Resource types whose CreationPolicy the simulated world takes as satisfied
// at once: world record ("config", "cloudformation"), field
// creation_policy_auto_signal_types (a list of type names). Default: none
// (an Auto Scaling group's instances boot in the sim and signal through
// their UserData's cfn-signal, as on AWS).
bool AutoSignalled(const World& world, const std::string& type);

struct SignalVerdict {
  enum class Kind { kWaiting, kComplete, kFailed };
  Kind kind = Kind::kWaiting;
  std::string reason;                   // kFailed: the resource's CREATE_FAILED reason
  std::vector<std::string> received;    // UniqueIds of SUCCESS signals to report now, in order
};

// What the signals say, in arrival order: the Count-th SUCCESS before any
// FAILURE completes the wait; a FAILURE fails it; otherwise it fails once
// now_ms reaches since_ms + Timeout. `reported` holds the UniqueIds already
// reported as events (each SUCCESS is an event once).
SignalVerdict Decide(const SignalPolicy& policy, const std::vector<ResourceSignal>& signals,
                     const std::set<std::string>& reported, int64_t since_ms, int64_t now_ms);

// The CREATE_IN_PROGRESS event reason for a SUCCESS signal received.
std::string ReceivedSuccessReason(const std::string& unique_id);

}  // namespace ms
