// Template: a parsed and structurally validated CloudFormation template.
//
// LoadTemplate checks the document's structure: the top-level sections and
// their shapes, the shape of parameter declarations, resource attributes and
// outputs. It evaluates nothing: parameter constraints (eval/parameters.h),
// references (graph/graph.h) and functions (eval/evaluator.h) are checked by
// their own modules; eval/validate.h runs them all for validate-template.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "template/value.h"

namespace ms {

struct ParameterDecl {
  std::string name;
  std::string type;                      // "String", "List<Number>", "AWS::EC2::VPC::Id", ...
  std::optional<std::string> default_value;  // defaults are strings (lists comma-joined)
  std::vector<std::string> allowed_values;
  std::optional<std::string> allowed_pattern;
  std::optional<int64_t> min_length, max_length;
  std::optional<double> min_value, max_value;
  std::string description;
  std::string constraint_description;
  bool no_echo = false;
  SourcePos pos;
};

struct ResourceDecl {
  std::string logical_id;
  std::string type;
  Value properties;            // map, or null when absent
  std::vector<std::string> depends_on;
  std::string condition;       // empty: unconditional
  Value deletion_policy;       // string, or a function (LanguageExtensions); null: absent
  Value update_replace_policy; // as deletion_policy
  Value creation_policy;       // null: absent
  Value update_policy;         // null: absent
  Value metadata;              // null: absent
  SourcePos pos;
};

struct OutputDecl {
  std::string name;
  Value value;
  Value description;  // null: absent
  std::string condition;
  Value export_name;  // null: no Export
  SourcePos pos;
};

struct Template {
  std::string format_version;  // empty: absent
  Value description;           // null: absent
  Value metadata;
  std::vector<std::string> transforms;
  std::vector<ParameterDecl> parameters;
  Value rules;       // map name -> {RuleCondition, Assertions}; null: absent
  Value mappings;    // map name -> map key -> map key -> value
  Value conditions;  // map name -> condition expression
  std::vector<ResourceDecl> resources;  // document order
  std::vector<OutputDecl> outputs;

  const ResourceDecl* FindResource(std::string_view logical_id) const;
  const ParameterDecl* FindParameter(std::string_view name) const;
  bool HasTransform(std::string_view name) const;

  // Built by LoadTemplate; indexes into `resources` / `parameters`.
  std::unordered_map<std::string, size_t> resource_index;
  std::unordered_map<std::string, size_t> parameter_index;
};

// The value of a list parameter, for AWS::LanguageExtensions' Fn::ForEach
// collections; false when the parameter has no value. Without a lookup, the
// parameters' Default values are used.
using ParameterLookup =
    std::function<bool(std::string_view name, std::vector<std::string>* values)>;

// Parses `text` (JSON or YAML) and validates its structure.
Status LoadTemplate(std::string_view text, Template* out, const ParameterLookup* params = nullptr);
// Validates an already parsed document.
Status LoadTemplateFromValue(Value root, Template* out, const ParameterLookup* params = nullptr);
// The same for the sections before Resources only (format version,
// Transform, Description, Metadata, Parameters, and Rules, Mappings and
// Conditions when `root` has them): Resources is neither required nor read.
Status LoadTemplateHead(Value root, Template* out);

// True for the pseudo parameters (AWS::Region, AWS::NoValue, ...).
bool IsPseudoParameter(std::string_view name);

}  // namespace ms
