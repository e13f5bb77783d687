// DescribeStackResource's Metadata: the resource's Metadata attribute as the
// deployed stack resolves it (intrinsic functions evaluated against its
// parameters, resources and other stacks' exports, as cfn-init reads it).
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "records/stack.h"

namespace ms {

class Database;

// The JSON text of `logical_id`'s evaluated Metadata; empty when the resource
// declares none (or it no longer evaluates: the field is then left out).
std::string ResourceMetadataJson(Database* db, const StackRecord& stack, const std::vector<ResourceRecord>& resources,
                                 const std::string& logical_id);

}  // namespace ms
