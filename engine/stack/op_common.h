// Small helpers shared by the stack operations (operation.cc: create and
// delete; update_operation.cc: update).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "records/stack.h"
#include "template/value.h"

namespace ms {

// The Type of a stack's own events.
inline constexpr const char* kStackResourceType = "AWS::CloudFormation::Stack";

// "A, B, C": sorted, unique (AWS's "The following resource(s) ...: [..]").
std::string JoinNames(std::vector<std::string> names);

// An output's value as describe-stacks shows it: lists joined by commas.
std::string ScalarText(const Value& v);

// An event ID (a version-4 UUID) from the operation's generator.
std::string NewEventId(std::mt19937_64* rng);
// A version-4 UUID from this thread's random generator (stack and change-set IDs).
std::string NewUuid();

// The stack's own event for its current status (the "User Initiated" event
// of an action's synchronous half).
StackEvent StackStatusEvent(const StackRecord& s, int64_t now, const std::string& reason);

// The stack's tags as the Tags list providers read (ctx.stack_tags); null
// when there are none.
Value StackTagsValue(const std::vector<StackTag>& tags);

}  // namespace ms
