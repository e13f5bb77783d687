#include "eval/validate.h"

#include <algorithm>

#include "base/strings.h"
#include "catalog/resource_catalog.h"
#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "graph/graph.h"
#include "policy/resource_policies.h"
#include "template/include_declarations.h"
#include "template/parse.h"

namespace ms {
namespace {

// IAM types that need a capability, and the property that names them.
struct IamType {
  const char* type;
  const char* name_property;  // nullptr: never named
};
constexpr IamType kIamTypes[] = {
    {"AWS::IAM::AccessKey", nullptr},
    {"AWS::IAM::Group", "GroupName"},
    {"AWS::IAM::InstanceProfile", "InstanceProfileName"},
    {"AWS::IAM::ManagedPolicy", "ManagedPolicyName"},
    {"AWS::IAM::Policy", nullptr},
    {"AWS::IAM::Role", "RoleName"},
    {"AWS::IAM::RolePolicy", nullptr},
    {"AWS::IAM::User", "UserName"},
    {"AWS::IAM::UserPolicy", nullptr},
    {"AWS::IAM::GroupPolicy", nullptr},
    {"AWS::IAM::UserToGroupAddition", nullptr},
};

// What validation knows of the resource types: the providers first, then
// AWS's catalog.
struct KnownTypes {
  const ProviderRuntime* providers;
  const ResourceCatalog& catalog;

  bool Known(std::string_view type) const {
    return (providers != nullptr && providers->Schema(type) != nullptr) || catalog.Find(type) != nullptr;
  }
  // False only when the type is known and has no such attribute.
  bool MayHaveAttribute(std::string_view type, std::string_view attribute) const {
    if (providers != nullptr) {
      if (const TypeSchema* s = providers->Schema(type)) {
        return s->accepts_undeclared_properties || s->HasAttribute(attribute);
      }
    }
    const ResourceTypeInfo* info = catalog.Find(type);
    return info == nullptr || info->HasAttribute(attribute);
  }
};

Status CheckResourceTypes(const Template& t, const KnownTypes& known) {
  std::vector<std::string> unknown;
  for (const ResourceDecl& r : t.resources) {
    if (!known.Known(r.type) &&
        std::find(unknown.begin(), unknown.end(), r.type) == unknown.end()) {
      unknown.push_back(r.type);
    }
  }
  if (unknown.empty()) return Status::OK();
  return Status::Validation("Template format error: Unrecognized resource types: [" +
                            Join(unknown, ", ") + "]");
}

// Every Fn::GetAtt (and ${X.Attr}) names an attribute the target's type has.
Status CheckAttribute(const Template& t, const KnownTypes& known, const Reference& ref) {
  if (ref.kind != Reference::Kind::kGetAtt && ref.kind != Reference::Kind::kSub) return Status::OK();
  if (ref.attribute.empty()) return Status::OK();
  const ResourceDecl* target = t.FindResource(ref.target);
  if (target == nullptr || known.MayHaveAttribute(target->type, ref.attribute)) return Status::OK();
  return Status::Validation("Template error: resource " + ref.target +
                            " does not support attribute type " + ref.attribute + " in Fn::GetAtt");
}

// An Output's Fn::GetAtt is not checked here: AWS accepts it and fails the
// deploy when it evaluates the outputs (CheckOutputAttributes).
Status CheckAttributes(const Template& t, const KnownTypes& known) {
  std::vector<Reference> refs;
  for (const ResourceDecl& r : t.resources) {
    for (const Value* part : {&r.properties, &r.metadata, &r.creation_policy, &r.update_policy}) {
      MS_RETURN_IF_ERROR(CollectReferences(*part, &refs));
    }
  }
  for (const OutputDecl& o : t.outputs) {
    std::vector<Reference> own;
    MS_RETURN_IF_ERROR(CollectReferences(o.value, &own));
    for (Reference& ref : own) {
      if (ref.kind != Reference::Kind::kGetAtt) refs.push_back(std::move(ref));
    }
  }
  for (const Reference& ref : refs) MS_RETURN_IF_ERROR(CheckAttribute(t, known, ref));
  return Status::OK();
}

// Evaluates the resource's UpdatePolicy and CreationPolicy and checks what
// they say (policy/resource_policies.h); what is still Unknown is not.
Status CheckPoliciesOf(const Evaluator& ev, const ResourceDecl& r) {
  Value update_policy;
  Value creation_policy;
  MS_RETURN_IF_ERROR(ev.Evaluate(r.creation_policy, Section::kResourceProperties, &creation_policy));
  MS_RETURN_IF_ERROR(ev.Evaluate(r.update_policy, Section::kResourceProperties, &update_policy));
  return CheckResourcePolicies(r.logical_id, r.type, update_policy, creation_policy);
}

// Evaluates every expression with nothing known but the template itself:
// parameters and resources are Unknown, so both sides of every Fn::If are
// checked. Finds misplaced and malformed functions before a stack exists.
Status EvaluateStatically(const Template& t) {
  ParameterValues params;
  PseudoParameters pseudo;
  EvalEnvironment env;
  Evaluator ev(t, params, pseudo, env);
  ev.set_static(true);
  MS_RETURN_IF_ERROR(ev.EvaluateConditions());
  MS_RETURN_IF_ERROR(ev.CheckRules());
  Value out;
  for (const ResourceDecl& r : t.resources) {
    MS_RETURN_IF_ERROR(ev.Evaluate(r.properties, Section::kResourceProperties, &out));
    MS_RETURN_IF_ERROR(ev.Evaluate(r.metadata, Section::kResourceProperties, &out));
    MS_RETURN_IF_ERROR(CheckPoliciesOf(ev, r));
    MS_RETURN_IF_ERROR(ev.Evaluate(r.deletion_policy, Section::kResourcePolicy, &out));
    MS_RETURN_IF_ERROR(ev.Evaluate(r.update_replace_policy, Section::kResourcePolicy, &out));
  }
  for (const OutputDecl& o : t.outputs) {
    // An output whose Condition is false is left out (as AWS does), and so
    // is its reference to a resource with the same false Condition.
    if (!o.condition.empty() && ev.ConditionValue(o.condition) == std::optional<bool>(false)) continue;
    MS_RETURN_IF_ERROR(ev.Evaluate(o.value, Section::kOutputs, &out));
    MS_RETURN_IF_ERROR(ev.Evaluate(o.export_name, Section::kOutputs, &out));
    MS_RETURN_IF_ERROR(ev.Evaluate(o.description, Section::kOutputs, &out));
  }
  return Status::OK();
}

}  // namespace

void RequiredCapabilities(const Template& t, std::vector<std::string>* capabilities,
                          std::string* reason) {
  capabilities->clear();
  reason->clear();
  std::vector<std::string> types;
  bool named = false;
  for (const ResourceDecl& r : t.resources) {
    for (const IamType& iam : kIamTypes) {
      if (r.type != iam.type) continue;
      if (std::find(types.begin(), types.end(), r.type) == types.end()) types.push_back(r.type);
      if (iam.name_property && r.properties.is_map() && r.properties.find(iam.name_property)) {
        named = true;
      }
    }
  }
  if (types.empty()) return;
  capabilities->push_back(named ? "CAPABILITY_NAMED_IAM" : "CAPABILITY_IAM");
  *reason = "The following resource(s) require capabilities: [" + Join(types, ", ") + "]";
}

Status CheckCapabilities(const Template& t, const std::vector<std::string>& given) {
  std::vector<std::string> required;
  std::string reason;
  RequiredCapabilities(t, &required, &reason);
  auto has = [&](const char* c) { return std::find(given.begin(), given.end(), c) != given.end(); };
  for (const std::string& c : required) {
    const bool ok = c == "CAPABILITY_IAM" ? has("CAPABILITY_IAM") || has("CAPABILITY_NAMED_IAM") : has(c.c_str());
    if (!ok) return Status::InsufficientCapabilities("Requires capabilities : [" + c + "]");
  }
  return Status::OK();
}

Status CheckOutputAttributes(const Template& t, const OutputDecl& o, const ProviderRuntime* providers) {
  const KnownTypes known{providers, ResourceCatalog::Aws()};
  std::vector<Reference> refs;
  MS_RETURN_IF_ERROR(CollectReferences(o.value, &refs));
  for (const Reference& ref : refs) {
    if (ref.kind != Reference::Kind::kGetAtt || ref.attribute.empty()) continue;
    const ResourceDecl* target = t.FindResource(ref.target);
    if (target == nullptr || known.MayHaveAttribute(target->type, ref.attribute)) continue;
    return Status::Validation("[Error] /Outputs/" + o.name + "/Value/Fn::GetAtt: Resource type " + target->type +
                              " does not support attribute {" + ref.attribute + "}. Rollback requested by user.");
  }
  return Status::OK();
}

Status EvaluateWithParameters(const Evaluator& ev) {
  Value out;
  for (const ResourceDecl& r : ev.tmpl().resources) {
    if (!ev.Included(r.condition)) continue;
    MS_RETURN_IF_ERROR(ev.Evaluate(r.properties, Section::kResourceProperties, &out));
    MS_RETURN_IF_ERROR(ev.Evaluate(r.metadata, Section::kResourceProperties, &out));
  }
  for (const OutputDecl& o : ev.tmpl().outputs) {
    if (!ev.Included(o.condition)) continue;
    MS_RETURN_IF_ERROR(ev.Evaluate(o.value, Section::kOutputs, &out));
    MS_RETURN_IF_ERROR(ev.Evaluate(o.export_name, Section::kOutputs, &out));
  }
  return Status::OK();
}

Status CheckEvaluatedPolicies(const Evaluator& ev) {
  for (const ResourceDecl& r : ev.tmpl().resources) {
    if (ev.Included(r.condition)) MS_RETURN_IF_ERROR(CheckPoliciesOf(ev, r));
  }
  return Status::OK();
}

namespace {

// What ValidateTemplate answers of a template that passed its checks.
void Summarize(const Template& t, TemplateSummary* summary) {
  *summary = TemplateSummary();
  for (const ParameterDecl& p : t.parameters) {
    summary->parameters.push_back({p.name, p.default_value, p.no_echo, p.description});
  }
  if (t.description.is_string()) summary->description = t.description.str();
  RequiredCapabilities(t, &summary->capabilities, &summary->capabilities_reason);
  summary->declared_transforms = t.transforms;
}

}  // namespace

Status ValidateTemplate(std::string_view text, Template* t, TemplateSummary* summary,
                        const ProviderRuntime* providers) {
  if (text.find("AWS::Include") != std::string_view::npos) {  // most templates have none: one parse
    Value root;
    MS_RETURN_IF_ERROR(ParseTemplateText(text, &root));
    if (DeclaresInclude(root)) {
      // As AWS: the include is declared, not run; what the template names
      // itself is checked. AWS names no capabilities for a template with a
      // macro (aws-cli issue 4747, confirmed by AWS support).
      MS_RETURN_IF_ERROR(LoadTemplateDeclarations(std::move(root), t));
      MS_RETURN_IF_ERROR(ValidateParameterDecls(*t));
      Summarize(*t, summary);
      summary->capabilities.clear();
      summary->capabilities_reason.clear();
      return Status::OK();
    }
  }
  MS_RETURN_IF_ERROR(LoadTemplate(text, t));
  return ValidateLoadedTemplate(*t, summary, providers);
}

Status ValidateLoadedTemplate(const Template& t, TemplateSummary* summary, const ProviderRuntime* providers,
                              DependencyGraph* graph) {
  MS_RETURN_IF_ERROR(ValidateParameterDecls(t));
  const KnownTypes known{providers, ResourceCatalog::Aws()};
  MS_RETURN_IF_ERROR(CheckResourceTypes(t, known));
  DependencyGraph own;
  MS_RETURN_IF_ERROR(DependencyGraph::Build(t, nullptr, nullptr, graph != nullptr ? graph : &own));
  MS_RETURN_IF_ERROR(CheckAttributes(t, known));
  MS_RETURN_IF_ERROR(EvaluateStatically(t));
  Summarize(t, summary);
  return Status::OK();
}

}  // namespace ms
