#include "plan/planner.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "catalog/resource_schemas.h"
#include "eval/evaluator.h"
#include "graph/references.h"
#include "plan/property_diff.h"
#include "policy/stack_policy.h"
#include "template/template_cache.h"
#include "policy/update_restrictions.h"

namespace ms {
namespace {

// Without conditions every resource is included and no Fn::If has a branch
// to drop: the graph is the one validation builds.
bool NoConditions(const Template& t) {
  return t.conditions.is_null() || (t.conditions.is_map() && t.conditions.map().empty());
}

const Value kNullValue;

// The schema's defaults for the properties `props` (a map) omits or nulls:
// what the provider's validation would fill in.
void FillDefaults(const TypeSchema& schema, Value* props) {
  for (const PropertySchema& p : schema.properties) {
    if (p.default_value.is_null()) continue;
    const Value* v = props->find(p.name);
    if (v == nullptr || v->is_null()) props->set(p.name, p.default_value);
  }
}

// An SSM parameter type's value: looked up, else the deployed stack's
// resolved value when the parameter name is unchanged; else left Unknown
// (changes behind it are then Dynamic).
void ResolveSsm(const PlanInput& in, bool use_lookup, ParameterValues* values) {
  for (ResolvedParameter& r : values->list) {
    std::string inner;
    if (!IsSsmParameterType(r.type, &inner)) continue;
    std::string v;
    bool found = use_lookup && in.ssm && in.ssm(r.text, &v);
    if (!found) {
      for (const StackParameterValue& p : in.stack->parameters) {
        if (p.key == r.name && p.value == r.text && !p.resolved_value.empty()) {
          v = p.resolved_value;
          found = true;
        }
      }
    }
    if (!found) continue;
    r.ssm_resolved = v;
    r.value = ParameterValueOf(inner, v);
  }
}

// Names of the parameters whose value differs between the two stacks.
std::unordered_set<std::string> ChangedParameters(const ParameterValues& old_p, const ParameterValues& new_p) {
  std::unordered_set<std::string> out;
  for (const ResolvedParameter& n : new_p.list) {
    const ResolvedParameter* o = old_p.Find(n.name);
    if (o == nullptr || !SameValue(o->value, n.value)) out.insert(n.name);
  }
  for (const ResolvedParameter& o : old_p.list) {
    if (new_p.Find(o.name) == nullptr) out.insert(o.name);
  }
  return out;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The resource attributes that make no change on their own.
std::vector<std::string> PolicyChanges(const ResourceDecl& o, const ResourceDecl& n) {
  std::vector<std::string> out;  // alphabetical
  if (!SameValue(o.creation_policy, n.creation_policy)) out.push_back("CreationPolicy");
  if (!SameValue(o.deletion_policy, n.deletion_policy)) out.push_back("DeletionPolicy");
  if (Sorted(o.depends_on) != Sorted(n.depends_on)) out.push_back("DependsOn");
  if (!SameValue(o.update_policy, n.update_policy)) out.push_back("UpdatePolicy");
  if (!SameValue(o.update_replace_policy, n.update_replace_policy)) out.push_back("UpdateReplacePolicy");
  return out;
}

const Value& PropertyExpr(const ResourceDecl* d, std::string_view name) {
  if (d == nullptr || !d->properties.is_map()) return kNullValue;
  const Value* v = d->properties.find(name);
  return v == nullptr ? kNullValue : *v;
}

bool DetailLess(const ChangeDetail& a, const ChangeDetail& b) {
  return std::tie(a.attribute, a.name, a.evaluation, a.source, a.causing_entity) <
         std::tie(b.attribute, b.name, b.evaluation, b.source, b.causing_entity);
}

class Planner {
 public:
  Planner(const PlanInput& in, Plan* out) : in_(in), out_(out), env_(in.exports), old_env_(in.exports) {
    env_.set_stack_outputs(in.stack_outputs);
    old_env_.set_stack_outputs(in.stack_outputs);
  }

  Status Run() {
    if (in_.stack == nullptr || in_.resources == nullptr) return Status::Internal("MakePlan: no deployed stack");
    MS_RETURN_IF_ERROR(LoadTemplates());
    MS_RETURN_IF_ERROR(LoadParameters());
    out_->pseudo = in_.pseudo;
    stack_tags_change_ = in_.new_stack_tags != nullptr && !SameStackTags(in_.stack->tags, *in_.new_stack_tags);

    for (const ResourceRecord& r : *in_.resources) {
      if (r.physical_id.empty()) continue;  // never created: nothing deployed
      deployed_.emplace(r.logical_id, &r);
      env_.AddDeployed(&r);
      old_env_.AddDeployed(&r);
    }

    eval_ = std::make_unique<Evaluator>(*out_->tmpl, out_->parameters, out_->pseudo, env_);
    MS_RETURN_IF_ERROR(eval_->EvaluateConditions());
    DependencyGraph::Inclusion included = [this](const ResourceDecl& r) { return eval_->Included(r.condition); };
    oracle_ = [this](std::string_view c) -> std::optional<bool> { return eval_->ConditionValue(c); };
    if (in_.new_graph != nullptr && in_.new_template == out_->tmpl && NoConditions(*out_->tmpl)) {
      out_->graph = std::move(*in_.new_graph);
    } else {
      MS_RETURN_IF_ERROR(DependencyGraph::Build(*out_->tmpl, &included, &oracle_, &out_->graph));
    }

    const DependencyGraph& g = out_->graph;
    out_->resources.reserve(g.size());
    for (int node : g.order()) {
      ResourcePlan rp;
      MS_RETURN_IF_ERROR(PlanResource(node, &rp));
      out_->resources.push_back(std::move(rp));
    }
    // Deployed resources the new stack does not have (gone, or their
    // Condition is now false): removed, sorted by logical ID.
    std::vector<const ResourceRecord*> removed;
    for (const auto& [id, rec] : deployed_) {
      if (g.Find(id) < 0) removed.push_back(rec);
    }
    std::sort(removed.begin(), removed.end(),
              [](const ResourceRecord* a, const ResourceRecord* b) { return a->logical_id < b->logical_id; });
    for (const ResourceRecord* rec : removed) {
      ResourcePlan rp;
      rp.logical_id = rec->logical_id;
      rp.type = rec->type;
      rp.old_type = rec->type;
      rp.physical_id = rec->physical_id;
      rp.action = ChangeAction::kRemove;
      rp.old_update_policy = OldEvaluated(old_tmpl_->FindResource(rec->logical_id), &ResourceDecl::update_policy);
      out_->resources.push_back(std::move(rp));
    }
    out_->index.reserve(out_->resources.size());
    for (size_t i = 0; i < out_->resources.size(); ++i) out_->index.emplace(out_->resources[i].logical_id, i);
    return ApplyPolicies();
  }

 private:
  Status LoadTemplates() {
    old_tmpl_ = in_.old_template;
    if (old_tmpl_ == nullptr) {
      Status s = CachedTemplate(in_.stack->template_body, &old_tmpl_);
      if (!s.ok()) return Status::Internal("the deployed template does not load: " + s.message());
    }
    if (in_.new_template != nullptr) {
      out_->tmpl = in_.new_template;
    } else {
      MS_RETURN_IF_ERROR(CachedTemplate(in_.template_body, &out_->tmpl));
    }
    return Status::OK();
  }

  Status LoadParameters() {
    std::map<std::string, std::string> previous;
    std::vector<ParameterInput> deployed;
    for (const StackParameterValue& p : in_.stack->parameters) {
      previous[p.key] = p.value;
      deployed.push_back({p.key, p.value, false});
    }
    MS_RETURN_IF_ERROR(ResolveParameters(*out_->tmpl, in_.parameters, previous, &out_->parameters));
    ResolveSsm(in_, /*use_lookup=*/true, &out_->parameters);
    // The deployed values resolved against the deployed template; should
    // that fail, every parameter counts as changed (only the causes shown
    // depend on it).
    if (ResolveParameters(*old_tmpl_, deployed, {}, &old_params_).ok()) {
      ResolveSsm(in_, /*use_lookup=*/false, &old_params_);
    } else {
      old_params_ = ParameterValues();
    }
    changed_params_ = ChangedParameters(old_params_, out_->parameters);
    return Status::OK();
  }

  // The stack policy's verdicts and the UpdatePolicy restrictions, recorded
  // per resource for the synchronous check and the executor.
  Status ApplyPolicies() {
    std::string body;
    if (in_.stack_policy_body.has_value()) {
      body = *in_.stack_policy_body;
    } else if (in_.stack->status == StackStatus::kUpdateInProgress &&
               !in_.stack->stack_policy_during_update_body.empty()) {
      body = in_.stack->stack_policy_during_update_body;
    } else {
      body = in_.stack->stack_policy_body;
    }
    StackPolicy policy;
    MS_RETURN_IF_ERROR(StackPolicy::Parse(body, &policy));
    for (ResourcePlan& rp : out_->resources) {
      // The deployed resource is what the policy protects (a type change
      // replaces it).
      const std::string& type = rp.old_type.empty() ? rp.type : rp.old_type;
      if (rp.action == ChangeAction::kModify) {
        if (rp.replacement != Replacement::kTrue) {
          rp.policy_denies_modify = !policy.Allows(PolicyAction::kModify, rp.logical_id, type);
        }
        if (rp.replacement != Replacement::kFalse) {
          rp.policy_denies_replace = !policy.Allows(PolicyAction::kReplace, rp.logical_id, type);
        }
      } else if (rp.action == ChangeAction::kRemove) {
        rp.policy_denies_delete = !policy.Allows(PolicyAction::kDelete, rp.logical_id, type);
      }
      if (rp.node >= 0) {
        // A malformed Allow is CheckUpdateRestrictions' error; here it
        // restricts nothing.
        UpdateRestrictions r;
        if (ParseUpdateRestrictions(rp.logical_id, rp.update_policy, &r).ok()) {
          rp.allow_update = r.allow_update;
          rp.allow_replace = r.allow_replace;
        }
      }
    }
    return Status::OK();
  }

  // A provider's update-behaviour functions see the evaluated UpdatePolicy
  // (WillReplace, UseOnlineResharding, ... decide replacement).
  HookContext Context(const ResourceDecl& d, const Value& update_policy) const {
    HookContext c;
    c.stack_name = in_.pseudo.stack_name;
    c.stack_id = in_.pseudo.stack_id;
    c.logical_id = d.logical_id;
    c.region = in_.pseudo.region;
    c.account_id = in_.pseudo.account_id;
    c.update_policy = update_policy;
    c.now_ms = in_.now_ms;
    return c;
  }

  // The new template's UpdatePolicy, evaluated; null when it has none or a
  // part is only known once the update runs.
  Value NewUpdatePolicy(const ResourceDecl& d) const {
    Value v;
    if (d.update_policy.is_null() || !eval_->Evaluate(d.update_policy, Section::kResourceProperties, &v).ok() ||
        HasUnknown(v)) {
      return Value();
    }
    return v;
  }

  const TypeSchema* Schema(std::string_view type) const {
    if (in_.session != nullptr) return in_.session->Schema(type);
    return in_.runtime == nullptr ? nullptr : in_.runtime->Schema(type);
  }

  // The deployed Metadata: the deployed template's, evaluated against the
  // deployed stack (built on first use: most resources have none).
  Value OldMetadata(const ResourceDecl* old) { return OldEvaluated(old, &ResourceDecl::metadata); }

  // One part of a deployed resource's declaration (Metadata, UpdatePolicy)
  // evaluated against the deployed stack (the evaluator is built on first
  // use: most resources have neither). Null when absent or not evaluable.
  Value OldEvaluated(const ResourceDecl* old, Value ResourceDecl::*part) {
    if (old == nullptr || (old->*part).is_null()) return Value();
    if (old_eval_ == nullptr) {
      old_eval_ = std::make_unique<Evaluator>(*old_tmpl_, old_params_, out_->pseudo, old_env_);
      old_eval_ok_ = old_eval_->EvaluateConditions().ok();
    }
    Value v;
    if (!old_eval_ok_ || !old_eval_->Evaluate(old->*part, Section::kResourceProperties, &v).ok()) return Value();
    return v;
  }

  // Why a known part of this property changed: the parameters it refers to
  // whose values changed, and/or an edit of the template itself.
  void StaticCauses(const Value& old_expr, const Value& new_expr,
                    std::vector<std::pair<ChangeSource, std::string>>* out) const {
    std::vector<Reference> refs;
    if (!changed_params_.empty() && CollectReferences(new_expr, &refs, &oracle_).ok()) {
      std::set<std::string> params;
      for (const Reference& r : refs) {
        if (r.kind != Reference::Kind::kCondition && r.attribute.empty() && changed_params_.count(r.target)) {
          params.insert(r.target);
        }
      }
      for (const std::string& p : params) out->push_back({ChangeSource::kParameterReference, p});
    }
    if (out->empty() || !SameValue(old_expr, new_expr)) out->push_back({ChangeSource::kDirectModification, ""});
  }

  // Details of one changed property (or the Metadata: name empty).
  void AddDetails(const PropertyChange& c, TargetAttribute attr, const Value& old_expr, const Value& new_expr,
                  ResourcePlan* rp) const {
    ChangeDetail base;
    base.attribute = attr;
    base.name = attr == TargetAttribute::kProperties ? c.name : "";
    base.change = c.change;
    base.behavior = c.behavior;
    base.decided = c.decided;
    base.requires_recreation =
        attr == TargetAttribute::kProperties ? RecreationOf(c.behavior, c.decided) : Recreation::kNever;
    base.before = c.before;
    base.after = c.after;
    if (c.known_change) {
      std::vector<std::pair<ChangeSource, std::string>> causes;
      StaticCauses(old_expr, new_expr, &causes);
      for (auto& [source, entity] : causes) {
        ChangeDetail d = base;
        d.source = source;
        d.causing_entity = entity;
        rp->details.push_back(std::move(d));
      }
    }
    for (const std::string& ref : c.dynamic_refs) {
      ChangeDetail d = base;
      d.evaluation = Evaluation::kDynamic;
      d.causing_entity = ref;
      if (ref.find('.') != std::string::npos) {
        d.source = ChangeSource::kResourceAttribute;
      } else if (out_->graph.Find(ref) >= 0) {
        d.source = ChangeSource::kResourceReference;
      } else if (out_->parameters.Find(ref) != nullptr) {
        d.source = ChangeSource::kParameterReference;  // an SSM value not looked up
      } else {
        d.source = ChangeSource::kDirectModification;
        d.causing_entity.clear();
      }
      rp->details.push_back(std::move(d));
    }
  }

  Status PlanResource(int node, ResourcePlan* rp) {
    const ResourceDecl& decl = out_->graph.resource(node);
    rp->logical_id = decl.logical_id;
    rp->type = decl.type;
    rp->node = node;

    Value props = Value::MakeMap();
    Status eval = decl.properties.is_null()
                      ? Status::OK()
                      : eval_->Evaluate(decl.properties, Section::kResourceProperties, &props);
    if (eval.ok() && !decl.metadata.is_null()) {
      eval = eval_->Evaluate(decl.metadata, Section::kResourceProperties, &rp->metadata);
    }

    rp->update_policy = NewUpdatePolicy(decl);

    auto it = deployed_.find(decl.logical_id);
    if (it == deployed_.end()) {
      rp->action = ChangeAction::kAdd;
      rp->properties = std::move(props);
      if (!eval.ok()) rp->error = eval.message();
      env_.MarkReplaced(decl.logical_id);
      return Status::OK();
    }
    const ResourceRecord& rec = *it->second;
    const ResourceDecl* old = old_tmpl_->FindResource(decl.logical_id);
    rp->old_type = rec.type;
    rp->physical_id = rec.physical_id;
    if (old != nullptr) rp->policy_changes = PolicyChanges(*old, decl);
    rp->old_update_policy = OldEvaluated(old, &ResourceDecl::update_policy);

    if (rec.type != decl.type) {
      rp->action = ChangeAction::kModify;
      rp->type_changed = true;
      rp->replacement = Replacement::kTrue;
      rp->behavior = UpdateBehavior::kReplace;
      rp->scope = {TargetAttribute::kProperties};
      rp->properties = std::move(props);
      if (!eval.ok()) rp->error = eval.message();
      env_.MarkReplaced(decl.logical_id);
      return Status::OK();
    }
    if (!eval.ok()) {  // fails when the update runs, as a create would
      rp->action = ChangeAction::kModify;
      rp->error = eval.message();
      rp->properties = std::move(props);
      env_.MarkUpdated(decl.logical_id);
      return Status::OK();
    }

    // Coerce as the deployed properties were, when it can matter. A value
    // with unknown parts cannot go through the provider's validation: the
    // defaults it would fill in come from the schema, so a property left to
    // its default does not read as removed.
    const HookContext ctx = Context(decl, rp->update_policy);
    if (in_.session != nullptr && !SameValue(rec.properties, props)) {
      if (!HasUnknown(props)) {
        Value coerced;
        Status s = in_.session->Validate(decl.type, ctx, props, &coerced);
        if (s.ok()) {
          props = std::move(coerced);
        } else {
          rp->error = s.message();
        }
      } else if (const TypeSchema* schema = Schema(decl.type); schema != nullptr && props.is_map()) {
        FillDefaults(*schema, &props);
      }
    }

    DiffInput diff{decl.type, Schema(decl.type), in_.session, &ctx};
    std::vector<PropertyChange> changes;
    MS_RETURN_IF_ERROR(DiffProperties(diff, rec.properties, props, &changes));
    for (const PropertyChange& c : changes) {
      AddDetails(c, TargetAttribute::kProperties, PropertyExpr(old, c.name), PropertyExpr(&decl, c.name), rp);
      rp->changed_properties.push_back(c.name);
    }
    if (!decl.metadata.is_null() || (old != nullptr && !old->metadata.is_null())) {
      Value before = OldMetadata(old);
      if (!SameValue(before, rp->metadata)) {
        PropertyChange m;
        m.change = before.is_null() ? AttributeChange::kAdd
                                    : rp->metadata.is_null() ? AttributeChange::kRemove : AttributeChange::kModify;
        m.known_change = KnownPartsDiffer(before, rp->metadata);
        m.dynamic_refs = UnknownRefs(rp->metadata);
        m.before = std::move(before);
        m.after = rp->metadata;
        AddDetails(m, TargetAttribute::kMetadata, old == nullptr ? kNullValue : old->metadata, decl.metadata, rp);
      }
    }
    rp->properties = std::move(props);
    if (stack_tags_change_ && ResourceSchemas::Taggable(decl.type)) AddStackTagsDetail(rp);
    Decide(rp);
    if (rp->replacement != Replacement::kFalse) {
      env_.MarkReplaced(decl.logical_id);
    } else if (rp->action == ChangeAction::kModify && !rp->metadata_only) {
      env_.MarkUpdated(decl.logical_id);
    }
    return Status::OK();
  }

  // The stack's tags changed: CloudFormation re-tags a taggable resource
  // in place (Scope Tags, RequiresRecreation Never; the provider's update
  // hook gets "Tags" among the changed properties and ctx.old_stack_tags).
  static void AddStackTagsDetail(ResourcePlan* rp) {
    ChangeDetail d;
    d.attribute = TargetAttribute::kTags;
    d.requires_recreation = Recreation::kNever;
    rp->details.push_back(std::move(d));
    if (std::find(rp->changed_properties.begin(), rp->changed_properties.end(), "Tags") ==
        rp->changed_properties.end()) {
      rp->changed_properties.push_back("Tags");
      std::sort(rp->changed_properties.begin(), rp->changed_properties.end());
    }
  }

  // Action, replacement, behaviour and scope from the details (AWS: Always
  // and Static is a replacement; Always and Dynamic, or Conditionally, may
  // be one; the most impact wins).
  static void Decide(ResourcePlan* rp) {
    std::sort(rp->details.begin(), rp->details.end(), DetailLess);
    if (rp->details.empty() && rp->error.empty()) return;
    rp->action = ChangeAction::kModify;
    bool properties = false, metadata = false, tags = false;
    for (const ChangeDetail& d : rp->details) {
      if (d.evaluation == Evaluation::kDynamic) rp->dynamic = true;
      if (d.attribute == TargetAttribute::kMetadata) {
        metadata = true;
        continue;
      }
      if (d.attribute == TargetAttribute::kTags) {
        tags = true;
        continue;
      }
      properties = true;
      if (d.decided && d.behavior > rp->behavior) rp->behavior = d.behavior;
      Replacement r = Replacement::kFalse;
      if (d.requires_recreation == Recreation::kAlways) {
        r = d.evaluation == Evaluation::kStatic ? Replacement::kTrue : Replacement::kConditional;
      } else if (d.requires_recreation == Recreation::kConditionally) {
        r = Replacement::kConditional;
      }
      if (r > rp->replacement) rp->replacement = r;
    }
    if (properties) rp->scope.push_back(TargetAttribute::kProperties);
    if (metadata) rp->scope.push_back(TargetAttribute::kMetadata);
    if (tags) rp->scope.push_back(TargetAttribute::kTags);
    rp->metadata_only = metadata && !properties && !tags && rp->error.empty();
  }

  const PlanInput& in_;
  Plan* out_;
  PlanEnvironment env_;      // the new stack as the plan sees it
  PlanEnvironment old_env_;  // the deployed stack as it is
  std::shared_ptr<const Template> old_tmpl_;
  ParameterValues old_params_;
  std::unordered_set<std::string> changed_params_;
  std::unordered_map<std::string, const ResourceRecord*> deployed_;
  std::unique_ptr<Evaluator> eval_;
  std::unique_ptr<Evaluator> old_eval_;
  bool old_eval_ok_ = false;
  bool stack_tags_change_ = false;  // PlanInput::new_stack_tags differ from the deployed ones
  ConditionOracle oracle_;
};

}  // namespace

bool SameStackTags(const std::vector<StackTag>& a, const std::vector<StackTag>& b) {
  if (a.size() != b.size()) return false;
  std::map<std::string, std::string> am;
  for (const StackTag& t : a) am[t.key] = t.value;
  for (const StackTag& t : b) {
    auto it = am.find(t.key);
    if (it == am.end() || it->second != t.value) return false;
  }
  return true;
}

Status MakePlan(const PlanInput& in, Plan* out) {
  *out = Plan();
  return Planner(in, out).Run();
}

}  // namespace ms
