// Internal to engine/eval: the walk that evaluates one expression.
//
// A Walker lives for one Evaluator call. It knows the section being evaluated
// (which decides the functions allowed and the wording of errors) and whether
// it is inside Fn::ImportValue (where nothing may depend on resources).
// Recursion is bounded by kMaxDepth, so hostile nesting fails cleanly.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "eval/evaluator.h"
#include "template/value.h"

namespace ms::eval_internal {

// Deeper nesting than this is an error (same limit as graph/references.cc).
constexpr int kMaxDepth = 256;

// AWS's texts used in more than one file.
extern const char* const kTooDeep;
extern const char* const kImportValueDependsOnResources;

// Appends the refs of `v` (an Unknown) to `refs`, skipping duplicates.
void AddRefs(const Value& v, std::vector<std::string>* refs);
// A function of an Unknown is Unknown: when any of `values` is Unknown, sets
// *out to the Unknown carrying all their refs and returns true.
bool AnyUnknown(std::initializer_list<const Value*> values, Value* out);
// True when `v` is a string, number or boolean and not Unknown.
inline bool IsText(const Value& v) { return v.is_scalar(); }

class Walker {
 public:
  Walker(const Evaluator& e, Section where) : e_(e), t_(e.t_), where_(where) {}

  // Evaluates `v` into `out`. *no_value is set when `v` is AWS::NoValue (or
  // an Fn::If branch that is), which the enclosing map or list drops.
  Status Eval(const Value& v, int depth, Value* out, bool* no_value);
  // Eval for a function argument: AWS::NoValue becomes Null.
  Status EvalArg(const Value& v, int depth, Value* out);
  // A Conditions entry, RuleCondition or Assert: must be a boolean function;
  // gives Bool, or Unknown when it depends on something not known yet.
  Status EvalTopCondition(const Value& v, Value* out);

  using Handler = Status (Walker::*)(const Value& arg, int depth, Value* out, bool* no_value);

  // Functions (evaluator.cc).
  Status Ref(const Value& arg, int depth, Value* out, bool* no_value);
  Status If(const Value& arg, int depth, Value* out, bool* no_value);
  Status ConditionFn(const Value& arg, int depth, Value* out, bool* no_value);
  Status Equals(const Value& arg, int depth, Value* out, bool* no_value);
  Status And(const Value& arg, int depth, Value* out, bool* no_value);
  Status Or(const Value& arg, int depth, Value* out, bool* no_value);
  Status Not(const Value& arg, int depth, Value* out, bool* no_value);

  // Value functions (fn_values.cc).
  Status GetAtt(const Value& arg, int depth, Value* out, bool* no_value);
  Status Join(const Value& arg, int depth, Value* out, bool* no_value);
  Status Select(const Value& arg, int depth, Value* out, bool* no_value);
  Status Split(const Value& arg, int depth, Value* out, bool* no_value);
  Status Sub(const Value& arg, int depth, Value* out, bool* no_value);
  Status Base64(const Value& arg, int depth, Value* out, bool* no_value);
  Status GetAZs(const Value& arg, int depth, Value* out, bool* no_value);
  Status Cidr(const Value& arg, int depth, Value* out, bool* no_value);
  Status FindInMap(const Value& arg, int depth, Value* out, bool* no_value);
  Status ImportValue(const Value& arg, int depth, Value* out, bool* no_value);
  Status GetStackOutput(const Value& arg, int depth, Value* out, bool* no_value);  // fn_stack_output.cc
  Status Length(const Value& arg, int depth, Value* out, bool* no_value);
  Status ToJsonString(const Value& arg, int depth, Value* out, bool* no_value);

  // Rule functions (fn_rules.cc).
  Status Contains(const Value& arg, int depth, Value* out, bool* no_value);
  Status EachMemberEquals(const Value& arg, int depth, Value* out, bool* no_value);
  Status EachMemberIn(const Value& arg, int depth, Value* out, bool* no_value);
  Status RefAll(const Value& arg, int depth, Value* out, bool* no_value);
  Status ValueOf(const Value& arg, int depth, Value* out, bool* no_value);
  Status ValueOfAll(const Value& arg, int depth, Value* out, bool* no_value);

 private:
  enum class Use { kRef, kGetAtt, kSub };

  Status CallFunction(std::string_view name, const Value& arg, int depth, Value* out,
                      bool* no_value);
  Status EvalMap(const Value& v, int depth, Value* out);
  Status EvalList(const Value& v, int depth, Value* out);

  // A name used by Ref or ${Name}: pseudo parameter, parameter or resource.
  Status ResolveName(const std::string& name, Use use, Value* out, bool* no_value);
  // A resource attribute, from Fn::GetAtt or ${Id.Attr}.
  Status ResolveAttribute(const std::string& id, const std::string& attribute, Value* out);
  // Whether this section may use resource `id` here; AWS's error if not.
  Status CheckResourceUse(const std::string& id, Use use) const;
  Status UnresolvedName(const std::string& name) const;
  Status IfUnknown(const Value& arg, const std::string& name, int depth, Value* out);
  void PseudoValue(std::string_view name, Value* out, bool* no_value) const;
  void ParameterValue(const std::string& name, Value* out) const;
  const ResolvedParameter* FindParam(const std::string& name) const;

  // Shared by the two-list rule functions: evaluates [list, x].
  Status RulePair(const char* fn, const Value& arg, int depth, Value* list, Value* second);
  Status BoolOperands(const char* fn, const Value& arg, int depth, std::vector<Value>* out);
  // Fn::And and Fn::Or: `dominant` is the operand value that decides alone.
  Status Junction(const char* fn, bool dominant, const Value& arg, int depth, Value* out);

  bool language_extensions() const { return t_.HasTransform("AWS::LanguageExtensions"); }

  const Evaluator& e_;
  const Template& t_;
  Section where_;
  int in_import_value_ = 0;  // > 0 inside Fn::ImportValue's argument
};

}  // namespace ms::eval_internal
