// What a stack name is, and AWS's refusals of one that is not. A stack's
// name also names its lock (store/stack_lock.h), so a name is checked before
// anything reaches the file system.
//
// AWS: "A stack name can contain only alphanumeric characters (case
// sensitive) and hyphens. It must start with an alphabetical character and
// can't be longer than 128 characters." (CreateStack, StackName.)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/status.h"

namespace ms {

inline constexpr size_t kMaxStackNameLength = 128;

// [a-zA-Z][-a-zA-Z0-9]*, at most 128 characters.
bool IsStackName(std::string_view name);

// create-stack's check of a new stack's name, with CreateStack's message:
// "1 validation error detected: Value 'a_b' at 'stackName' failed to satisfy
// constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*"
// (terraform-provider-aws#42668, a CreateStack call).
Status CheckStackName(const std::string& name);

// The check of a StackName that takes a name or a stack ID (describe,
// delete, update, change sets), with those actions' pattern:
// "...pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*" (the corpus's
// AWS_ERROR_MESSAGES.md, a CreateChangeSet call); a name past 128
// characters: "Stack name cannot exceed 128 characters" (DeleteStack,
// aws/aws-cli discussion #6847).
Status CheckStackNameOrId(const std::string& name_or_id);

// A name of the same shape in another member (changeSetName).
Status CheckNameMember(const std::string& name, std::string_view member);

}  // namespace ms
