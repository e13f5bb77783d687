// The change set actions of the Query API: CreateChangeSet,
// DescribeChangeSet, ExecuteChangeSet, DeleteChangeSet, ListChangeSets, in
// the service model's XML shapes (botocore data/cloudformation/2010-05-15/
// service-2.json: member names and order). The work is ChangeSetService's
// (stack/change_sets.h); ExecuteChangeSet starts the operation and hands it
// to the OperationRunner, as UpdateStack does.
#include <map>
#include <optional>

#include "run/clock.h"
#include "server/cfn_api.h"
#include "server/stack_xml.h"
#include "stack/change_sets.h"
#include "stack/template_url.h"

namespace ms::server {
namespace {

// AWS's limit on TemplateBody (the API reference: 51,200 bytes), as
// CreateStack applies it (cfn_api.cc).
constexpr size_t kMaxTemplateBody = 51200;

// Changes.member: {Type, ResourceChange}. Recorded against AWS (localstack
// test_changesets.snapshot.json): an Add has no PhysicalResourceId or
// Replacement; Scope and Details are there even when empty. An Import has
// the identifier's value as its PhysicalResourceId and no Replacement.
void WriteChange(XmlWriter& w, const ChangeSetResourceChange& c) {
  w.Open("member");
  w.Text("Type", "Resource");
  w.Open("ResourceChange");
  w.Text("Action", c.action);
  w.Text("LogicalResourceId", c.logical_id);
  w.Optional("PhysicalResourceId", c.physical_id);
  w.Text("ResourceType", c.resource_type);
  w.Optional("Replacement", c.replacement);
  w.Members("Scope", c.scope);
  if (c.details.empty()) {
    w.Empty("Details");
  } else {
    w.Open("Details");
    for (const ChangeSetDetail& d : c.details) {
      w.Open("member");
      w.Open("Target");
      w.Text("Attribute", d.attribute);
      w.Optional("Name", d.name);
      w.Optional("RequiresRecreation", d.requires_recreation);
      w.Close();
      w.Text("Evaluation", d.evaluation);
      w.Text("ChangeSource", d.change_source);
      w.Optional("CausingEntity", d.causing_entity);
      w.Close();
    }
    w.Close();
  }
  w.Optional("ChangeSetId", c.change_set_id);  // a nested stack's change set (IncludeNestedStacks)
  w.Optional("BeforeContext", c.before_context);
  w.Optional("AfterContext", c.after_context);
  w.Close();
  w.Close();
}

void WriteDescription(XmlWriter& w, const ChangeSetRecord& cs) {
  w.Text("ChangeSetName", cs.name);
  w.Text("ChangeSetId", cs.id);
  w.Text("StackId", cs.stack_id);
  w.Text("StackName", cs.stack_name);
  w.Optional("Description", cs.description);
  WriteParameters(w, cs.parameters);
  w.Text("CreationTime", FormatTimestamp(cs.created_ms));
  w.Text("ExecutionStatus", cs.execution_status);
  w.Text("Status", cs.status);
  w.Optional("StatusReason", cs.status_reason);
  w.Empty("NotificationARNs");
  w.Empty("RollbackConfiguration");
  w.Members("Capabilities", cs.capabilities);
  if (!cs.tags.empty()) WriteTags(w, cs.tags);
  if (cs.changes.empty()) {
    w.Empty("Changes");
  } else {
    w.Open("Changes");
    for (const ChangeSetResourceChange& c : cs.changes) WriteChange(w, c);
    w.Close();
  }
  w.Bool("IncludeNestedStacks", cs.include_nested);
  w.Optional("ParentChangeSetId", cs.parent_change_set_id);
  w.Optional("RootChangeSetId", cs.root_change_set_id);
}

void WriteSummary(XmlWriter& w, const ChangeSetRecord& cs) {
  w.Open("member");
  w.Text("StackId", cs.stack_id);
  w.Text("StackName", cs.stack_name);
  w.Text("ChangeSetId", cs.id);
  w.Text("ChangeSetName", cs.name);
  w.Text("ExecutionStatus", cs.execution_status);
  w.Text("Status", cs.status);
  w.Optional("StatusReason", cs.status_reason);
  w.Text("CreationTime", FormatTimestamp(cs.created_ms));
  w.Optional("Description", cs.description);
  w.Bool("IncludeNestedStacks", cs.include_nested);
  w.Optional("ParentChangeSetId", cs.parent_change_set_id);
  w.Optional("RootChangeSetId", cs.root_change_set_id);
  w.Close();
}

// ResourcesToImport.member.N: ResourceType, LogicalResourceId and the
// ResourceIdentifier map (ResourceIdentifier.entry.M.key / .value, the
// Query protocol's map encoding), entries in order until the first gap.
std::vector<ResourceToImport> ResourcesToImportOf(const QueryRequest& q) {
  std::vector<ResourceToImport> out;
  for (const auto& fields : q.Structs("ResourcesToImport")) {
    auto get = [&](const std::string& name) {
      auto f = fields.find(name);
      return f == fields.end() ? std::string() : f->second;
    };
    ResourceToImport r;
    r.resource_type = get("ResourceType");
    r.logical_id = get("LogicalResourceId");
    for (int m = 1;; ++m) {
      const std::string entry = "ResourceIdentifier.entry." + std::to_string(m) + ".";
      if (fields.count(entry + "key") == 0) break;
      r.identifier.emplace_back(get(entry + "key"), get(entry + "value"));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Status CfnApi::CreateChangeSet(Call& c) {
  CreateChangeSetInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &in.stack_name));
  MS_RETURN_IF_ERROR(Required(c.q, "ChangeSetName", "changeSetName", &in.change_set_name));
  in.template_body = c.q.Get("TemplateBody");
  if (in.template_body.empty() && !c.q.Get("TemplateURL").empty()) {
    // Up to AWS's 1 MB for a TemplateURL's template (stack/template_url.h),
    // not TemplateBody's 51,200 bytes: the CDK sends every template by URL.
    MS_RETURN_IF_ERROR(ReadTemplateUrl(c.service.context(), c.q.Get("TemplateURL"), &in.template_body));
  } else if (in.template_body.size() > kMaxTemplateBody) {
    // The same limit and message as CreateStack's (cfn_api.cc).
    return Status::Validation("1 validation error detected: Value '" + in.template_body +
                              "' at 'templateBody' failed to satisfy constraint: Member must have length less "
                              "than or equal to " + std::to_string(kMaxTemplateBody));
  }
  in.use_previous_template = c.q.Flag("UsePreviousTemplate");
  in.change_set_type = c.q.Get("ChangeSetType");
  in.description = c.q.Get("Description");
  in.parameters = ParametersOf(c.q);
  in.capabilities = c.q.List("Capabilities");
  in.tags = GivenTagsOf(c.q);
  in.resources_to_import = ResourcesToImportOf(c.q);
  in.include_nested_stacks = c.q.Flag("IncludeNestedStacks");
  ChangeSetService service(c.service.context());
  std::string id, stack_id;
  MS_RETURN_IF_ERROR(service.Create(in, &id, &stack_id));
  c.w.Text("Id", id);
  c.w.Text("StackId", stack_id);
  return Status::OK();
}

Status CfnApi::DescribeChangeSet(Call& c) {
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "ChangeSetName", "changeSetName", &name));
  ChangeSetService service(c.service.context());
  ChangeSetRecord cs;
  MS_RETURN_IF_ERROR(service.Describe(name, c.q.Get("StackName"), &cs));
  if (!c.q.Flag("IncludePropertyValues")) DropPropertyValues(&cs);
  WriteDescription(c.w, cs);
  return Status::OK();
}

Status CfnApi::ExecuteChangeSet(Call& c) {
  ExecuteChangeSetInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "ChangeSetName", "changeSetName", &in.change_set_name));
  in.stack_name = c.q.Get("StackName");
  in.disable_rollback = c.q.Flag("DisableRollback");
  in.client_request_token = c.q.Get("ClientRequestToken");
  ChangeSetService service(c.service.context());
  ChangeSetRecord cs;
  MS_RETURN_IF_ERROR(service.Describe(in.change_set_name, in.stack_name, &cs));
  MS_RETURN_IF_ERROR(runner_->Reserve(c.region, cs.stack_name));
  std::string stack_id;
  Status s = service.Execute(in, &stack_id);
  if (!s.ok()) {
    runner_->Release(c.region, cs.stack_name);
    return s;
  }
  runner_->Enqueue(cs.stack_name, stack_id, c.region);
  return Status::OK();  // ExecuteChangeSetOutput has no members
}

Status CfnApi::DeleteChangeSet(Call& c) {
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "ChangeSetName", "changeSetName", &name));
  ChangeSetService service(c.service.context());
  return service.Delete(name, c.q.Get("StackName"));
}

Status CfnApi::ListChangeSets(Call& c) {
  std::string stack_name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &stack_name));
  ChangeSetService service(c.service.context());
  std::vector<ChangeSetRecord> all;
  MS_RETURN_IF_ERROR(service.List(stack_name, &all));
  std::vector<std::string> ids;
  for (const ChangeSetRecord& cs : all) ids.push_back(cs.id);
  size_t begin = 0, end = 0;
  MS_RETURN_IF_ERROR(PageOf(c.q, ids, &begin, &end));
  if (begin == end) {
    c.w.Empty("Summaries");
    return Status::OK();
  }
  c.w.Open("Summaries");
  for (size_t i = begin; i < end; ++i) WriteSummary(c.w, all[i]);
  c.w.Close();
  if (end < ids.size()) c.w.Text("NextToken", ids[end]);
  return Status::OK();
}

}  // namespace ms::server
