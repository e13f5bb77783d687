// Parameters: declarations checked, given values resolved and constrained.
//
// A parameter's value is a String Value for scalar types (String, Number,
// AWS::EC2::VPC::Id, ...) and a List of String Values for list types
// (List<Number>, CommaDelimitedList, List<AWS::EC2::Subnet::Id>, ...).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "eval/environment.h"
#include "template/template.h"
#include "template/value.h"

namespace ms {

// One ParameterKey=...,ParameterValue=... (or UsePreviousValue=true).
struct ParameterInput {
  std::string key;
  std::optional<std::string> value;
  bool use_previous_value = false;
};

struct ResolvedParameter {
  std::string name;
  std::string type;
  std::string text;   // the value as given (list types: comma-joined)
  Value value;        // String, or List of Strings for list types
                      // (SSM Value<...> types: Unknown({name}) until
                      // CheckParametersAgainstWorld resolves them)
  bool no_echo = false;
  // For AWS::SSM::Parameter::Value<...> types: the SSM parameter's value
  // once resolved at workflow start; `text` stays the parameter name.
  std::optional<std::string> ssm_resolved;
};

struct ParameterValues {
  std::vector<ResolvedParameter> list;  // template order
  const ResolvedParameter* Find(std::string_view name) const;
};

// Parameter types CloudFormation knows.
bool IsKnownParameterType(std::string_view type);
bool IsListParameterType(std::string_view type);
// The Value of `text` for a non-SSM `type`: a List of its trimmed
// comma-separated elements for list types, else a String. (For an SSM type,
// pass the inner type and the resolved parameter-store value.)
Value ParameterValueOf(std::string_view type, std::string_view text);
// AWS-specific types whose values must exist (AWS::EC2::VPC::Id,
// List<AWS::EC2::Subnet::Id>, ...): the element type, or empty.
std::string AwsSpecificElementType(std::string_view type);
// AWS::SSM::Parameter::Value<T>: true, with T in *inner.
bool IsSsmParameterType(std::string_view type, std::string* inner = nullptr);

// Synchronous checks of the declarations themselves (called by LoadTemplate's
// callers that validate templates): known types, Default within the
// constraints, constraint attributes of the right shape.
Status ValidateParameterDecls(const Template& t);

// Resolves the values for a stack operation: given values, previous values
// (UsePreviousValue), defaults; then type and constraint checks. Errors use
// AWS's messages ("Parameters: [X] must have values", "Parameter 'X' must be
// one of AllowedValues", ...).
Status ResolveParameters(const Template& t, const std::vector<ParameterInput>& given,
                         const std::map<std::string, std::string>& previous,
                         ParameterValues* out);

// Reads the SSM parameters that AWS::SSM::Parameter::Value<...> and
// AWS::SSM::Parameter::Name parameters name. AWS does this synchronously
// (create-stack, update-stack, create-change-set refuse before anything
// starts, and Rules see the resolved values): every missing name together,
// "Unable to fetch parameters [a, b] from parameter store for this account."
Status ResolveSsmParameters(const EvalEnvironment& env, ParameterValues* values);

// Workflow-start checks against the world: SSM parameters resolve (again:
// they may have changed since the request), AWS-specific values exist
// ("Parameter validation failed: parameter value X for parameter name Y does
// not exist").
Status CheckParametersAgainstWorld(const EvalEnvironment& env, ParameterValues* values);

// The value as shown to users: "****" for NoEcho parameters.
std::string DisplayValue(const ResolvedParameter& p);

}  // namespace ms
