#include "cli/change_set_json.h"

#include "cli/stack_json.h"

namespace ms::cli {

// Recorded against AWS (localstack test_changesets.snapshot.json): an Add
// has no PhysicalResourceId and no Replacement, and Scope and Details are
// present even when empty.
Json ResourceChangeJson(const ChangeSetResourceChange& c) {
  Json rc;
  rc["Action"] = c.action;
  rc["LogicalResourceId"] = c.logical_id;
  if (!c.physical_id.empty()) rc["PhysicalResourceId"] = c.physical_id;
  rc["ResourceType"] = c.resource_type;
  if (!c.replacement.empty()) rc["Replacement"] = c.replacement;
  rc["Scope"] = c.scope;
  Json details = Json::array();
  for (const ChangeSetDetail& d : c.details) {
    Json target;
    target["Attribute"] = d.attribute;
    if (!d.name.empty()) target["Name"] = d.name;
    if (!d.requires_recreation.empty()) target["RequiresRecreation"] = d.requires_recreation;
    Json dj;
    dj["Target"] = target;
    dj["Evaluation"] = d.evaluation;
    dj["ChangeSource"] = d.change_source;
    if (!d.causing_entity.empty()) dj["CausingEntity"] = d.causing_entity;
    details.push_back(dj);
  }
  rc["Details"] = details;
  if (!c.change_set_id.empty()) rc["ChangeSetId"] = c.change_set_id;  // a nested stack's own change set
  if (!c.before_context.empty()) rc["BeforeContext"] = c.before_context;
  if (!c.after_context.empty()) rc["AfterContext"] = c.after_context;
  return Json{{"Type", "Resource"}, {"ResourceChange", rc}};
}

Json DescribeChangeSetJson(const ChangeSetRecord& cs) {
  Json j;
  j["ChangeSetName"] = cs.name;
  j["ChangeSetId"] = cs.id;
  j["StackId"] = cs.stack_id;
  j["StackName"] = cs.stack_name;
  if (!cs.description.empty()) j["Description"] = cs.description;
  if (!cs.parameters.empty()) {
    j["Parameters"] = ParametersJson(cs.parameters);
  }
  j["CreationTime"] = CliTimestamp(cs.created_ms);
  j["ExecutionStatus"] = cs.execution_status;
  j["Status"] = cs.status;
  if (!cs.status_reason.empty()) j["StatusReason"] = cs.status_reason;
  j["NotificationARNs"] = Json::array();
  j["RollbackConfiguration"] = Json::object();
  j["Capabilities"] = cs.capabilities;
  if (!cs.tags.empty()) {
    j["Tags"] = TagsJson(cs.tags);
  }
  Json changes = Json::array();
  for (const ChangeSetResourceChange& c : cs.changes) changes.push_back(ResourceChangeJson(c));
  j["Changes"] = changes;
  j["IncludeNestedStacks"] = cs.include_nested;
  if (!cs.parent_change_set_id.empty()) j["ParentChangeSetId"] = cs.parent_change_set_id;
  if (!cs.root_change_set_id.empty()) j["RootChangeSetId"] = cs.root_change_set_id;
  return j;
}

Json ChangeSetSummaryJson(const ChangeSetRecord& cs) {
  Json j;
  j["StackId"] = cs.stack_id;
  j["StackName"] = cs.stack_name;
  j["ChangeSetId"] = cs.id;
  j["ChangeSetName"] = cs.name;
  j["ExecutionStatus"] = cs.execution_status;
  j["Status"] = cs.status;
  if (!cs.status_reason.empty()) j["StatusReason"] = cs.status_reason;
  j["CreationTime"] = CliTimestamp(cs.created_ms);
  if (!cs.description.empty()) j["Description"] = cs.description;
  j["IncludeNestedStacks"] = cs.include_nested;
  if (!cs.parent_change_set_id.empty()) j["ParentChangeSetId"] = cs.parent_change_set_id;
  if (!cs.root_change_set_id.empty()) j["RootChangeSetId"] = cs.root_change_set_id;
  return j;
}

}  // namespace ms::cli
