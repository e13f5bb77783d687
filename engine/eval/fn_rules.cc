// Rule-specific functions (the Rules section): Fn::Contains,
// Fn::EachMemberEquals, Fn::EachMemberIn, Fn::RefAll, Fn::ValueOf and
// Fn::ValueOfAll. Their shape errors are moonstack's wording (ours).
//
// Fn::ValueOf / Fn::ValueOfAll read attributes of AWS resources named by
// parameter values (a subnet's VpcId): the evaluator has no such world, so
// they are Unknown, and an assertion over them is not failed.
#include <algorithm>

#include "eval/eval_walker.h"

namespace ms::eval_internal {
namespace {

bool AllText(const Value& list) {
  return std::all_of(list.list().begin(), list.list().end(), [](const Value& v) { return IsText(v); });
}

bool ContainsText(const Value& list, const std::string& text) {
  return std::any_of(list.list().begin(), list.list().end(),
                     [&](const Value& v) { return v.scalar_text() == text; });
}

Status PairError(const char* fn, const char* second) {
  return Status::Validation(std::string("Template error: every ") + fn +
                            " object requires two parameters, (1) a list of strings and (2) " + second);
}

}  // namespace

// Evaluates [list, x] for the two-argument rule functions.
Status Walker::RulePair(const char* fn, const Value& arg, int depth, Value* list, Value* second) {
  if (!arg.is_list() || arg.list().size() != 2) return PairError(fn, "a second parameter");
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, list));
  return EvalArg(arg.list()[1], depth, second);
}

Status Walker::Contains(const Value& arg, int depth, Value* out, bool* no_value) {
  Value list, x;
  MS_RETURN_IF_ERROR(RulePair("Fn::Contains", arg, depth, &list, &x));
  if (AnyUnknown({&list, &x}, out)) return Status::OK();
  if (!list.is_list() || !AllText(list) || !IsText(x)) return PairError("Fn::Contains", "a string");
  *out = Value::Bool(ContainsText(list, x.scalar_text()));
  return Status::OK();
}

Status Walker::EachMemberEquals(const Value& arg, int depth, Value* out, bool* no_value) {
  Value list, x;
  MS_RETURN_IF_ERROR(RulePair("Fn::EachMemberEquals", arg, depth, &list, &x));
  if (AnyUnknown({&list, &x}, out)) return Status::OK();
  if (!list.is_list() || !AllText(list) || !IsText(x)) {
    return PairError("Fn::EachMemberEquals", "a string");
  }
  const std::string text = x.scalar_text();
  *out = Value::Bool(std::all_of(list.list().begin(), list.list().end(),
                                 [&](const Value& v) { return v.scalar_text() == text; }));
  return Status::OK();
}

Status Walker::EachMemberIn(const Value& arg, int depth, Value* out, bool* no_value) {
  Value list, allowed;
  MS_RETURN_IF_ERROR(RulePair("Fn::EachMemberIn", arg, depth, &list, &allowed));
  if (AnyUnknown({&list, &allowed}, out)) return Status::OK();
  if (!list.is_list() || !AllText(list) || !allowed.is_list() || !AllText(allowed)) {
    return PairError("Fn::EachMemberIn", "a list of strings");
  }
  *out = Value::Bool(std::all_of(list.list().begin(), list.list().end(), [&](const Value& v) {
    return ContainsText(allowed, v.scalar_text());
  }));
  return Status::OK();
}

// Fn::RefAll: the values of every parameter of one type, as one list.
Status Walker::RefAll(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_string()) {
    return Status::Validation("Template error: every Fn::RefAll object requires a parameter type");
  }
  Value::List values;
  std::vector<std::string> refs;
  for (const ParameterDecl& p : t_.parameters) {
    if (p.type != arg.str()) continue;
    Value v;
    ParameterValue(p.name, &v);
    if (v.is_unknown()) {
      AddRefs(v, &refs);
    } else if (v.is_list()) {
      for (Value& item : v.mutable_list()) values.push_back(std::move(item));
    } else {
      values.push_back(std::move(v));
    }
  }
  *out = refs.empty() ? Value::MakeList(std::move(values)) : Value::Unknown(std::move(refs));
  return Status::OK();
}

Status Walker::ValueOf(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_list() || arg.list().size() != 2 || !arg.list()[0].is_string() ||
      !arg.list()[1].is_string()) {
    return Status::Validation(
        "Template error: every Fn::ValueOf object requires two parameters, a parameter name and an "
        "attribute");
  }
  const std::string& param = arg.list()[0].str();
  if (t_.FindParameter(param) == nullptr) {
    return Status::Validation("Template format error: Unresolved dependencies [" + param +
                              "]. Cannot reference resources in the Rules block of the template");
  }
  *out = Value::Unknown({"ValueOf:" + param + "." + arg.list()[1].str()});
  return Status::OK();
}

Status Walker::ValueOfAll(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_list() || arg.list().size() != 2 || !arg.list()[0].is_string() ||
      !arg.list()[1].is_string()) {
    return Status::Validation(
        "Template error: every Fn::ValueOfAll object requires two parameters, a parameter type and "
        "an attribute");
  }
  *out = Value::Unknown({"ValueOfAll:" + arg.list()[0].str() + "." + arg.list()[1].str()});
  return Status::OK();
}

}  // namespace ms::eval_internal
