// Plan: what an update of a deployed stack to a new template and parameters
// will do to each resource — the one answer shared by update-stack ("No
// updates are to be performed."), change sets and `moonstack plan`.
//
// The shapes follow CloudFormation's change-set API so a change set is a
// direct rendering of a Plan:
//   ResourcePlan  ~ ResourceChange  (Action, Replacement, Scope, Details)
//   ChangeDetail  ~ ResourceChangeDetail (Target {Attribute, Name,
//                   RequiresRecreation, AttributeChangeType, Before/AfterValue},
//                   Evaluation, ChangeSource, CausingEntity)
// (AWS CloudFormation API Reference: ResourceChange, ResourceChangeDetail,
// ResourceTargetDefinition.) A kNone resource is in the plan too (it is part
// of the new stack and of its dependency order); change sets leave it out.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eval/environment.h"
#include "eval/parameters.h"
#include "graph/graph.h"
#include "provider/provider.h"
#include "template/template.h"
#include "template/value.h"

namespace ms {

enum class ChangeAction { kNone, kAdd, kModify, kRemove };
// ResourceChange.Replacement. Meaningful for kModify only (kFalse otherwise).
enum class Replacement { kFalse, kConditional, kTrue };
// ResourceTargetDefinition.RequiresRecreation; ordered by impact.
enum class Recreation { kNever, kConditionally, kAlways };
// ResourceChangeDetail.Evaluation: Static = the new value is known now;
// Dynamic = it depends on a Ref/GetAtt of a resource the update changes and
// is only known when that resource has been updated or replaced.
enum class Evaluation { kStatic, kDynamic };
// ResourceChangeDetail.ChangeSource (AWS's "Automatic" is for nested stacks,
// which the planner does not treat specially).
enum class ChangeSource { kDirectModification, kParameterReference, kResourceReference, kResourceAttribute };
// ResourceTargetDefinition.Attribute / ResourceChange.Scope. Only Properties,
// Metadata and Tags (the stack's tags changed, propagated to a taggable
// resource) make a change; the policies are carried (see policy_changes).
enum class TargetAttribute { kProperties, kMetadata, kTags };
// ResourceTargetDefinition.AttributeChangeType.
enum class AttributeChange { kAdd, kRemove, kModify };

// AWS's spellings: "Add"/"Modify"/"Remove" (kNone: ""), "True"/"False"/
// "Conditional", "Never"/"Conditionally"/"Always", "Static"/"Dynamic",
// "DirectModification"/..., "Properties"/"Metadata"/"Tags", "Add"/"Remove"/"Modify".
const char* ChangeActionName(ChangeAction a);
const char* ReplacementName(Replacement r);
const char* RecreationName(Recreation r);
const char* EvaluationName(Evaluation e);
const char* ChangeSourceName(ChangeSource s);
const char* TargetAttributeName(TargetAttribute a);
const char* AttributeChangeName(AttributeChange c);

// One reason a resource changes: one property (or the Metadata) and one cause.
// A property changed for several reasons (a literal edit and a replaced
// resource it refers to) has one detail per reason, as AWS lists them.
struct ChangeDetail {
  TargetAttribute attribute = TargetAttribute::kProperties;
  std::string name;  // the property (Properties); empty for Metadata
  AttributeChange change = AttributeChange::kModify;
  Recreation requires_recreation = Recreation::kNever;  // Properties only
  Evaluation evaluation = Evaluation::kStatic;
  ChangeSource source = ChangeSource::kDirectModification;
  // ParameterReference: the parameter; ResourceReference: the logical ID;
  // ResourceAttribute: "Logical.Attribute"; DirectModification: empty.
  std::string causing_entity;
  // How the update of this property is carried out (Properties only). For a
  // conditional property whose old and new values are both known, what the
  // provider's DecideUpdate said; `decided` false: left to run time.
  UpdateBehavior behavior = UpdateBehavior::kNone;
  bool decided = true;
  Value before;  // null when added
  Value after;   // null when removed; may hold Unknown parts (Dynamic)
};

struct ResourcePlan {
  std::string logical_id;
  std::string type;          // the new type (kRemove: the deployed one)
  std::string old_type;      // the deployed type (empty for kAdd)
  std::string physical_id;   // the deployed resource (empty for kAdd)
  ChangeAction action = ChangeAction::kNone;
  Replacement replacement = Replacement::kFalse;
  // The most severe behaviour of the changed properties whose behaviour is
  // known (Dynamic ones count as if they change). kModify only.
  UpdateBehavior behavior = UpdateBehavior::kNone;
  bool type_changed = false;   // a type change is a replacement
  bool metadata_only = false;  // only Metadata changed: no provider call (seed 000, test 26)
  bool dynamic = false;        // some detail is Dynamic: decide again at run time
  std::vector<TargetAttribute> scope;  // sorted, unique
  // Sorted by (attribute, name, evaluation, source, causing entity).
  std::vector<ChangeDetail> details;
  std::vector<std::string> changed_properties;  // sorted: HookCall::changed
  // Resource attributes that changed but make no change on their own (seed
  // 000 tests 27-30): "CreationPolicy", "DeletionPolicy", "DependsOn",
  // "UpdatePolicy", "UpdateReplacePolicy" (sorted). When an update runs, the
  // new template's values are honoured (the note after test 29).
  std::vector<std::string> policy_changes;
  // The new evaluated properties (coerced by the provider's Validate when
  // fully known; Unknown parts where Dynamic) and Metadata (null: none).
  Value properties;
  Value metadata;
  // The UpdatePolicy evaluated: the new template's (null: none, or not known
  // before the update runs), and the deployed template's against the
  // deployed stack — what an update rollback goes by (seed 004).
  Value update_policy;
  Value old_update_policy;
  // Evaluating or validating the new properties failed: the update of this
  // resource fails at run time with this reason (as create does).
  std::string error;
  int node = -1;  // node in Plan::graph; -1 for kRemove

  // Stack policy (PlanInput: the during-update policy when given, else the
  // stack's): whether it denies the action this change takes. kModify:
  // Replacement False -> Update:Modify, True -> Update:Replace, Conditional
  // -> both recorded (the executor knows which at run time). kRemove:
  // Update:Delete. Checked at run time (AWS fails the resource with
  // `Action denied by stack policy`): plan/policy_checks.h.
  bool policy_denies_modify = false;
  bool policy_denies_replace = false;
  bool policy_denies_delete = false;
  // Update restrictions (seed 003), the NEW template's
  // UpdatePolicy: {Allow: {Update: <bool>, Replace: <bool>}} (absent: true).
  // Update restricts in-place updates (Metadata-only ones too), Replace
  // restricts replacements. plan/policy_checks.h checks them.
  bool allow_update = true;
  bool allow_replace = true;
};

struct Plan {
  // The new template's resources in Plan::graph's order (dependencies
  // first), then the removed ones sorted by logical ID.
  std::vector<ResourcePlan> resources;

  // The new stack, for executing the plan. `graph`'s nodes point into *tmpl.
  std::shared_ptr<const Template> tmpl;
  ParameterValues parameters;
  PseudoParameters pseudo;
  DependencyGraph graph;

  // "No updates are to be performed.": no resource is added, modified or
  // removed (policy-only changes do not count).
  bool empty() const;
  const ResourcePlan* Find(std::string_view logical_id) const;
  // Counts of each action.
  size_t Count(ChangeAction a) const;

  std::unordered_map<std::string, size_t> index;  // logical ID -> resources[i]
};

}  // namespace ms
