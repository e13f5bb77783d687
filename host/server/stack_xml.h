// Stack records in the XML shapes of the CloudFormation service model
// (botocore data/cloudformation/2010-05-15/service-2.json): member names and
// order as the model has them; lists as <member> elements; timestamps ISO 8601.
// The JSON twins the CLI prints are in cli/stack_json.h.
#pragma once

#include "eval/validate.h"
#include "server/xml.h"
#include "records/drift.h"
#include "records/stack.h"

namespace ms::server {

// Parameters (omitted when none; NoEcho values as "****") and Tags (the list
// element and its members).
void WriteParameters(XmlWriter& w, const std::vector<StackParameterValue>& params);
void WriteTags(XmlWriter& w, const std::vector<StackTag>& tags);
// `drift`: the DriftInformation (records/drift.h; default NOT_CHECKED).
void WriteStack(XmlWriter& w, const StackRecord& s, const DriftInformation& drift = {});                            // Stacks.member
void WriteStackSummary(XmlWriter& w, const StackRecord& s, const DriftInformation& drift = {});                     // StackSummaries.member
void WriteEvent(XmlWriter& w, const StackEvent& e);                             // StackEvents.member
void WriteStackResource(XmlWriter& w, const StackRecord& s, const ResourceRecord& r,
                        const DriftInformation& drift = {});  // StackResources.member
// StackResourceDetail; `metadata` is the evaluated Metadata's JSON text (empty: none).
void WriteStackResourceDetail(XmlWriter& w, const StackRecord& s, const ResourceRecord& r, const std::string& metadata,
                              const DriftInformation& drift = {});
void WriteStackResourceSummary(XmlWriter& w, const ResourceRecord& r, const DriftInformation& drift = {});  // StackResourceSummaries.member
// GetTemplateSummaryResult's members: ValidateTemplate's summary with each
// parameter's type and constraints, the resource types and the format version.
void WriteTemplateSummaryDetail(XmlWriter& w, const Template& t, const TemplateSummary& summary);
// ValidateTemplateResult's members.
void WriteTemplateSummary(XmlWriter& w, const TemplateSummary& summary);

}  // namespace ms::server
