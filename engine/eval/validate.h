// ValidateTemplate: everything `validate-template` checks, and its summary.
//
// Loads the template, checks the parameter declarations, builds the static
// dependency graph (every reference resolves, no cycle), and evaluates every
// expression with what is known before a stack exists (parameter defaults,
// unknown resources), so a malformed function is found now, not mid-deploy.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "eval/evaluator.h"
#include "graph/graph.h"
#include "provider/provider.h"
#include "template/template.h"

namespace ms {

struct TemplateSummary {
  struct Parameter {
    std::string key;
    std::optional<std::string> default_value;
    bool no_echo = false;
    std::string description;
  };
  std::vector<Parameter> parameters;
  std::optional<std::string> description;
  std::vector<std::string> capabilities;  // CAPABILITY_IAM / CAPABILITY_NAMED_IAM
  std::string capabilities_reason;
  std::vector<std::string> declared_transforms;
};

// A type is known when a provider implements it (its declared attributes
// decide GetAtt), else when AWS's catalog has it. `providers` may be null.
// A template that declares AWS::Include is checked as its declarations
// (template/include_declarations.h): no snippet is read, DeclaredTransforms
// has "AWS::Include" and no capability is named.
Status ValidateTemplate(std::string_view text, Template* t, TemplateSummary* summary,
                        const ProviderRuntime* providers = nullptr);
// The same checks on a template already loaded (LoadTemplate, TemplateCache).
// `graph`, when given, receives the dependency graph the checks built (every
// resource included, no condition evaluated).
Status ValidateLoadedTemplate(const Template& t, TemplateSummary* summary, const ProviderRuntime* providers = nullptr,
                              DependencyGraph* graph = nullptr);

// Evaluates the UpdatePolicy and CreationPolicy of every resource `ev`
// includes (its Condition holds) and checks them with
// policy/resource_policies.h: CreateStack, UpdateStack and CreateChangeSet
// call it once the parameters are known (ValidateLoadedTemplate has already
// checked every resource with nothing known).
Status CheckEvaluatedPolicies(const Evaluator& ev);

// Evaluates what `ev` includes — resources' Properties and Metadata, Outputs —
// with the parameters known and every resource Unknown: the errors AWS gives
// synchronously once the values are known (a missing mapping key:
// "Template error: Unable to get mapping for Map::Key::Name").
Status EvaluateWithParameters(const Evaluator& ev);

// An output's Fn::GetAtt of an attribute its resource's type does not have:
// AWS accepts the template and fails the deploy when the outputs are
// evaluated, "[Error] /Outputs/X/Value/Fn::GetAtt: Resource type T does not
// support attribute {A}. Rollback requested by user."
Status CheckOutputAttributes(const Template& t, const OutputDecl& o, const ProviderRuntime* providers);

// CAPABILITY_IAM when the template has IAM resources, CAPABILITY_NAMED_IAM when
// one of them has a custom name; with AWS's CapabilitiesReason.
void RequiredCapabilities(const Template& t, std::vector<std::string>* capabilities,
                          std::string* reason);
// "Requires capabilities : [CAPABILITY_IAM]" unless `given` acknowledges
// what the template requires (CAPABILITY_NAMED_IAM covers CAPABILITY_IAM).
Status CheckCapabilities(const Template& t, const std::vector<std::string>& given);

}  // namespace ms
