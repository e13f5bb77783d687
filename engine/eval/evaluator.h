// Evaluator: conditions, intrinsic functions and rules over one template.
//
// Evaluation is pure: it reads the template, the resolved parameters, the
// pseudo parameters and an EvalEnvironment, and produces Values. A value that
// depends on something not known yet (a resource's physical ID) comes out
// Unknown, carrying the references that made it so; functions over unknown
// inputs propagate them (Fn::Join of an unknown is unknown with the same refs).
//
// Where an expression sits decides which functions it may use, as in AWS:
// conditions use only condition functions, Ref of parameters and FindInMap;
// properties may use Fn::If but not Fn::Equals directly; and so on. A function
// used where AWS does not allow it is an error with AWS's text.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "base/status.h"
#include "eval/environment.h"
#include "eval/parameters.h"
#include "template/template.h"
#include "template/value.h"

namespace ms {

enum class Section {
  kConditions,         // the Conditions section
  kResourceProperties, // Properties and Metadata of a resource
  kResourcePolicy,     // DeletionPolicy / UpdateReplacePolicy (LanguageExtensions)
  kOutputs,            // Outputs: Value, Export Name, Description
  kRules,              // Rules: RuleCondition and Assert
};

namespace eval_internal {
class Walker;
}

class Evaluator {
 public:
  // All references must outlive the Evaluator.
  Evaluator(const Template& t, const ParameterValues& params, const PseudoParameters& pseudo,
            const EvalEnvironment& env);

  // Static mode (validate-template): nothing is known but the template.
  // Pseudo parameters are Unknown, a condition on unknown values stays
  // unknown, Fn::If with an unknown condition checks both branches and gives
  // Unknown, and a resource behind an unknown condition may be referenced.
  // Set before EvaluateConditions.
  void set_static(bool on) { static_ = on; }

  // Evaluates every condition of the Conditions section. Conditions may use
  // other conditions; a cycle or a missing one is an error. Must succeed
  // before anything that uses Fn::If or a resource/output Condition.
  Status EvaluateConditions();
  // The value of a named condition (false when unknown name).
  bool ConditionValue(std::string_view name) const;
  // Whether a resource/output with this Condition (empty: none) exists.
  bool Included(std::string_view condition) const;

  // Evaluates `expr`. A member or list item that evaluates to AWS::NoValue is
  // removed; an expression that is AWS::NoValue as a whole gives Null.
  Status Evaluate(const Value& expr, Section where, Value* out) const;

  // Checks the Rules section's assertions against the parameter values.
  // A failing assertion is an error with its AssertDescription.
  Status CheckRules() const;

  const Template& tmpl() const { return t_; }

 private:
  const Template& t_;
  const ParameterValues& params_;
  const PseudoParameters& pseudo_;
  const EvalEnvironment& env_;
  std::unordered_map<std::string, bool> conditions_;
  // Static mode: conditions whose value is unknown (their conditions_ entry
  // is false).
  std::unordered_set<std::string> unknown_conditions_;
  bool static_ = false;
  // Parameter name -> position in params_.list, built by the constructor so a
  // Ref costs one hash lookup; checked against the list on use (see
  // FindParam in evaluator.cc), so a list changed later stays safe.
  std::unordered_map<std::string, size_t> param_index_;

  friend class eval_internal::Walker;  // the evaluation itself (evaluator.cc)
};

}  // namespace ms
