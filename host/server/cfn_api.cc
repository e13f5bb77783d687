#include "server/cfn_api.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "base/constraint_errors.h"
#include "base/regions.h"
#include "base/strings.h"
#include "cli/io.h"
#include "eval/validate.h"
#include "server/stack_xml.h"
#include "stack/change_sets.h"
#include "stack/drift_detection.h"
#include "stack/template_stage.h"
#include "stack/template_url.h"
#include "stackset/stack_set_store.h"
#include "store/stack_tables.h"
#include "store/world_table.h"
#include "template/template.h"

namespace ms::server {

// `max`: AWS's limit on TemplateBody (service model: TemplateBody min 1; the
// API reference: maximum length 51,200 bytes) unless `serve
// --max-template-body` raised it. Message: corpus AWS_ERROR_MESSAGES.md.
// Without a TemplateBody, the TemplateURL's template from the simulated S3
// (stack/template_url.h; never a file: this is a server).
Status CheckTemplateBody(const OperationContext& ctx, const QueryRequest& q, size_t max, std::string* body) {
  *body = q.Get("TemplateBody");
  if (body->empty()) {
    const std::string url = q.Get("TemplateURL");
    if (!url.empty()) return ReadTemplateUrl(ctx, url, body);
    return Status::Validation("Either Template URL or Template Body must be specified.");
  }
  if (body->size() > max) {
    return Status::Validation("1 validation error detected: Value '" + *body +
                              "' at 'templateBody' failed to satisfy constraint: Member must have length less "
                              "than or equal to " + std::to_string(max));
  }
  return Status::OK();
}

namespace {

// The HTTP status AWS answers an error with (the service model's
// httpStatusCode of its error shape): 400 for all but these.
int HttpStatusOf(const Status& s) {
  switch (s.code()) {
    case Status::Code::kInternal: return 500;
    case Status::Code::kChangeSetNotFound: return 404;
    case Status::Code::kInvalidRegion: return 403;
    // The StackSet exceptions' httpStatusCode in the service model.
    case Status::Code::kStackSetNotFound:
    case Status::Code::kStackInstanceNotFound:
    case Status::Code::kOperationNotFound:
    case Status::Code::kStackNotFound: return 404;
    case Status::Code::kOperationInProgress:
    case Status::Code::kOperationIdAlreadyExists:
    case Status::Code::kNameAlreadyExists:
    case Status::Code::kStackSetNotEmpty: return 409;
    default: return 400;
  }
}

std::string ResponseXml(const std::string& action, bool has_result, const std::string& result,
                        const std::string& request_id) {
  XmlWriter w;
  w.Open(action + "Response", kXmlNamespace);
  std::string out = w.str();
  if (has_result) out += "<" + action + "Result>" + result + "</" + action + "Result>";
  out += "<ResponseMetadata><RequestId>" + XmlEscape(request_id) + "</RequestId></ResponseMetadata>";
  out += "</" + action + "Response>";
  return out;
}

}  // namespace

// AWS's wording for a required member that is missing (botocore checks this
// before sending, so only hand-made requests see it).
Status Required(const QueryRequest& q, const char* member, const char* field, std::string* out) {
  *out = q.Get(member);
  if (out->empty()) {
    return Status::Validation(std::string("1 validation error detected: Value null at '") + field +
                              "' failed to satisfy constraint: Member must not be null");
  }
  return Status::OK();
}

// AWS pages DescribeStackEvents, ListStacks, ListStackResources, ListExports
// and ListImports 100 items at a time; ListChangeSets pages the same way here.
namespace {
constexpr size_t kPageSize = 100;
}  // namespace

// The page of `ids` (in listing order) that NextToken starts: the token is the
// id of the page's first item, so items added to the front meanwhile (newer
// events) do not shift the pages. *end is one past the page.
Status InvalidNextToken(const std::string& token) { return Status::Validation("Invalid NextToken: " + token); }

Status PageOf(const QueryRequest& q, const std::vector<std::string>& ids, size_t* begin, size_t* end) {
  *begin = 0;
  if (q.Has("NextToken")) {
    const std::string token = q.Get("NextToken");
    auto it = std::find(ids.begin(), ids.end(), token);
    if (it == ids.end()) return InvalidNextToken(token);
    *begin = static_cast<size_t>(it - ids.begin());
  }
  *end = std::min(ids.size(), *begin + kPageSize);
  return Status::OK();
}

std::vector<ParameterInput> ParametersOf(const QueryRequest& q, const std::string& member) {
  std::vector<ParameterInput> out;
  for (const auto& p : q.Structs(member)) {
    ParameterInput input;
    auto f = p.find("ParameterKey");
    input.key = f == p.end() ? "" : f->second;
    f = p.find("ParameterValue");
    if (f != p.end()) input.value = f->second;
    f = p.find("UsePreviousValue");
    input.use_previous_value = f != p.end() && f->second == "true";
    out.push_back(std::move(input));
  }
  return out;
}

std::vector<StackTag> TagsOf(const QueryRequest& q) {
  std::vector<StackTag> out;
  for (const auto& t : q.Structs("Tags")) {
    auto get = [&](const char* name) {
      auto f = t.find(name);
      return f == t.end() ? std::string() : f->second;
    };
    out.push_back(StackTag{get("Key"), get("Value")});
  }
  return out;
}

std::optional<std::vector<StackTag>> GivenTagsOf(const QueryRequest& q) {
  std::vector<StackTag> tags = TagsOf(q);
  if (tags.empty() && !q.Has("Tags")) return std::nullopt;
  return tags;
}

ApiResponse ErrorResponse(int http_status, const std::string& code, const std::string& message,
                          const std::string& request_id) {
  XmlWriter w;
  w.Open("ErrorResponse", kXmlNamespace);
  w.Open("Error");
  w.Text("Type", http_status >= 500 ? "Receiver" : "Sender");
  w.Text("Code", code);
  w.Text("Message", message);
  w.Close();
  w.Text("RequestId", request_id);
  w.Close();
  return ApiResponse{http_status, w.str()};
}

ApiResponse CfnApi::Handle(const QueryRequest& q, const std::string& region, const std::string& account,
                           const std::string& request_id) {
  using Method = Status (CfnApi::*)(Call&);
  struct Action {
    Method method;
    bool has_result;  // DeleteStack has no output shape: no <DeleteStackResult>
  };
  static const std::map<std::string, Action> kActions = {
      {"ValidateTemplate", {&CfnApi::ValidateTemplate, true}},
      {"CreateStack", {&CfnApi::CreateStack, true}},
      {"DeleteStack", {&CfnApi::DeleteStack, false}},
      {"DescribeStacks", {&CfnApi::DescribeStacks, true}},
      {"DescribeStackEvents", {&CfnApi::DescribeStackEvents, true}},
      {"DescribeEvents", {&CfnApi::DescribeEvents, true}},
      {"DescribeStackResources", {&CfnApi::DescribeStackResources, true}},
      {"ListStacks", {&CfnApi::ListStacks, true}},
      {"GetTemplate", {&CfnApi::GetTemplate, true}},
      {"UpdateStack", {&CfnApi::UpdateStack, true}},
      {"DescribeStackResource", {&CfnApi::DescribeStackResource, true}},
      {"ListStackResources", {&CfnApi::ListStackResources, true}},
      {"ListExports", {&CfnApi::ListExports, true}},
      {"ListImports", {&CfnApi::ListImports, true}},
      {"GetTemplateSummary", {&CfnApi::GetTemplateSummary, true}},
      {"UpdateTerminationProtection", {&CfnApi::UpdateTerminationProtection, true}},
      {"SetStackPolicy", {&CfnApi::SetStackPolicy, false}},
      {"GetStackPolicy", {&CfnApi::GetStackPolicy, true}},
      {"CreateChangeSet", {&CfnApi::CreateChangeSet, true}},
      {"DescribeChangeSet", {&CfnApi::DescribeChangeSet, true}},
      {"ExecuteChangeSet", {&CfnApi::ExecuteChangeSet, true}},
      {"DeleteChangeSet", {&CfnApi::DeleteChangeSet, true}},
      {"ListChangeSets", {&CfnApi::ListChangeSets, true}},
      {"ContinueUpdateRollback", {&CfnApi::ContinueUpdateRollback, true}},
      {"RollbackStack", {&CfnApi::RollbackStack, true}},
      {"CancelUpdateStack", {&CfnApi::CancelUpdateStack, false}},
      {"SignalResource", {&CfnApi::SignalResource, false}},
      {"DetectStackDrift", {&CfnApi::DetectStackDrift, true}},
      {"DetectStackResourceDrift", {&CfnApi::DetectStackResourceDrift, true}},
      {"DescribeStackDriftDetectionStatus", {&CfnApi::DescribeStackDriftDetectionStatus, true}},
      {"DescribeStackResourceDrifts", {&CfnApi::DescribeStackResourceDrifts, true}},
      {"CreateStackSet", {&CfnApi::CreateStackSet, true}},
      {"UpdateStackSet", {&CfnApi::UpdateStackSet, true}},
      {"DeleteStackSet", {&CfnApi::DeleteStackSet, true}},
      {"DescribeStackSet", {&CfnApi::DescribeStackSet, true}},
      {"ListStackSets", {&CfnApi::ListStackSets, true}},
      {"CreateStackInstances", {&CfnApi::CreateStackInstances, true}},
      {"UpdateStackInstances", {&CfnApi::UpdateStackInstances, true}},
      {"DeleteStackInstances", {&CfnApi::DeleteStackInstances, true}},
      {"DescribeStackInstance", {&CfnApi::DescribeStackInstance, true}},
      {"ListStackInstances", {&CfnApi::ListStackInstances, true}},
      {"DescribeStackSetOperation", {&CfnApi::DescribeStackSetOperation, true}},
      {"ListStackSetOperations", {&CfnApi::ListStackSetOperations, true}},
      {"ListStackSetOperationResults", {&CfnApi::ListStackSetOperationResults, true}},
      {"StopStackSetOperation", {&CfnApi::StopStackSetOperation, true}},
      {"DetectStackSetDrift", {&CfnApi::DetectStackSetDrift, true}},
      {"ImportStacksToStackSet", {&CfnApi::ImportStacksToStackSet, true}},
  };
  // The signature is checked first on AWS: a region it does not have is refused before the action is read.
  if (!IsAwsRegion(region)) return ErrorResponse(403, kInvalidRegionCode, InvalidRegionMessage(region), request_id);
  const std::string action = q.Get("Action");
  if (action.empty()) return ErrorResponse(400, "MissingAction", "Missing Action", request_id);
  auto it = kActions.find(action);
  if (it == kActions.end()) {
    return ErrorResponse(400, "InvalidAction", "moonstack does not implement " + action + " yet", request_id);
  }

  std::lock_guard<std::mutex> lock(mu_);
  OperationContext ctx = ctx_;
  ctx.region = region;
  ctx.account_id = account;
  StackService service(ctx);
  // The runner's key (its stack locks): the region alone for the default
  // account, so the CLI on the same state file takes the same lock.
  const std::string place = account == StackScope().account ? region : region + "/" + account;
  XmlWriter w;
  auto error = [&](const Status& s) { return ErrorResponse(HttpStatusOf(s), cli::ErrorCode(s), s.message(), request_id); };
  // A retried request is answered as the first one was, starting nothing (request_tokens.h).
  const std::string token = RequestTokens::Covers(action) ? q.Get("ClientRequestToken") : "";
  if (!token.empty()) {
    RequestTokens::Verdict verdict;
    std::string stack_id;
    Status s = tokens_.Check(service, action, token, q.Get("StackName"), &verdict, &stack_id);
    if (!s.ok()) return error(s);
    if (verdict == RequestTokens::Verdict::kConflict) {
      return ErrorResponse(400, "TokenAlreadyExistsException", kTokenAlreadyExists, request_id);
    }
    if (verdict == RequestTokens::Verdict::kRetry) {
      if (it->second.has_result) w.Text("StackId", stack_id);
      return ApiResponse{200, ResponseXml(action, it->second.has_result, w.str(), request_id)};
    }
  }
  Call call{q, service, place, w};
  Status s = (this->*(it->second.method))(call);
  if (!s.ok()) return error(s);
  if (!token.empty()) tokens_.Record(service, action, token, q.Get("StackName"));
  return ApiResponse{200, ResponseXml(action, it->second.has_result, w.str(), request_id)};
}

Status CfnApi::ValidateTemplate(Call& c) {
  std::string body;
  MS_RETURN_IF_ERROR(CheckTemplateBody(c.service.context(), c.q, max_template_body_, &body));
  Template t;
  TemplateSummary summary;
  MS_RETURN_IF_ERROR(ms::ValidateTemplate(body, &t, &summary, ctx_.providers));
  WriteTemplateSummary(c.w, summary);
  return Status::OK();
}

Status CfnApi::CreateStack(Call& c) {
  CreateStackInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &in.stack_name));
  MS_RETURN_IF_ERROR(CheckTemplateBody(c.service.context(), c.q, max_template_body_, &in.template_body));
  in.parameters = ParametersOf(c.q);
  in.tags = TagsOf(c.q);
  in.capabilities = c.q.List("Capabilities");
  in.on_failure = c.q.Get("OnFailure");
  if (std::optional<std::string> t = c.q.Find("TimeoutInMinutes")) {
    int64_t minutes = 0;
    if (!ParseInteger(*t, &minutes)) {  // AWS's wording for a non-number is not known; the shape is its own
      ConstraintErrors errors;
      errors.Add(*t, "timeoutInMinutes", "Member must be an integer");
      return errors.ToStatus();
    }
    in.timeout_in_minutes = minutes;
  }
  in.disable_rollback = c.q.Flag("DisableRollback");
  in.enable_termination_protection = c.q.Flag("EnableTerminationProtection");
  in.client_request_token = c.q.Get("ClientRequestToken");
  in.role_arn = c.q.Get("RoleARN");
  in.notification_arns = c.q.List("NotificationARNs");
  in.stack_policy_body = c.q.Get("StackPolicyBody");
  in.stack_policy_url = c.q.Get("StackPolicyURL");

  MS_RETURN_IF_ERROR(runner_->Reserve(c.region, in.stack_name));
  std::string id, operation_id;
  Status s = c.service.StartCreate(in, &id, &operation_id);
  if (!s.ok()) {
    runner_->Release(c.region, in.stack_name);
    return s;
  }
  runner_->Enqueue(in.stack_name, id, c.region);
  c.w.Text("StackId", id);
  c.w.Text("OperationId", operation_id);
  return Status::OK();
}

Status CfnApi::DeleteStack(Call& c) {
  DeleteStackInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &in.stack_name));
  in.retain_resources = c.q.List("RetainResources");
  in.client_request_token = c.q.Get("ClientRequestToken");
  StackRecord existing;
  if (!c.service.FindStack(in.stack_name, &existing).ok()) {
    std::string ignored;
    return c.service.StartDelete(in, &ignored);  // AWS: deleting a missing stack succeeds
  }
  MS_RETURN_IF_ERROR(runner_->Reserve(c.region, existing.name));
  std::string id;
  Status s = c.service.StartDelete(in, &id);
  if (!s.ok() || id.empty()) {
    runner_->Release(c.region, existing.name);
    return s;
  }
  runner_->Enqueue(existing.name, id, c.region);
  return Status::OK();
}

Status CfnApi::DescribeStacks(Call& c) {
  const std::string name = c.q.Get("StackName");
  std::vector<StackRecord> stacks;
  if (!name.empty()) {
    StackRecord r;
    MS_RETURN_IF_ERROR(c.service.FindStack(name, &r, StackRowParts::kRecordOnly));
    stacks.push_back(std::move(r));
  } else {
    std::vector<StackRecord> all;
    MS_RETURN_IF_ERROR(c.service.ListStacks(&all, StackRowParts::kRecordOnly));
    for (auto it = all.rbegin(); it != all.rend(); ++it) {  // newest first, as AWS lists them
      if (it->status != StackStatus::kDeleteComplete) stacks.push_back(std::move(*it));
    }
  }
  if (stacks.empty()) {
    c.w.Empty("Stacks");
    return Status::OK();
  }
  c.w.Open("Stacks");
  DriftDetection drift(c.service);
  for (const StackRecord& s : stacks) {
    DriftInformation info;
    MS_RETURN_IF_ERROR(drift.StackInformation(s.id, &info));
    WriteStack(c.w, s, info);
  }
  c.w.Close();
  return Status::OK();
}

Status CfnApi::DescribeStackEvents(Call& c) {
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  StackRecord stack;
  MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack, StackRowParts::kRecordOnly));
  PageRequest page{c.q.Get("NextToken"), kPageSize};
  std::vector<StackEvent> events;
  PageResult result;
  MS_RETURN_IF_ERROR(c.service.EventPage(stack.id, page, &events, &result));
  if (!result.found) return InvalidNextToken(page.from);
  if (events.empty()) {
    c.w.Empty("StackEvents");
  } else {
    c.w.Open("StackEvents");
    for (const StackEvent& e : events) WriteEvent(c.w, e);
    c.w.Close();
  }
  if (!result.next.empty()) c.w.Text("NextToken", result.next);
  return Status::OK();
}

Status CfnApi::DescribeStackResources(Call& c) {
  const std::string name = c.q.Get("StackName");
  const std::string physical_id = c.q.Get("PhysicalResourceId");
  const std::string logical_id = c.q.Get("LogicalResourceId");
  std::vector<std::pair<StackRecord, ResourceRecord>> found;
  if (!name.empty()) {
    StackRecord stack;
    MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack, StackRowParts::kRecordOnly));
    std::vector<ResourceRecord> resources;
    MS_RETURN_IF_ERROR(c.service.Resources(stack.id, &resources));
    for (ResourceRecord& r : resources) {
      if (!logical_id.empty() && r.logical_id != logical_id) continue;
      if (!physical_id.empty() && r.physical_id != physical_id) continue;
      found.emplace_back(stack, std::move(r));
    }
  } else if (!physical_id.empty()) {
    // The stack that owns the physical resource (AWS: the resources of that stack).
    std::vector<StackRecord> all;
    MS_RETURN_IF_ERROR(c.service.ListStacks(&all, StackRowParts::kRecordOnly));
    for (const StackRecord& stack : all) {
      if (stack.status == StackStatus::kDeleteComplete) continue;
      std::vector<ResourceRecord> resources;
      MS_RETURN_IF_ERROR(c.service.Resources(stack.id, &resources));
      bool owns = std::any_of(resources.begin(), resources.end(),
                              [&](const ResourceRecord& r) { return r.physical_id == physical_id; });
      if (!owns) continue;
      for (ResourceRecord& r : resources) {
        if (logical_id.empty() || r.logical_id == logical_id) found.emplace_back(stack, std::move(r));
      }
      break;
    }
    if (found.empty()) return Status::Validation("Stack for " + physical_id + " does not exist");
  } else {
    return Status::Validation("Either StackName or PhysicalResourceId must be specified.");
  }
  if (found.empty()) {
    c.w.Empty("StackResources");
    return Status::OK();
  }
  c.w.Open("StackResources");
  std::map<std::string, DriftInformation> drifts;  // of the one stack `found` is of
  MS_RETURN_IF_ERROR(DriftDetection(c.service).ResourceInformation(found.front().first.id, &drifts));
  for (const auto& [stack, r] : found) WriteStackResource(c.w, stack, r, drifts[r.logical_id]);
  c.w.Close();
  return Status::OK();
}

Status CfnApi::ListStacks(Call& c) {
  const std::vector<std::string> filter = c.q.List("StackStatusFilter");
  for (const std::string& f : filter) {
    StackStatus ignored;
    if (!ParseStackStatus(f, &ignored)) {
      // The same message as the CLI's list-stacks (cli/stack_commands.cc).
      return Status::Validation("1 validation error detected: Value '[" + f +
                                "]' at 'stackStatusFilter' failed to satisfy constraint: Member must satisfy "
                                "constraint: [Member must satisfy enum value set]");
    }
  }
  std::vector<StackRecord> all;
  MS_RETURN_IF_ERROR(c.service.ListStacks(&all, StackRowParts::kRecordOnly));
  std::vector<const StackRecord*> listed;
  std::vector<std::string> ids;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {  // newest first
    const std::string status = StackStatusName(it->status);
    if (!filter.empty() && std::find(filter.begin(), filter.end(), status) == filter.end()) continue;
    listed.push_back(&*it);
    ids.push_back(it->id);
  }
  size_t begin = 0, end = 0;
  MS_RETURN_IF_ERROR(PageOf(c.q, ids, &begin, &end));
  if (begin == end) {
    c.w.Empty("StackSummaries");
  } else {
    c.w.Open("StackSummaries");
    DriftDetection drift(c.service);
    for (size_t i = begin; i < end; ++i) {
      DriftInformation info;
      MS_RETURN_IF_ERROR(drift.StackInformation(listed[i]->id, &info));
      WriteStackSummary(c.w, *listed[i], info);
    }
    c.w.Close();
  }
  if (end < ids.size()) c.w.Text("NextToken", ids[end]);
  return Status::OK();
}

Status CfnApi::GetTemplate(Call& c) {
  std::string body;
  const std::string change_set = c.q.Get("ChangeSetName");
  if (!change_set.empty()) {  // the change set's template (a name needs its StackName, as DescribeChangeSet)
    ChangeSetRecord cs;
    MS_RETURN_IF_ERROR(ChangeSetService(c.service.context()).Describe(change_set, c.q.Get("StackName"), &cs));
    MS_RETURN_IF_ERROR(TemplateAtStage(cs, c.q.Get("TemplateStage"), &body));
  } else {
    std::string name;
    MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
    StackRecord stack;
    MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack));
    MS_RETURN_IF_ERROR(TemplateAtStage(stack, c.q.Get("TemplateStage"), &body));
  }
  c.w.Text("TemplateBody", body);
  c.w.Members("StagesAvailable", {"Original", "Processed"});
  return Status::OK();
}

Status CfnApi::UpdateStack(Call& c) {
  UpdateStackInput in;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &in.stack_name));
  in.use_previous_template = c.q.Flag("UsePreviousTemplate");
  if (!in.use_previous_template || !c.q.Get("TemplateBody").empty() || !c.q.Get("TemplateURL").empty()) {
    MS_RETURN_IF_ERROR(CheckTemplateBody(c.service.context(), c.q, max_template_body_, &in.template_body));
  }
  in.parameters = ParametersOf(c.q);
  in.capabilities = c.q.List("Capabilities");
  in.disable_rollback = c.q.Flag("DisableRollback");
  in.client_request_token = c.q.Get("ClientRequestToken");
  in.role_arn = c.q.Get("RoleARN");
  in.stack_policy_body = c.q.Get("StackPolicyBody");
  in.stack_policy_url = c.q.Get("StackPolicyURL");
  in.stack_policy_during_update_body = c.q.Get("StackPolicyDuringUpdateBody");
  in.stack_policy_during_update_url = c.q.Get("StackPolicyDuringUpdateURL");
  in.tags = GivenTagsOf(c.q);
  // An empty list (NotificationARNs=) removes them; none given keeps them.
  if (c.q.Has("NotificationARNs") || c.q.Has("NotificationARNs.member.1")) {
    in.notification_arns = c.q.List("NotificationARNs");
  }

  StackRecord existing;
  if (!c.service.FindStack(in.stack_name, &existing).ok()) {
    std::string ignored;
    return c.service.StartUpdate(in, &ignored);  // AWS's "Stack [x] does not exist"
  }
  MS_RETURN_IF_ERROR(runner_->Reserve(c.region, existing.name));
  std::string id, operation_id;
  Status s = c.service.StartUpdate(in, &id, &operation_id);  // "No updates are to be performed." is a ValidationError
  if (!s.ok()) {
    runner_->Release(c.region, existing.name);
    return s;
  }
  runner_->Enqueue(existing.name, id, c.region);
  c.w.Text("StackId", id);
  c.w.Text("OperationId", operation_id);
  return Status::OK();
}

Status CfnApi::DescribeStackResource(Call& c) {
  std::string name, logical_id;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "LogicalResourceId", "logicalResourceId", &logical_id));
  StackRecord stack;
  MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack));
  std::vector<ResourceRecord> resources;
  MS_RETURN_IF_ERROR(c.service.Resources(stack.id, &resources));
  for (const ResourceRecord& r : resources) {
    if (r.logical_id != logical_id) continue;
    std::map<std::string, DriftInformation> drifts;
    MS_RETURN_IF_ERROR(DriftDetection(c.service).ResourceInformation(stack.id, &drifts));
    WriteStackResourceDetail(c.w, stack, r, c.service.ResourceMetadata(stack, resources, r.logical_id),
                             drifts[r.logical_id]);
    return Status::OK();
  }
  // The same message as the CLI's describe-stack-resource (cli/stack_commands.cc).
  return Status::Validation("Resource " + logical_id + " does not exist for stack " + name);
}

Status CfnApi::ListStackResources(Call& c) {
  std::string name;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  StackRecord stack;
  MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack, StackRowParts::kRecordOnly));
  PageRequest page{c.q.Get("NextToken"), kPageSize};
  std::vector<ResourceRecord> resources;
  PageResult result;
  MS_RETURN_IF_ERROR(c.service.ResourcePage(stack.id, page, &resources, &result));
  if (!result.found) return InvalidNextToken(page.from);
  if (resources.empty()) {
    c.w.Empty("StackResourceSummaries");
    return Status::OK();
  }
  c.w.Open("StackResourceSummaries");
  std::map<std::string, DriftInformation> drifts;
  MS_RETURN_IF_ERROR(DriftDetection(c.service).ResourceInformation(stack.id, &drifts));
  for (const ResourceRecord& r : resources) WriteStackResourceSummary(c.w, r, drifts[r.logical_id]);
  c.w.Close();
  if (!result.next.empty()) c.w.Text("NextToken", result.next);
  return Status::OK();
}

Status CfnApi::ListExports(Call& c) {
  std::vector<StackRecord> stacks;
  MS_RETURN_IF_ERROR(c.service.ListStacks(&stacks, StackRowParts::kRecordOnly));
  struct Export {
    const StackRecord* stack;
    const StackOutputValue* output;
  };
  std::vector<Export> exports;
  std::vector<std::string> names;  // export names are unique: the page tokens
  for (const StackRecord& st : stacks) {
    if (st.status == StackStatus::kDeleteComplete) continue;
    for (const StackOutputValue& o : st.outputs) {
      if (o.export_name.empty()) continue;
      exports.push_back({&st, &o});
      names.push_back(o.export_name);
    }
  }
  size_t begin = 0, end = 0;
  MS_RETURN_IF_ERROR(PageOf(c.q, names, &begin, &end));
  if (begin == end) {
    c.w.Empty("Exports");
    return Status::OK();
  }
  c.w.Open("Exports");
  for (size_t i = begin; i < end; ++i) {
    c.w.Open("member");
    c.w.Text("ExportingStackId", exports[i].stack->id);
    c.w.Text("Name", exports[i].output->export_name);
    c.w.Text("Value", exports[i].output->value);
    c.w.Close();
  }
  c.w.Close();
  if (end < names.size()) c.w.Text("NextToken", names[end]);
  return Status::OK();
}

Status CfnApi::ListImports(Call& c) {
  std::string export_name;
  MS_RETURN_IF_ERROR(Required(c.q, "ExportName", "exportName", &export_name));
  std::vector<StackRecord> stacks;
  MS_RETURN_IF_ERROR(c.service.ListStacks(&stacks, StackRowParts::kRecordOnly));
  std::vector<std::string> names;
  for (const StackRecord& st : stacks) {
    if (st.status == StackStatus::kDeleteComplete) continue;
    if (std::find(st.imports.begin(), st.imports.end(), export_name) != st.imports.end()) names.push_back(st.name);
  }
  // The same message as the CLI's list-imports (cli/stack_commands.cc).
  if (names.empty()) return Status::Validation("Export '" + export_name + "' is not imported by any stack.");
  size_t begin = 0, end = 0;
  MS_RETURN_IF_ERROR(PageOf(c.q, names, &begin, &end));
  c.w.Members("Imports", std::vector<std::string>(names.begin() + static_cast<long>(begin),
                                                  names.begin() + static_cast<long>(end)));
  if (end < names.size()) c.w.Text("NextToken", names[end]);
  return Status::OK();
}

Status CfnApi::GetTemplateSummary(Call& c) {
  std::string body;
  const std::string name = c.q.Get("StackName");
  if (!name.empty()) {
    StackRecord stack;
    MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack));
    body = stack.template_body;
  } else {
    MS_RETURN_IF_ERROR(CheckTemplateBody(c.service.context(), c.q, max_template_body_, &body));
  }
  Template t;
  TemplateSummary summary;
  MS_RETURN_IF_ERROR(ms::ValidateTemplate(body, &t, &summary, ctx_.providers));
  WriteTemplateSummaryDetail(c.w, t, summary);
  return Status::OK();
}

Status CfnApi::UpdateTerminationProtection(Call& c) {
  std::string name, flag;
  MS_RETURN_IF_ERROR(Required(c.q, "StackName", "stackName", &name));
  MS_RETURN_IF_ERROR(Required(c.q, "EnableTerminationProtection", "enableTerminationProtection", &flag));
  StackRecord stack;
  MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack));
  // The runner's thread saves its stack record whole at each checkpoint, so a
  // change made meanwhile would be lost: moonstack refuses it (AWS does not).
  if (runner_->Busy(c.region, stack.name)) {
    return Status::Validation("moonstack cannot change termination protection while an operation is in progress "
                              "on stack [" + stack.name + "]");
  }
  stack.termination_protection = c.q.Flag("EnableTerminationProtection");
  StoreBatch batch;
  batch.stacks.push_back(stack);
  MS_RETURN_IF_ERROR(CommitBatch(ctx_.db, nullptr, &batch));
  c.w.Text("StackId", stack.id);
  return Status::OK();
}

Status CfnApi::Reset(World* world) {
  std::lock_guard<std::mutex> lock(mu_);  // no request starts an operation meanwhile
  // The operations running or queued stop at their next checkpoint (a custom
  // resource waiting for its response could hold a reset off for an hour);
  // their stacks are deleted below with the rest.
  struct Paused {
    OperationRunner* runner;
    ~Paused() { runner->Resume(); }
  } paused{runner_};
  if (!runner_->Pause(std::chrono::seconds(10))) {
    return Status::Validation("moonstack cannot reset: a stack operation did not stop within 10 seconds");
  }
  MS_RETURN_IF_ERROR(ctx_.db->Transaction([&] {
    // Everything stored under a stack: a new stack after the reset may get
    // an old one's key (provider_logs, operations).
    for (const char* table : {"events", "resources", "exports", "change_sets", "stack_templates", "provider_logs",
                              "operations", "drift_detections", "resource_drifts", "stacks"}) {
      MS_RETURN_IF_ERROR(ctx_.db->Exec(std::string("DELETE FROM ") + table));
    }
    return DeleteAllStackSets(ctx_.db);
  }));
  world->Clear();
  return SaveWorld(ctx_.db, world);
}

}  // namespace ms::server
