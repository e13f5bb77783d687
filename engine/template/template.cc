#include "template/template.h"

#include <array>
#include <cctype>

#include "base/strings.h"
#include "template/language_extensions.h"
#include "template/parse.h"

namespace ms {
namespace {

// AWS allows 500; moonstack loads far larger generated templates (benchmarks,
// tests) and stops only at sizes that are surely a mistake.
constexpr size_t kMaxResources = 50000;
constexpr size_t kMaxOutputs = 200;

Status FormatError(const std::string& what) {
  return Status::Validation("Template format error: " + what);
}

bool IsAlphanumeric(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Types are Service::Family::Type triples of alphanumerics, or Custom::Name.
bool IsWellFormedResourceType(std::string_view type) {
  if (type.rfind("Custom::", 0) == 0) {
    std::string_view rest = type.substr(8);
    if (rest.empty() || rest.size() > 60) return false;
    for (char c : rest) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '@' || c == '-')) return false;
    }
    return true;
  }
  int parts = 0;
  size_t start = 0;
  while (true) {
    size_t sep = type.find("::", start);
    std::string_view part = type.substr(start, sep == std::string_view::npos ? std::string_view::npos : sep - start);
    if (part.empty()) return false;
    for (char c : part) {
      if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    }
    ++parts;
    if (sep == std::string_view::npos) break;
    start = sep + 2;
  }
  return parts >= 3 && parts <= 4;  // AWS::S3::Bucket, Alexa::ASK::Skill, X::Y::Z::MODULE
}

// Booleans in templates are booleans or their string spellings.
bool ParseBool(const Value& v, bool* out) {
  if (v.is_bool()) {
    *out = v.as_bool();
    return true;
  }
  if (v.is_string()) {
    if (v.str() == "true" || v.str() == "True" || v.str() == "TRUE") {
      *out = true;
      return true;
    }
    if (v.str() == "false" || v.str() == "False" || v.str() == "FALSE") {
      *out = false;
      return true;
    }
  }
  return false;
}

Status LoadTransforms(const Value& v, Template* t) {
  if (v.is_null()) return Status::OK();
  std::vector<const Value*> names;
  if (v.is_list()) {
    for (const Value& item : v.list()) names.push_back(&item);
  } else {
    names.push_back(&v);
  }
  for (const Value* name : names) {
    if (!name->is_string()) {
      return Status::Validation("Key Name of transform definition must be a string.");
    }
    if (name->str() != "AWS::LanguageExtensions") {
      return FormatError("Transform " + name->str() +
                         " is not supported; moonstack supports only AWS::LanguageExtensions.");
    }
    t->transforms.push_back(name->str());
  }
  return Status::OK();
}

Status LoadParameter(const std::string& name, const Value& v, ParameterDecl* p) {
  if (!IsAlphanumeric(name)) return FormatError("Parameter name " + name + " is non alphanumeric.");
  p->name = name;
  p->pos = v.pos();
  if (!v.is_map()) return FormatError("Every Parameters object must contain a Type member.");
  const Value* type = v.find("Type");
  if (type == nullptr) return FormatError("Every Parameters object must contain a Type member.");
  if (!type->is_string()) return FormatError("Every Type member in Parameters must be a string.");
  p->type = type->str();
  for (const Member& m : v.map()) {
    const std::string& k = m.key;
    const Value& a = m.value;
    if (k == "Type") continue;
    if (k == "Default") {
      if (a.is_scalar()) {
        p->default_value = a.scalar_text();
      } else if (a.is_list()) {
        // A list default for a list type: CloudFormation wants the comma form.
        std::string joined;
        for (const Value& item : a.list()) {
          if (!item.is_scalar()) return FormatError("Every Default member must be a string.");
          if (!joined.empty() || &item != &a.list().front()) joined += ",";
          joined += item.scalar_text();
        }
        p->default_value = joined;
      } else {
        return FormatError("Every Default member must be a string.");
      }
    } else if (k == "AllowedValues") {
      if (!a.is_list()) return FormatError("Every AllowedValues member must be a list.");
      for (const Value& item : a.list()) {
        if (!item.is_scalar()) return FormatError("Every AllowedValues member must be a list of strings.");
        p->allowed_values.push_back(item.scalar_text());
      }
    } else if (k == "AllowedPattern") {
      if (!a.is_scalar()) return FormatError("Every AllowedPattern member must be a string.");
      p->allowed_pattern = a.scalar_text();
    } else if (k == "MinLength" || k == "MaxLength") {
      auto n = a.as_integer();
      if (!n || *n < 0) return FormatError("Every " + k + " member must be a non-negative integer.");
      (k == "MinLength" ? p->min_length : p->max_length) = *n;
    } else if (k == "MinValue" || k == "MaxValue") {
      auto d = a.as_double();
      if (!d) return FormatError("Every " + k + " member must be a number.");
      (k == "MinValue" ? p->min_value : p->max_value) = *d;
    } else if (k == "Description") {
      if (!a.is_scalar()) return FormatError("Every Description member in Parameters must be a string.");
      p->description = a.scalar_text();
    } else if (k == "ConstraintDescription") {
      if (!a.is_scalar()) return FormatError("Every ConstraintDescription member must be a string.");
      p->constraint_description = a.scalar_text();
    } else if (k == "NoEcho") {
      if (!ParseBool(a, &p->no_echo)) return FormatError("Every NoEcho member must be a boolean.");
    } else {
      return FormatError("Invalid template parameter property '" + k + "'");
    }
  }
  return Status::OK();
}

Status LoadParameters(const Value& v, Template* t) {
  if (v.is_null()) return Status::OK();
  if (!v.is_map()) return FormatError("Parameters must be an object.");
  for (const Member& m : v.map()) {
    ParameterDecl p;
    MS_RETURN_IF_ERROR(LoadParameter(m.key, m.value, &p));
    t->parameter_index.emplace(p.name, t->parameters.size());
    t->parameters.push_back(std::move(p));
  }
  return Status::OK();
}

Status LoadMappings(const Value& v) {
  if (v.is_null()) return Status::OK();
  if (!v.is_map()) return FormatError("Mappings must be an object.");
  for (const Member& mapping : v.map()) {
    if (!mapping.value.is_map() || mapping.value.map().empty()) {
      return FormatError("Every Mappings member " + mapping.key + " must be a map");
    }
    for (const Member& top : mapping.value.map()) {
      if (!top.value.is_map()) {
        return FormatError("Every Mappings member " + top.key + " must be a map");
      }
      for (const Member& attr : top.value.map()) {
        // Lists may hold objects (security group rules in a mapping are common).
        if (!attr.value.is_scalar() && !attr.value.is_list()) {
          return FormatError("Every Mappings attribute must be a String or a List.");
        }
      }
    }
  }
  return Status::OK();
}

Status LoadConditions(const Value& v) {
  if (v.is_null()) return Status::OK();
  if (!v.is_map()) return FormatError("Conditions must be an object.");
  for (const Member& m : v.map()) {
    if (!m.value.is_map() && !m.value.is_bool()) {
      return FormatError("Every Condition member must be an object.");  // functions are maps
    }
  }
  return Status::OK();
}

Status LoadRules(const Value& v) {
  if (v.is_null()) return Status::OK();
  if (!v.is_map()) return FormatError("Rules must be an object.");
  for (const Member& rule : v.map()) {
    if (!rule.value.is_map()) return FormatError("Every Rules member must be an object.");
    const Value* assertions = rule.value.find("Assertions");
    if (assertions == nullptr) return FormatError("Every Rules member must contain an Assertions member.");
    if (!assertions->is_list()) return FormatError("Every Assertions member must be a list.");
    for (const Member& m : rule.value.map()) {
      if (m.key != "Assertions" && m.key != "RuleCondition") {
        return FormatError("Invalid rule property '" + m.key + "'");
      }
    }
    for (const Value& a : assertions->list()) {
      if (!a.is_map() || a.find("Assert") == nullptr) {
        return FormatError("Every Assertions member must contain an Assert member.");
      }
      for (const Member& m : a.map()) {
        if (m.key != "Assert" && m.key != "AssertDescription") {
          return FormatError("Invalid assertion property '" + m.key + "'");
        }
      }
    }
  }
  return Status::OK();
}

// A policy attribute is a string or, since 2023, Ref/Fn::If/Fn::FindInMap.
Status CheckPolicyValue(const std::string& attr, const std::string& resource, const Value& v) {
  static const std::array<const char*, 4> kPolicies = {"Delete", "Retain", "Snapshot",
                                                       "RetainExceptOnCreate"};
  if (v.is_string()) {
    for (const char* p : kPolicies) {
      if (v.str() == p) return Status::OK();
    }
    return FormatError("Unrecognized " + attr + " " + v.str() + " for resource " + resource);
  }
  std::string_view fn = v.function_name();
  if (fn == "Ref" || fn == "Fn::If" || fn == "Fn::FindInMap") return Status::OK();
  return FormatError("Every " + attr + " member must be a string.");
}

// Moves the declaration's parts out of `v`: templates can be large, and the
// document is not kept.
Status LoadResource(const std::string& id, Value&& v, ResourceDecl* r) {
  if (!IsAlphanumeric(id)) return FormatError("Resource name " + id + " is non alphanumeric.");
  r->logical_id = id;
  r->pos = v.pos();
  if (!v.is_map()) return FormatError("Any Resources member must be an object.");
  const Value* type = v.find("Type");
  if (type == nullptr) {
    return FormatError("[/Resources/" + id + "] Every Resources object must contain a Type member.");
  }
  if (!type->is_string()) {
    return FormatError("[/Resources/" + id + "/Type] Every Type member must be a string.");
  }
  if (!IsWellFormedResourceType(type->str())) {
    return FormatError("Unrecognized resource types: [" + type->str() + "]");
  }
  r->type = type->str();
  for (Member& m : v.mutable_map()) {
    const std::string& k = m.key;
    Value& a = m.value;
    if (k == "Type") continue;
    if (k == "Properties") {
      if (!a.is_map() && !a.is_null()) {
        return FormatError("[/Resources/" + id + "/Properties] Every Properties member must be an object.");
      }
      r->properties = std::move(a);
    } else if (k == "DependsOn") {
      if (a.is_string()) {
        r->depends_on.push_back(a.str());
      } else if (a.is_list()) {
        for (const Value& d : a.list()) {
          if (!d.is_string()) {
            return FormatError("[/Resources/" + id + "/DependsOn] Every DependsOn value must be a string.");
          }
          r->depends_on.push_back(d.str());
        }
      } else {
        return FormatError("[/Resources/" + id + "/DependsOn] Every DependsOn value must be a string.");
      }
    } else if (k == "Condition") {
      if (!a.is_string()) {
        return FormatError("Every Condition member in Resources must be a string.");
      }
      r->condition = a.str();
    } else if (k == "DeletionPolicy" || k == "UpdateReplacePolicy") {
      MS_RETURN_IF_ERROR(CheckPolicyValue(k, id, a));
      (k == "DeletionPolicy" ? r->deletion_policy : r->update_replace_policy) = std::move(a);
    } else if (k == "CreationPolicy" || k == "UpdatePolicy") {
      // An object, or Fn::If choosing between objects; a bare Ref or Sub is no object.
      std::string_view fn = a.function_name();
      if (!a.is_map() || (!fn.empty() && fn != "Fn::If")) {
        return FormatError("[/Resources/" + id + "/" + k + "] Every " + k + " member must be an object.");
      }
      (k == "CreationPolicy" ? r->creation_policy : r->update_policy) = std::move(a);
    } else if (k == "Version") {
      // Accepted and ignored, as AWS does: old custom-resource templates set it.
    } else if (k == "Metadata") {
      if (!a.is_map()) return FormatError("Every Metadata member must be an object.");
      r->metadata = std::move(a);
    } else {
      return Status::Validation("Invalid template resource property '" + k + "'");
    }
  }
  return Status::OK();
}

Status LoadResources(Value* v, Template* t) {
  if (v == nullptr || v->is_null() || (v->is_map() && v->map().empty())) {
    return FormatError("At least one Resources member must be defined.");
  }
  if (!v->is_map()) return FormatError("Resources must be an object.");
  if (v->map().size() > kMaxResources) return FormatError("Too many resources.");
  t->resources.reserve(v->map().size());
  t->resource_index.reserve(v->map().size());
  for (Member& m : v->mutable_map()) {
    ResourceDecl r;
    MS_RETURN_IF_ERROR(LoadResource(m.key, std::move(m.value), &r));
    if (t->parameter_index.count(r.logical_id) != 0) {
      return FormatError("Resource and parameter names must be unique: " + r.logical_id +
                         " is declared as both.");
    }
    t->resource_index.emplace(r.logical_id, t->resources.size());
    t->resources.push_back(std::move(r));
  }
  return Status::OK();
}

Status LoadOutput(const std::string& name, const Value& v, OutputDecl* o) {
  if (!IsAlphanumeric(name)) return FormatError("Output name " + name + " is non alphanumeric.");
  o->name = name;
  o->pos = v.pos();
  if (!v.is_map()) return FormatError("Every Outputs member must contain a Value object");
  const Value* value = v.find("Value");
  if (value == nullptr) return FormatError("Every Outputs member must contain a Value object");
  if (value->is_null()) {
    return Status::Validation("[/Outputs/" + name + "/Value] 'null' values are not allowed in templates");
  }
  for (const Member& m : v.map()) {
    const std::string& k = m.key;
    const Value& a = m.value;
    if (k == "Value") {
      o->value = a;
    } else if (k == "Description") {
      if (!a.is_scalar()) return FormatError("Every Description member in Outputs must be a string.");
      o->description = a;
    } else if (k == "Condition") {
      if (!a.is_string()) return FormatError("Every Condition member in Outputs must be a string.");
      o->condition = a.str();
    } else if (k == "Export") {
      const Value* export_name = a.is_map() ? a.find("Name") : nullptr;
      if (export_name == nullptr || a.map().size() != 1) {
        return FormatError("Output " + name + " is malformed. Every Export member must contain a Name.");
      }
      o->export_name = *export_name;
    } else {
      return FormatError("Invalid outputs property '" + k + "'");
    }
  }
  return Status::OK();
}

Status LoadOutputs(const Value& v, Template* t) {
  if (v.is_null()) return Status::OK();
  if (!v.is_map()) return FormatError("Outputs must be an object.");
  if (v.map().size() > kMaxOutputs) {
    return FormatError("Outputs section exceeds the limit of " + std::to_string(kMaxOutputs) + " outputs.");
  }
  for (const Member& m : v.map()) {
    OutputDecl o;
    MS_RETURN_IF_ERROR(LoadOutput(m.key, m.value, &o));
    t->outputs.push_back(std::move(o));
  }
  return Status::OK();
}

const char* const kSections[] = {"AWSTemplateFormatVersion", "Description", "Metadata",
                                 "Parameters", "Rules", "Mappings", "Conditions",
                                 "Transform", "Resources", "Outputs"};

Status CheckTopLevelKeys(const Value& root) {
  std::vector<std::string> unknown;
  for (const Member& m : root.map()) {
    bool known = false;
    for (const char* s : kSections) known = known || m.key == s;
    if (!known) unknown.push_back(m.key);
  }
  if (!unknown.empty()) {
    return FormatError("Invalid template property or properties [" + Join(unknown, ", ") + "]");
  }
  return Status::OK();
}

// Given values first, then the Parameters section's Default (comma-split).
ParameterLookup ListParameterLookup(const Value& root, const ParameterLookup* given) {
  // A copy: the expansion rewrites the document the lookup would read from.
  const Value* section = root.find("Parameters");
  Value params = section ? *section : Value();
  return [params, given](std::string_view name, std::vector<std::string>* values) {
    if (given != nullptr && (*given)(name, values)) return true;
    const Value* decl = params.is_map() ? params.find(name) : nullptr;
    const Value* def = decl && decl->is_map() ? decl->find("Default") : nullptr;
    if (def == nullptr) return false;
    values->clear();
    if (def->is_list()) {
      for (const Value& item : def->list()) values->push_back(item.scalar_text());
      return true;
    }
    if (!def->is_scalar()) return false;
    *values = SplitCommaList(def->scalar_text());
    return true;
  };
}

const Value& Section(const Value& root, std::string_view name) {
  static const Value kNull;
  const Value* v = root.find(name);
  return v ? *v : kNull;
}

}  // namespace

const ResourceDecl* Template::FindResource(std::string_view logical_id) const {
  auto it = resource_index.find(std::string(logical_id));
  return it == resource_index.end() ? nullptr : &resources[it->second];
}

const ParameterDecl* Template::FindParameter(std::string_view name) const {
  auto it = parameter_index.find(std::string(name));
  return it == parameter_index.end() ? nullptr : &parameters[it->second];
}

bool Template::HasTransform(std::string_view name) const {
  for (const std::string& t : transforms) {
    if (t == name) return true;
  }
  return false;
}

bool IsPseudoParameter(std::string_view name) {
  static const char* const kPseudo[] = {"AWS::AccountId",  "AWS::NotificationARNs", "AWS::NoValue",
                                        "AWS::Partition",  "AWS::Region",           "AWS::StackId",
                                        "AWS::StackName",  "AWS::URLSuffix"};
  for (const char* p : kPseudo) {
    if (name == p) return true;
  }
  return false;
}

Status LoadTemplate(std::string_view text, Template* out, const ParameterLookup* params) {
  Value root;
  MS_RETURN_IF_ERROR(ParseTemplateText(text, &root));
  return LoadTemplateFromValue(std::move(root), out, params);
}

namespace {

// `with_resources` false: a template some transform completes, whose
// Resources, Mappings, Conditions, Rules and Outputs were left out
// (LoadTemplateHead).
Status LoadSections(Value root, Template* out, const ParameterLookup* params, bool with_resources) {
  *out = Template();
  if (!root.is_map()) return FormatError("unsupported structure.");
  MS_RETURN_IF_ERROR(CheckTopLevelKeys(root));
  Template& t = *out;

  const Value& version = Section(root, "AWSTemplateFormatVersion");
  if (!version.is_null()) {
    if (!version.is_string() || version.str() != "2010-09-09") {
      return FormatError("'" + version.scalar_text() +
                         "' is not a valid AWSTemplateFormatVersion; the only valid version is "
                         "'2010-09-09'.");
    }
    t.format_version = version.str();
  }
  MS_RETURN_IF_ERROR(LoadTransforms(Section(root, "Transform"), &t));
  if (t.HasTransform("AWS::LanguageExtensions")) {
    MS_RETURN_IF_ERROR(ExpandLanguageExtensions(&root, ListParameterLookup(root, params)));
  }

  t.description = Section(root, "Description");
  if (!t.description.is_null() && !t.description.is_string()) {
    return FormatError("Every Description member must be a string.");
  }
  t.metadata = Section(root, "Metadata");
  if (!t.metadata.is_null() && !t.metadata.is_map()) return FormatError("Metadata must be an object.");
  MS_RETURN_IF_ERROR(LoadParameters(Section(root, "Parameters"), &t));
  t.rules = Section(root, "Rules");
  MS_RETURN_IF_ERROR(LoadRules(t.rules));
  t.mappings = Section(root, "Mappings");
  MS_RETURN_IF_ERROR(LoadMappings(t.mappings));
  t.conditions = Section(root, "Conditions");
  MS_RETURN_IF_ERROR(LoadConditions(t.conditions));
  if (!with_resources) return Status::OK();
  MS_RETURN_IF_ERROR(LoadResources(root.find("Resources"), &t));
  MS_RETURN_IF_ERROR(LoadOutputs(Section(root, "Outputs"), &t));
  return Status::OK();
}

}  // namespace

Status LoadTemplateFromValue(Value root, Template* out, const ParameterLookup* params) {
  return LoadSections(std::move(root), out, params, true);
}

Status LoadTemplateHead(Value root, Template* out) { return LoadSections(std::move(root), out, nullptr, false); }

}  // namespace ms
