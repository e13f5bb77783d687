#include "stack/resource_metadata.h"

#include <memory>
#include <unordered_map>

#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "stack/stack_environment.h"
#include "store/stack_tables.h"
#include "template/template_cache.h"

namespace ms {
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
  StackScope scope;  // region and account from the stack's ARN
  ScopeOfArn(stack.id, &scope);
  StackEnvironment env(
      [db, scope](const std::string& name, std::string* value) { return ExportValue(db, scope, name, value); },
      nullptr, nullptr);
  for (const ResourceRecord& r : resources) env.SetResource(&r);
  PseudoParameters pseudo;
  pseudo.region = scope.region;
  pseudo.account_id = scope.account;
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
