#include "stack/resource_metadata.h"

#include <memory>
#include <unordered_map>

#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "stack/stack_environment.h"
#include "store/stack_tables.h"
#include "template/template_cache.h"

namespace ms {
namespace {

// "arn:aws:cloudformation:us-east-1:123456789012:stack/name/uuid" split on ':'.
std::vector<std::string> SplitArn(const std::string& arn) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t colon; parts.size() < 5 && (colon = arn.find(':', start)) != std::string::npos; start = colon + 1) {
    parts.push_back(arn.substr(start, colon - start));
  }
  parts.push_back(arn.substr(start));
  return parts;
}

}  // namespace

std::string ResourceMetadataJson(Database* db, const StackRecord& stack, const std::vector<ResourceRecord>& resources,
                                 const std::string& logical_id) {
  std::shared_ptr<const Template> tmpl;
  if (!CachedTemplate(stack.template_body, &tmpl).ok()) return "";
  const ResourceDecl* decl = tmpl->FindResource(logical_id);
  if (decl == nullptr || decl->metadata.is_null()) return "";

  std::vector<ParameterInput> given;
  std::unordered_map<std::string, std::string> resolved;  // SSM types: what they resolved to
  for (const StackParameterValue& p : stack.parameters) {
    given.push_back({p.key, p.value, false});
    if (!p.resolved_value.empty()) resolved[p.key] = p.resolved_value;
  }
  ParameterValues params;
  if (!ResolveParameters(*tmpl, given, {}, &params).ok()) return "";
  for (ResolvedParameter& r : params.list) {
    auto it = resolved.find(r.name);
    if (it != resolved.end()) r.ssm_resolved = it->second;
  }
  StackEnvironment env([db](const std::string& name, std::string* value) { return ExportValue(db, name, value); },
                       nullptr, nullptr);
  for (const ResourceRecord& r : resources) env.SetResource(&r);
  PseudoParameters pseudo;  // region and account from the stack's ARN
  const std::vector<std::string> arn = SplitArn(stack.id);
  if (arn.size() > 4) {
    pseudo.region = arn[3];
    pseudo.account_id = arn[4];
  }
  pseudo.stack_name = stack.name;
  pseudo.stack_id = stack.id;
  Evaluator ev(*tmpl, params, pseudo, env);
  Value metadata;
  if (!ev.EvaluateConditions().ok() || !ev.Evaluate(decl->metadata, Section::kResourceProperties, &metadata).ok()) {
    return "";
  }
  return metadata.is_null() ? "" : metadata.ToJson();
}

}  // namespace ms
