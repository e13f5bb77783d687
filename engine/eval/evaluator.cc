// The evaluator: conditions, the function dispatch, Ref and the condition
// functions. Value functions are in fn_values.cc, rule functions in
// fn_rules.cc.
//
// Error texts are AWS's where AWS's are known (recorded from real
// ValidationErrors: corpus/AWS_ERROR_MESSAGES.md and public bug reports);
// the others are moonstack's own wording in AWS's style, marked "(ours)".
#include "eval/evaluator.h"

#include <algorithm>
#include <deque>

#include "base/strings.h"
#include "eval/eval_walker.h"

namespace ms {
namespace eval_internal {

const char* const kTooDeep = "Template format error: template nesting is too deep.";
const char* const kImportValueDependsOnResources =
    "Template error: the attribute in Fn::ImportValue must not depend on any resources, imported "
    "values, or Fn::GetAZs";

namespace {

// AWS's list in its unsupported-function error (recorded from a real
// ValidationError; Fn::Length and Fn::ToJsonString are not in it because they
// need the AWS::LanguageExtensions transform).
constexpr const char* kSupportedList =
    "[Fn::Base64, Fn::GetAtt, Fn::GetAZs, Fn::ImportValue, Fn::Join, Fn::Split, Fn::FindInMap, "
    "Fn::Select, Ref, Fn::Equals, Fn::If, Fn::Not, Condition, Fn::And, Fn::Or, Fn::Contains, "
    "Fn::EachMemberEquals, Fn::EachMemberIn, Fn::ValueOf, Fn::ValueOfAll, Fn::RefAll, Fn::Sub, "
    "Fn::Cidr]";

Status Unsupported(std::string_view name) {
  return Status::Validation("Template Error: Encountered unsupported function: " + std::string(name) +
                            " Supported functions are: " + kSupportedList);
}

// Where a function may be used.
enum class Kind {
  kAnywhere,   // Ref, Fn::If
  kValue,      // value functions: not in Rules
  kResource,   // Fn::GetAtt: also needs a section that may use resources
  kImport,     // Fn::ImportValue
  kBoolean,    // Fn::Equals/And/Or/Not: Conditions and Rules only
  kCondition,  // Condition: the Conditions section only
  kRule,       // rule-specific functions: Rules only
};

struct FunctionInfo {
  std::string_view name;  // string_view: lookups compare lengths first
  Walker::Handler handler;
  Kind kind;
  bool language_extensions;  // needs Transform: AWS::LanguageExtensions
};

const FunctionInfo kFunctions[] = {
    {"Ref", &Walker::Ref, Kind::kAnywhere, false},
    {"Fn::If", &Walker::If, Kind::kAnywhere, false},
    {"Fn::GetAtt", &Walker::GetAtt, Kind::kResource, false},
    {"Fn::Join", &Walker::Join, Kind::kValue, false},
    {"Fn::Sub", &Walker::Sub, Kind::kValue, false},
    {"Fn::Select", &Walker::Select, Kind::kValue, false},
    {"Fn::Split", &Walker::Split, Kind::kValue, false},
    {"Fn::FindInMap", &Walker::FindInMap, Kind::kValue, false},
    {"Fn::Base64", &Walker::Base64, Kind::kValue, false},
    {"Fn::GetAZs", &Walker::GetAZs, Kind::kValue, false},
    {"Fn::Cidr", &Walker::Cidr, Kind::kValue, false},
    {"Fn::ImportValue", &Walker::ImportValue, Kind::kImport, false},
    {"Fn::GetStackOutput", &Walker::GetStackOutput, Kind::kValue, false},
    {"Fn::Length", &Walker::Length, Kind::kValue, true},
    {"Fn::ToJsonString", &Walker::ToJsonString, Kind::kValue, true},
    {"Fn::Equals", &Walker::Equals, Kind::kBoolean, false},
    {"Fn::And", &Walker::And, Kind::kBoolean, false},
    {"Fn::Or", &Walker::Or, Kind::kBoolean, false},
    {"Fn::Not", &Walker::Not, Kind::kBoolean, false},
    {"Condition", &Walker::ConditionFn, Kind::kCondition, false},
    {"Fn::Contains", &Walker::Contains, Kind::kRule, false},
    {"Fn::EachMemberEquals", &Walker::EachMemberEquals, Kind::kRule, false},
    {"Fn::EachMemberIn", &Walker::EachMemberIn, Kind::kRule, false},
    {"Fn::RefAll", &Walker::RefAll, Kind::kRule, false},
    {"Fn::ValueOf", &Walker::ValueOf, Kind::kRule, false},
    {"Fn::ValueOfAll", &Walker::ValueOfAll, Kind::kRule, false},
};

const FunctionInfo* FindFunction(std::string_view name) {
  for (const FunctionInfo& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

bool StartsWithFnIgnoringCase(std::string_view key) {
  if (key.size() < 4) return false;
  return (key[0] == 'F' || key[0] == 'f') && (key[1] == 'N' || key[1] == 'n') && key[2] == ':' &&
         key[3] == ':';
}

// The function a map calls, or empty for plain data. "Condition" is a
// function only where conditions are evaluated: elsewhere it is an ordinary
// key (IAM policies, ...). AWS treats any "fn::" spelling as a function name
// (and rejects the wrong case), so that is a call too.
std::string_view FunctionOf(const Value& v, Section where) {
  using namespace std::literals;
  if (!v.is_map() || v.map().size() != 1) return {};
  std::string_view key = v.map()[0].key;
  if (key == "Ref"sv) return key;
  if (key == "Condition"sv) {
    return where == Section::kConditions || where == Section::kRules ? key : std::string_view();
  }
  if (StartsWithFnIgnoringCase(key)) return key;
  return {};
}

const char* SectionBlock(Section where) {
  switch (where) {
    case Section::kConditions: return "Conditions";
    case Section::kResourceProperties: return "Resources";
    case Section::kResourcePolicy: return "Resources";
    case Section::kOutputs: return "Outputs";
    case Section::kRules: return "Rules";
  }
  return "Resources";
}

}  // namespace

void AddRefs(const Value& v, std::vector<std::string>* refs) {
  for (const std::string& r : v.unknown_refs()) {
    if (std::find(refs->begin(), refs->end(), r) == refs->end()) refs->push_back(r);
  }
}

bool AnyUnknown(std::initializer_list<const Value*> values, Value* out) {
  std::vector<std::string> refs;
  bool any = false;
  for (const Value* v : values) {
    if (!v->is_unknown()) continue;
    any = true;
    AddRefs(*v, &refs);
  }
  if (any) *out = Value::Unknown(std::move(refs));
  return any;
}

// ---------------------------------------------------------------------------
// The walk.

Status Walker::Eval(const Value& v, int depth, Value* out, bool* no_value) {
  *no_value = false;
  if (depth > kMaxDepth) return Status::Validation(kTooDeep);
  if (v.is_list()) return EvalList(v, depth, out);
  if (!v.is_map()) {
    *out = v;
    return Status::OK();
  }
  std::string_view fn = FunctionOf(v, where_);
  if (fn.empty()) return EvalMap(v, depth, out);
  return CallFunction(fn, v.map()[0].value, depth, out, no_value);
}

Status Walker::EvalArg(const Value& v, int depth, Value* out) {
  bool no_value = false;
  MS_RETURN_IF_ERROR(Eval(v, depth, out, &no_value));
  if (no_value) *out = Value();
  return Status::OK();
}

// Maps and lists are built in place in *out (no intermediate Values: this
// is the hot path of evaluating a large template).
Status Walker::EvalMap(const Value& v, int depth, Value* out) {
  *out = Value::MakeMap();
  out->set_pos(v.pos());
  Value::Map& members = out->mutable_map();
  members.reserve(v.map().size());
  for (const Member& m : v.map()) {
    members.push_back(Member{m.key, Value()});
    bool no_value = false;
    MS_RETURN_IF_ERROR(Eval(m.value, depth + 1, &members.back().value, &no_value));
    if (no_value) members.pop_back();  // AWS::NoValue removes the member
  }
  return Status::OK();
}

Status Walker::EvalList(const Value& v, int depth, Value* out) {
  *out = Value::MakeList();
  out->set_pos(v.pos());
  Value::List& items = out->mutable_list();
  items.reserve(v.list().size());
  for (const Value& x : v.list()) {
    items.emplace_back();
    bool no_value = false;
    MS_RETURN_IF_ERROR(Eval(x, depth + 1, &items.back(), &no_value));
    if (no_value) items.pop_back();  // AWS::NoValue removes the item
  }
  return Status::OK();
}

Status Walker::CallFunction(std::string_view name, const Value& arg, int depth, Value* out,
                            bool* no_value) {
  // A macro (Fn::Transform) runs before anything is evaluated; it can stand
  // where a function expects its whole argument, e.g. Fn::Sub: {Fn::Transform}.
  bool transform_arg = arg.is_map() && arg.map().size() == 1 && arg.map()[0].key == "Fn::Transform";
  if (name == "Fn::Transform" || transform_arg) {  // (ours)
    return Status::Validation(
        "Template error: Fn::Transform is not supported: moonstack does not run macros (AWS::Include runs "
        "when a stack or a change set is created or updated)");
  }
  const FunctionInfo* f = FindFunction(name);
  if (f == nullptr || (f->language_extensions && !language_extensions())) return Unsupported(name);
  const std::string fn = f->kind == Kind::kAnywhere ? std::string() : std::string(name);  // for errors
  switch (f->kind) {
    case Kind::kAnywhere:
      break;
    case Kind::kValue:
    case Kind::kResource:
    case Kind::kImport:
    case Kind::kCondition:
      if (where_ == Section::kRules) {
        return Status::Validation(
            "Template format error: Following functions are not supported in the Rules block of "
            "the template: [" + fn + "].");
      }
      if (f->kind == Kind::kImport && where_ == Section::kConditions) {
        return Status::Validation("Template error: Cannot use Fn::ImportValue in Conditions");
      }
      if (f->kind == Kind::kImport && where_ == Section::kResourcePolicy) {  // (ours)
        return Status::Validation("Template format error: Fn::ImportValue is not supported in "
                                  "DeletionPolicy or UpdateReplacePolicy");
      }
      break;
    case Kind::kBoolean:
      if (where_ != Section::kConditions && where_ != Section::kRules) {  // (ours)
        return Status::Validation("Template format error: " + fn +
                                  " is only supported in the Conditions and Rules blocks of the "
                                  "template; use Fn::If with a named condition");
      }
      break;
    case Kind::kRule:
      if (where_ != Section::kRules) {  // (ours)
        return Status::Validation("Template format error: " + fn +
                                  " is only supported in the Rules block of the template");
      }
      break;
  }
  return (this->*(f->handler))(arg, depth + 1, out, no_value);
}

Status Walker::EvalTopCondition(const Value& v, Value* out) {
  std::string_view fn = FunctionOf(v, where_);
  if (fn.empty()) {
    if (where_ == Section::kConditions) {
      return Status::Validation(
          "Template format error: Conditions can only be boolean operations on parameters and "
          "other conditions");
    }
    return Status::Validation(  // (ours)
        "Template format error: Every RuleCondition and Assert must be a rule-specific intrinsic "
        "function that returns true or false");
  }
  bool no_value = false;
  MS_RETURN_IF_ERROR(Eval(v, 0, out, &no_value));
  if (!no_value && (out->is_bool() || out->is_unknown())) return Status::OK();
  if (where_ == Section::kConditions) {
    return Status::Validation(
        "Template format error: Conditions can only be boolean operations on parameters and other "
        "conditions");
  }
  return Status::Validation(
      "Template format error: Every RuleCondition and Assert must be a rule-specific intrinsic "
      "function that returns true or false");
}

// ---------------------------------------------------------------------------
// Ref and names.

Status Walker::Ref(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_string()) {
    return Status::Validation("Template format error: Every Ref object must have a single String value.");
  }
  return ResolveName(arg.str(), Use::kRef, out, no_value);
}

Status Walker::ResolveName(const std::string& name, Use use, Value* out, bool* no_value) {
  if (name.rfind("AWS::", 0) == 0 && IsPseudoParameter(name)) {
    PseudoValue(name, out, no_value);
    return Status::OK();
  }
  if (t_.FindParameter(name) != nullptr) {
    ParameterValue(name, out);
    return Status::OK();
  }
  if (t_.FindResource(name) == nullptr) return UnresolvedName(name);
  MS_RETURN_IF_ERROR(CheckResourceUse(name, use));
  *out = e_.env_.ResourceRef(name);
  return Status::OK();
}

Status Walker::ResolveAttribute(const std::string& id, const std::string& attribute, Value* out) {
  MS_RETURN_IF_ERROR(CheckResourceUse(id, Use::kGetAtt));
  return e_.env_.ResourceAttribute(id, attribute, out);
}

// A name that is neither a parameter nor a resource.
Status Walker::UnresolvedName(const std::string& name) const {
  switch (where_) {
    case Section::kConditions:
    case Section::kRules:
      return Status::Validation("Template format error: Unresolved dependencies [" + name +
                                "]. Cannot reference resources in the " + SectionBlock(where_) +
                                " block of the template");
    default:
      return Status::Validation("Template format error: Unresolved resource dependencies [" + name +
                                "] in the " + SectionBlock(where_) + " block of the template");
  }
}

Status Walker::CheckResourceUse(const std::string& id, Use use) const {
  if (in_import_value_ > 0) return Status::Validation(kImportValueDependsOnResources);
  switch (where_) {
    case Section::kConditions:
    case Section::kRules:
      return Status::Validation("Template format error: Unresolved dependencies [" + id +
                                "]. Cannot reference resources in the " + SectionBlock(where_) +
                                " block of the template");
    case Section::kResourcePolicy:  // (ours)
      return Status::Validation("Template format error: DeletionPolicy and UpdateReplacePolicy "
                                "cannot reference resources: [" + id + "]");
    default:
      break;
  }
  const ResourceDecl* r = t_.FindResource(id);
  if (r == nullptr) {
    if (use == Use::kGetAtt) {
      return Status::Validation("Template error: instance of Fn::GetAtt references undefined resource " + id);
    }
    return UnresolvedName(id);
  }
  if (!e_.Included(r->condition) && e_.unknown_conditions_.count(r->condition) == 0) {
    // A resource whose Condition is false does not exist. AWS words the
    // Outputs case without the "Template format error: " prefix.
    if (where_ == Section::kOutputs) {
      return Status::Validation("Unresolved resource dependencies [" + id +
                                "] in the Outputs block of the template");
    }
    return Status::Validation("Template format error: Unresolved resource dependencies [" + id +
                              "] in the Resources block of the template");
  }
  return Status::OK();
}

void Walker::PseudoValue(std::string_view name, Value* out, bool* no_value) const {
  const PseudoParameters& p = e_.pseudo_;
  if (name == "AWS::NoValue") {
    *no_value = true;
    *out = Value();
  } else if (e_.static_) {
    *out = Value::Unknown({std::string(name)});
  } else if (name == "AWS::AccountId") {
    *out = Value::String(p.account_id);
  } else if (name == "AWS::Region") {
    *out = Value::String(p.region);
  } else if (name == "AWS::StackName") {
    *out = Value::String(p.stack_name);
  } else if (name == "AWS::StackId") {
    *out = Value::String(p.stack_id);
  } else if (name == "AWS::Partition") {
    *out = Value::String(p.partition());
  } else if (name == "AWS::URLSuffix") {
    *out = Value::String(p.url_suffix());
  } else if (name == "AWS::NotificationARNs") {
    Value::List arns;
    for (const std::string& a : p.notification_arns) arns.push_back(Value::String(a));
    *out = Value::MakeList(std::move(arns));
  }
}

const ResolvedParameter* Walker::FindParam(const std::string& name) const {
  const auto& list = e_.params_.list;
  auto it = e_.param_index_.find(name);
  if (it != e_.param_index_.end() && it->second < list.size() && list[it->second].name == name) {
    return &list[it->second];
  }
  for (const ResolvedParameter& p : list) {  // the list changed since construction
    if (p.name == name) return &p;
  }
  return nullptr;
}

// A declared parameter's value; Unknown while it has none (validate-template
// before values are given, an SSM parameter not resolved yet).
void Walker::ParameterValue(const std::string& name, Value* out) const {
  const ResolvedParameter* p = FindParam(name);
  if (p == nullptr) {
    *out = Value::Unknown({name});
    return;
  }
  std::string inner;
  if (IsSsmParameterType(p->type, &inner)) {
    if (!p->ssm_resolved) {
      *out = Value::Unknown({name});
      return;
    }
    *out = ParameterValueOf(inner, *p->ssm_resolved);
    return;
  }
  if (!p->value.is_null()) {
    *out = p->value;
    return;
  }
  *out = ParameterValueOf(p->type, p->text);
}

// ---------------------------------------------------------------------------
// Conditions.

Status Walker::If(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_list() || arg.list().empty() || !arg.list()[0].is_string()) {
    return Status::Validation(
        "Template error: Fn::If requires a list argument with the first element being a condition");
  }
  if (arg.list().size() != 3) {
    // As Eucalyptus words it after AWS; not independently recorded.
    return Status::Validation("Template error: Fn::If requires a list argument with three elements");
  }
  const std::string& name = arg.list()[0].str();
  auto it = e_.conditions_.find(name);
  if (it == e_.conditions_.end()) {
    return Status::Validation("Template error: unresolved condition dependency " + name + " in Fn::If");
  }
  if (e_.unknown_conditions_.count(name) != 0) return IfUnknown(arg, name, depth, out);
  // Only the branch taken is evaluated, as AWS does: the other may refer to
  // resources that do not exist under this condition.
  return Eval(arg.list()[it->second ? 1 : 2], depth, out, no_value);
}

// Static mode, condition unknown: either branch may be taken, so both must
// be valid; the result is unknown.
Status Walker::IfUnknown(const Value& arg, const std::string& name, int depth, Value* out) {
  for (size_t branch = 1; branch <= 2; ++branch) {
    Value v;
    bool no_value = false;
    MS_RETURN_IF_ERROR(Eval(arg.list()[branch], depth, &v, &no_value));
  }
  *out = Value::Unknown({"Condition:" + name});
  return Status::OK();
}

Status Walker::ConditionFn(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_string()) {
    return Status::Validation("Template format error: Every Condition member must be a string.");
  }
  auto it = e_.conditions_.find(arg.str());
  if (it == e_.conditions_.end()) {
    return Status::Validation("Template format error: Unresolved condition dependencies [" + arg.str() +
                              "] in the Conditions block of the template");
  }
  *out = e_.unknown_conditions_.count(arg.str()) != 0 ? Value::Unknown({"Condition:" + arg.str()})
                                                      : Value::Bool(it->second);
  return Status::OK();
}

Status Walker::Equals(const Value& arg, int depth, Value* out, bool* no_value) {
  static const char* kMessage = "Template error: every Fn::Equals object requires a list of 2 string parameters.";
  if (!arg.is_list() || arg.list().size() != 2) return Status::Validation(kMessage);
  Value a, b;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, &a));
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[1], depth, &b));
  if (AnyUnknown({&a, &b}, out)) return Status::OK();
  if (IsText(a) && IsText(b)) {
    // CloudFormation compares strings: 3 equals "3".
    *out = Value::Bool(a.scalar_text() == b.scalar_text());
    return Status::OK();
  }
  // Rules compare lists too (Fn::Equals of two list parameters).
  if (where_ == Section::kRules && a.is_list() && b.is_list()) {
    bool same = a.list().size() == b.list().size();
    for (size_t i = 0; same && i < a.list().size(); ++i) {
      same = IsText(a.list()[i]) && IsText(b.list()[i]) &&
             a.list()[i].scalar_text() == b.list()[i].scalar_text();
    }
    *out = Value::Bool(same);
    return Status::OK();
  }
  return Status::Validation(kMessage);
}

// Evaluates the operands of Fn::And / Fn::Or: 2 to 10 boolean functions.
Status Walker::BoolOperands(const char* fn, const Value& arg, int depth, std::vector<Value>* out) {
  const std::string message = std::string("Template error: every ") + fn +
                              " object requires a list of at least 2 and at most 10 boolean parameters.";
  if (!arg.is_list() || arg.list().size() < 2 || arg.list().size() > 10) {
    return Status::Validation(message);
  }
  for (const Value& operand : arg.list()) {
    if (FunctionOf(operand, where_).empty()) return Status::Validation(message);
    Value v;
    MS_RETURN_IF_ERROR(EvalArg(operand, depth, &v));
    if (!v.is_bool() && !v.is_unknown()) return Status::Validation(message);
    out->push_back(std::move(v));
  }
  return Status::OK();
}

Status Walker::And(const Value& arg, int depth, Value* out, bool* no_value) {
  return Junction("Fn::And", false, arg, depth, out);
}

Status Walker::Or(const Value& arg, int depth, Value* out, bool* no_value) {
  return Junction("Fn::Or", true, arg, depth, out);
}

// Fn::And (dominant false) and Fn::Or (dominant true): one operand equal to
// `dominant` decides, even beside unknowns; otherwise any unknown leaves the
// result unknown, carrying every operand's refs.
Status Walker::Junction(const char* fn, bool dominant, const Value& arg, int depth, Value* out) {
  std::vector<Value> operands;
  MS_RETURN_IF_ERROR(BoolOperands(fn, arg, depth, &operands));
  bool any_unknown = false;
  for (const Value& v : operands) {
    if (v.is_bool() && v.as_bool() == dominant) {
      *out = Value::Bool(dominant);
      return Status::OK();
    }
    any_unknown = any_unknown || v.is_unknown();
  }
  if (!any_unknown) {
    *out = Value::Bool(!dominant);
    return Status::OK();
  }
  std::vector<std::string> refs;
  for (const Value& v : operands) AddRefs(v, &refs);
  *out = Value::Unknown(std::move(refs));
  return Status::OK();
}

Status Walker::Not(const Value& arg, int depth, Value* out, bool* no_value) {
  // As Eucalyptus words it after AWS; not independently recorded.
  static const char* kMessage = "Template error: Fn::Not requires a list argument with one function token";
  if (!arg.is_list() || arg.list().size() != 1 || FunctionOf(arg.list()[0], where_).empty()) {
    return Status::Validation(kMessage);
  }
  Value v;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, &v));
  if (v.is_unknown()) {
    *out = v;
    return Status::OK();
  }
  if (!v.is_bool()) return Status::Validation(kMessage);
  *out = Value::Bool(!v.as_bool());
  return Status::OK();
}

}  // namespace eval_internal

// ---------------------------------------------------------------------------
// Evaluator.

using eval_internal::Walker;

namespace {

struct ConditionUse {
  std::string name;
  bool from_if;  // Fn::If [name, ...] rather than Condition: name
};

// The conditions `v` uses (Condition X, Fn::If [X, ...]), for ordering the
// Conditions section. Walks at most kMaxDepth deep.
Status ConditionDependencies(const Value& v, int depth, std::vector<ConditionUse>* out) {
  if (depth > eval_internal::kMaxDepth) return Status::Validation(eval_internal::kTooDeep);
  if (v.is_list()) {
    for (const Value& item : v.list()) MS_RETURN_IF_ERROR(ConditionDependencies(item, depth + 1, out));
    return Status::OK();
  }
  if (!v.is_map()) return Status::OK();
  if (v.map().size() == 1) {
    const Member& m = v.map()[0];
    if (m.key == "Condition" && m.value.is_string()) {
      out->push_back({m.value.str(), false});
      return Status::OK();
    }
    if (m.key == "Fn::If" && m.value.is_list() && !m.value.list().empty() &&
        m.value.list()[0].is_string()) {
      out->push_back({m.value.list()[0].str(), true});
    }
  }
  for (const Member& m : v.map()) MS_RETURN_IF_ERROR(ConditionDependencies(m.value, depth + 1, out));
  return Status::OK();
}

}  // namespace

Evaluator::Evaluator(const Template& t, const ParameterValues& params, const PseudoParameters& pseudo,
                     const EvalEnvironment& env)
    : t_(t), params_(params), pseudo_(pseudo), env_(env) {
  param_index_.reserve(params.list.size());
  for (size_t i = 0; i < params.list.size(); ++i) param_index_.emplace(params.list[i].name, i);
}

// Conditions are evaluated in dependency order (Kahn's algorithm), so a
// condition's Condition/Fn::If references are already known when it is
// evaluated, and a cycle is found without recursion.
Status Evaluator::EvaluateConditions() {
  conditions_.clear();
  unknown_conditions_.clear();
  if (t_.conditions.is_null()) return Status::OK();
  if (!t_.conditions.is_map()) return Status::Validation("Template format error: Conditions must be an object.");
  const Value::Map& defs = t_.conditions.map();
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < defs.size(); ++i) index.emplace(defs[i].key, i);

  std::vector<std::vector<size_t>> dependents(defs.size());
  std::vector<size_t> pending(defs.size(), 0);
  for (size_t i = 0; i < defs.size(); ++i) {
    std::vector<ConditionUse> deps;
    MS_RETURN_IF_ERROR(ConditionDependencies(defs[i].value, 0, &deps));
    for (const ConditionUse& d : deps) {
      auto it = index.find(d.name);
      if (it == index.end() && d.from_if) {
        return Status::Validation("Template error: unresolved condition dependency " + d.name + " in Fn::If");
      }
      if (it == index.end()) {  // Eucalyptus's wording after AWS
        return Status::Validation("Template format error: Unresolved condition dependencies [" + d.name +
                                  "] in the Conditions block of the template");
      }
      dependents[it->second].push_back(i);
      ++pending[i];
    }
  }
  // FIFO in template order, so the first error reported is the earliest.
  std::deque<size_t> ready;
  for (size_t i = 0; i < defs.size(); ++i) {
    if (pending[i] == 0) ready.push_back(i);
  }
  size_t done = 0;
  while (!ready.empty()) {
    size_t i = ready.front();
    ready.pop_front();
    ++done;
    Value result;
    MS_RETURN_IF_ERROR(Walker(*this, Section::kConditions).EvalTopCondition(defs[i].value, &result));
    // A condition on a value not known yet (an unresolved SSM parameter) is
    // false until it is known; in static mode it stays unknown.
    conditions_[defs[i].key] = result.is_bool() && result.as_bool();
    if (static_ && result.is_unknown()) unknown_conditions_.insert(defs[i].key);
    for (size_t d : dependents[i]) {
      if (--pending[d] == 0) ready.push_back(d);
    }
  }
  if (done == defs.size()) return Status::OK();
  std::vector<std::string> cycle;
  for (size_t i = 0; i < defs.size(); ++i) {
    if (pending[i] != 0) cycle.push_back(defs[i].key);
  }
  conditions_.clear();
  // (ours), after AWS's "Circular dependency between resources: [...]".
  return Status::Validation("Template format error: Circular dependency between conditions: [" +
                            Join(cycle, ", ") + "]");
}

bool Evaluator::ConditionValue(std::string_view name) const {
  auto it = conditions_.find(std::string(name));
  return it != conditions_.end() && it->second;
}

bool Evaluator::Included(std::string_view condition) const {
  return condition.empty() || ConditionValue(condition);
}

Status Evaluator::Evaluate(const Value& expr, Section where, Value* out) const {
  bool no_value = false;
  Walker w(*this, where);
  MS_RETURN_IF_ERROR(w.Eval(expr, 0, out, &no_value));
  if (no_value) *out = Value();
  return Status::OK();
}

// Each rule: when its RuleCondition holds (or it has none), every Assert
// must be true. An assertion that depends on values not known yet (a
// Fn::ValueOf before the world is built) is not failed.
Status Evaluator::CheckRules() const {
  if (t_.rules.is_null()) return Status::OK();
  if (!t_.rules.is_map()) return Status::Validation("Template format error: Rules must be an object.");
  for (const Member& rule : t_.rules.map()) {
    if (!rule.value.is_map()) {
      return Status::Validation("Template format error: Every Rules member must be an object.");
    }
    if (const Value* cond = rule.value.find("RuleCondition")) {
      Value holds;
      MS_RETURN_IF_ERROR(Walker(*this, Section::kRules).EvalTopCondition(*cond, &holds));
      if (!holds.is_bool() || !holds.as_bool()) continue;
    }
    const Value* assertions = rule.value.find("Assertions");
    if (assertions == nullptr || !assertions->is_list()) {
      return Status::Validation("Template format error: Every Rules member must contain an Assertions member.");
    }
    for (const Value& a : assertions->list()) {
      const Value* assert = a.is_map() ? a.find("Assert") : nullptr;
      if (assert == nullptr) {
        return Status::Validation("Template format error: Every Assertions member must contain an Assert member.");
      }
      Value ok;
      MS_RETURN_IF_ERROR(Walker(*this, Section::kRules).EvalTopCondition(*assert, &ok));
      if (!ok.is_bool() || ok.as_bool()) continue;
      const Value* description = a.find("AssertDescription");
      if (description != nullptr && description->is_scalar()) {
        return Status::Validation(description->scalar_text());
      }
      return Status::Validation("Template error: Assertion failed for rule " + rule.key);  // (ours)
    }
  }
  return Status::OK();
}

}  // namespace ms
