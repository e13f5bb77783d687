// Stack records in the JSON shapes `aws cloudformation ... --output json`
// prints (the service model's member names and order).
#pragma once

#include <string>
#include <vector>

#include "cli/io.h"
#include "records/drift.h"
#include "records/stack.h"
#include "stack/operation_events.h"

namespace ms::cli {

// "2026-11-22T10:28:07.123000+00:00": how the aws CLI prints a timestamp.
std::string CliTimestamp(int64_t ms);

// Parameters (NoEcho values as "****") and Tags, as stacks and change sets show them.
Json ParametersJson(const std::vector<StackParameterValue>& params);
Json TagsJson(const std::vector<StackTag>& tags);

// `drift`: the DriftInformation (records/drift.h; default NOT_CHECKED).
Json StackJson(const StackRecord& s, const DriftInformation& drift = {});                    // a member of DescribeStacks' Stacks
Json StackSummaryJson(const StackRecord& s, const DriftInformation& drift = {});             // ListStacks' StackSummaries
Json EventJson(const StackEvent& e);                     // DescribeStackEvents' StackEvents
Json OperationEventJson(const OperationEvent& o);        // DescribeEvents' OperationEvents
Json StackResourceJson(const StackRecord& s, const ResourceRecord& r, const DriftInformation& drift = {});         // DescribeStackResources
Json StackResourceSummaryJson(const ResourceRecord& r, const DriftInformation& drift = {});                        // ListStackResources
// DescribeStackResource; `metadata` is the evaluated Metadata's JSON text (empty: none).
Json StackResourceDetailJson(const StackRecord& s, const ResourceRecord& r, const std::string& metadata,
                             const DriftInformation& drift = {});

}  // namespace ms::cli
