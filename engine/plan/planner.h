// MakePlan: the update planner. Given a deployed stack and a new template
// with new parameters, decides for each resource: add, modify (with its
// replacement and causes), remove, or nothing. See plan.h for the output.
//
// How (seed 000, tests 1-30; DESIGN.md "Update behaviour"):
//  - Only resources matter: Description, AWSTemplateFormatVersion, Outputs,
//    top-level Metadata, unused parameters, mappings and conditions change
//    nothing, because changes are found by comparing *fully evaluated*
//    properties (and resource Metadata) with the deployed ones.
//  - The new template is walked once in dependency order. A resource's
//    properties are evaluated with Ref/GetAtt of resources not changing
//    resolving to the deployed physical IDs and attributes; of resources
//    added or (possibly) replaced, Unknown; GetAtt of resources updated in
//    place, Unknown (see plan_environment.h). Since every resource is decided
//    after all it refers to, one pass reaches the fixed point: a resource
//    whose value now depends on a changing one has a Dynamic change (tests 7,
//    9), one whose referenced value stays the same has none (tests 8, 10).
//  - Per changed property, the provider schema's behaviour; a conditional
//    one asks ProviderSession::DecideUpdate when old and new are known, else
//    it is Conditional. Most severe wins; a type change is a replacement.
//  - Metadata changes alone are an update without a provider call (test 26).
//    CreationPolicy, DeletionPolicy, UpdateReplacePolicy, UpdatePolicy and
//    DependsOn changes alone are no change (tests 27-30) but are carried.
//  - A resource whose Condition turns false is removed, true added (test 20).
//
// Cost: each resource is evaluated once; the provider's Validate (coercion)
// runs only for resources whose evaluated properties differ from the deployed
// ones (coercion is assumed idempotent: deployed properties are already
// coerced, so equal raw values mean equal coerced ones).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "eval/environment.h"
#include "eval/parameters.h"
#include "plan/plan.h"
#include "plan/plan_environment.h"
#include "provider/provider.h"
#include "records/stack.h"
#include "template/template.h"

namespace ms {

struct PlanInput {
  // The deployed stack: its template_body and parameters (as given; SSM
  // types with their resolved_value), and its resources.
  const StackRecord* stack = nullptr;
  const std::vector<ResourceRecord>* resources = nullptr;

  // The new template and parameters. UsePreviousValue takes the deployed
  // value; an omitted parameter takes its Default (ResolveParameters).
  std::string_view template_body;
  std::vector<ParameterInput> parameters;
  // Optional, already parsed templates (skip parsing): the deployed one
  // (must be stack->template_body's) and the new one (template_body's).
  std::shared_ptr<const Template> old_template;
  std::shared_ptr<const Template> new_template;
  // Optional: new_template's dependency graph with every resource included
  // (validation built it). A template without conditions has no other graph,
  // so the planner takes this one (moves it out) instead of building it again.
  DependencyGraph* new_graph = nullptr;

  PseudoParameters pseudo;  // region, account, stack name and ID
  // Schemas come from `session` when given, else from `runtime`. Without a
  // session there is no Validate/DecideUpdate: conditional properties stay
  // Conditional and new properties are compared uncoerced.
  const ProviderRuntime* runtime = nullptr;
  ProviderSession* session = nullptr;
  PlanEnvironment::ExportLookup exports;  // Fn::ImportValue
  StackOutputLookup stack_outputs;        // Fn::GetStackOutput (none: Unknown)
  // AWS::SSM::Parameter::Value<...> parameters' values; false: not found.
  std::function<bool(std::string_view name, std::string* value)> ssm;
  int64_t now_ms = 0;  // HookContext::now_ms for Validate/DecideUpdate
  // The stack policy the update is checked against (ResourcePlan::
  // policy_denies_*); "" is no policy. Unset: the deployed stack's — its
  // during-update policy while its update is in progress (the executor
  // re-plans from the stored record), else its stack policy.
  std::optional<std::string> stack_policy_body;
  // The stack's tags after the update (UpdateStack's Tags); null: the
  // deployed stack's (stack->tags) stay. When they differ, every deployed
  // resource of a taggable type (the registry schema's tagging.taggable,
  // catalog/resource_schemas.h) is modified with Scope Tags.
  const std::vector<StackTag>* new_stack_tags = nullptr;
};

// Errors are the new template's or parameters' synchronous ValidationErrors
// (the template, parameter values, conditions, unresolved references,
// cycles). A failure to evaluate one resource is not an error: it is that
// resource's ResourcePlan::error.
Status MakePlan(const PlanInput& in, Plan* out);

// Whether two stack tag lists hold the same tags (order aside).
bool SameStackTags(const std::vector<StackTag>& a, const std::vector<StackTag>& b);

}  // namespace ms
