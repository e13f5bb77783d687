// Template parameters: declaration checks, value resolution, constraints.
//
// Messages are AWS's where they are known; see the comment above each one.
// AllowedPattern is a Java regular expression on AWS, matched with JavaRegex
// (eval/java_regex.h explains why not std::regex).
#include "eval/parameters.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/strings.h"
#include "eval/java_regex.h"

namespace ms {
namespace {

// ---------------------------------------------------------------------------
// Limits (CloudFormation quotas).
// ---------------------------------------------------------------------------

constexpr size_t kMaxParameters = 200;      // "Parameters: 200" (quotas page)
constexpr size_t kMaxValueBytes = 4096;     // "Parameter value: 4,096 bytes"

// ---------------------------------------------------------------------------
// Parameter types.
// ---------------------------------------------------------------------------

constexpr std::string_view kAwsSpecificTypes[] = {
    "AWS::EC2::AvailabilityZone::Name", "AWS::EC2::Image::Id",
    "AWS::EC2::Instance::Id",           "AWS::EC2::KeyPair::KeyName",
    "AWS::EC2::SecurityGroup::GroupName", "AWS::EC2::SecurityGroup::Id",
    "AWS::EC2::Subnet::Id",             "AWS::EC2::Volume::Id",
    "AWS::EC2::VPC::Id",                "AWS::Route53::HostedZone::Id",
};

constexpr std::string_view kSsmNameType = "AWS::SSM::Parameter::Name";

bool IsAwsSpecificScalar(std::string_view type) {
  return std::find(std::begin(kAwsSpecificTypes), std::end(kAwsSpecificTypes), type) !=
         std::end(kAwsSpecificTypes);
}

// "Prefix<inner>" -> inner.
bool Unwrap(std::string_view type, std::string_view prefix, std::string_view* inner) {
  if (type.size() < prefix.size() + 2 || type.substr(0, prefix.size()) != prefix ||
      type[prefix.size()] != '<' || type.back() != '>') {
    return false;
  }
  *inner = type.substr(prefix.size() + 1, type.size() - prefix.size() - 2);
  return true;
}

// The types that are not SSM types: what a parameter or an SSM value can be.
bool IsValueType(std::string_view type) {
  if (type == "String" || type == "Number" || type == "CommaDelimitedList") return true;
  if (IsAwsSpecificScalar(type)) return true;
  std::string_view inner;
  if (Unwrap(type, "List", &inner)) {
    return inner == "String" || inner == "Number" || IsAwsSpecificScalar(inner);
  }
  return false;
}

// The type of each element (list types) or of the value (scalar types), as
// far as constraints go. An SSM parameter's given value is a parameter-store
// key, which "you can treat as strings" for validation.
std::string_view ConstraintType(std::string_view type) {
  if (IsSsmParameterType(type) || type == kSsmNameType) return "String";
  if (type == "CommaDelimitedList") return "String";
  std::string_view inner;
  if (Unwrap(type, "List", &inner)) return inner;
  return type;
}

// Whether the given text is split into a list (SSM list types are not: their
// given value is one key).
bool SplitsGivenValue(std::string_view type) {
  return !IsSsmParameterType(type) && IsListParameterType(type);
}

// ---------------------------------------------------------------------------
// Values.
// ---------------------------------------------------------------------------

// A decimal number: optional sign, digits with an optional fraction (or a
// fraction alone), optional exponent. No spaces, no hex, no Infinity/NaN.
bool IsNumber(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp;
    if (exp == 0) return false;
  }
  return i == s.size();
}

// String length as AWS (Java) counts it: UTF-16 code units.
int64_t Utf16Length(std::string_view s) {
  int64_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) == 0x80) continue;  // continuation byte
    n += (b >= 0xF0) ? 2 : 1;          // 4-byte sequences are surrogate pairs
  }
  return n;
}

// A bound as AWS prints it: "3", not "3.0".
std::string FormatBound(double d) { return Value::Double(d).str(); }

// AWS's list of names in a message: "[A, B]".
std::string Bracketed(const std::vector<std::string>& names) { return "[" + Join(names, ", ") + "]"; }

bool IsAlphanumeric(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Constraint checks.
// ---------------------------------------------------------------------------

// A violated constraint: AWS's message, or the ConstraintDescription in its
// place ("Parameter Profiles failed to satisfy constraint: <description>",
// recorded from CreateChangeSet; note: no quotes around the name).
Status ConstraintFailure(const ParameterDecl& p, std::string message) {
  if (!p.constraint_description.empty()) {
    return Status::Validation("Parameter " + p.name +
                              " failed to satisfy constraint: " + p.constraint_description);
  }
  return Status::Validation(std::move(message));
}

Status CompilePattern(const ParameterDecl& p, JavaRegex* out) {
  Status s = JavaRegex::Compile(*p.allowed_pattern, out);
  if (!s.ok()) {
    // moonstack's wording: AWS's message for a bad pattern is not recorded.
    return Status::Validation("Template format error: Parameter '" + p.name +
                              "' AllowedPattern must be a valid regular expression: " +
                              s.message());
  }
  return Status::OK();
}

// Checks one value (or one element of a list value) of parameter p.
Status CheckElement(const ParameterDecl& p, std::string_view type, const std::string& v,
                    const JavaRegex* pattern) {
  const std::string quoted = "Parameter '" + p.name + "'";
  bool number = type == "Number";
  // Recorded against AWS (LocalStack snapshot): "Parameter 'Value' must be a number."
  if (number && !IsNumber(v)) return Status::Validation(quoted + " must be a number.");
  if (!p.allowed_values.empty() &&
      std::find(p.allowed_values.begin(), p.allowed_values.end(), v) == p.allowed_values.end()) {
    return ConstraintFailure(p, quoted + " must be one of AllowedValues");
  }
  if (number) {
    double d = std::strtod(v.c_str(), nullptr);
    // "Parameter 'AvailabilityZoneCount' must be a number not less than 1" /
    // "... not greater than 3" (CreateStack, recorded in a public bug report).
    if (p.min_value && d < *p.min_value) {
      return ConstraintFailure(p, quoted + " must be a number not less than " +
                                      FormatBound(*p.min_value));
    }
    if (p.max_value && d > *p.max_value) {
      return ConstraintFailure(p, quoted + " must be a number not greater than " +
                                      FormatBound(*p.max_value));
    }
    return Status::OK();
  }
  int64_t length = Utf16Length(v);
  if (p.min_length && length < *p.min_length) {
    return ConstraintFailure(p, quoted + " must contain at least " +
                                    std::to_string(*p.min_length) + " characters");
  }
  if (p.max_length && length > *p.max_length) {
    return ConstraintFailure(p, quoted + " must contain at most " +
                                    std::to_string(*p.max_length) + " characters");
  }
  if (pattern && !pattern->FullMatch(v)) {
    return ConstraintFailure(p, quoted + " must match pattern " + *p.allowed_pattern);
  }
  return Status::OK();
}

// Checks a whole value `text` of parameter p: size, type, constraints.
Status CheckValue(const ParameterDecl& p, const std::string& text) {
  if (text.size() > kMaxValueBytes) {
    // moonstack's wording; AWS's quota is "Parameter value: 4,096 bytes".
    return Status::Validation("Parameter '" + p.name + "' value must be no longer than " +
                              std::to_string(kMaxValueBytes) + " bytes");
  }
  JavaRegex pattern;
  bool has_pattern = p.allowed_pattern.has_value();
  if (has_pattern) MS_RETURN_IF_ERROR(CompilePattern(p, &pattern));
  std::string_view type = ConstraintType(p.type);
  const JavaRegex* pat = has_pattern ? &pattern : nullptr;
  if (!SplitsGivenValue(p.type)) return CheckElement(p, type, text, pat);
  for (const std::string& element : SplitCommaList(text)) {
    MS_RETURN_IF_ERROR(CheckElement(p, type, element, pat));
  }
  return Status::OK();
}

// The Value a resolved parameter stands for, before any SSM lookup.
Value MakeValue(const ParameterDecl& p, const std::string& text) {
  if (IsSsmParameterType(p.type)) {
    // The parameter-store value is only known at workflow start
    // (CheckParametersAgainstWorld); until then it is unknown, named after
    // the parameter as the evaluator does.
    return Value::Unknown({p.name});
  }
  return ParameterValueOf(p.type, text);
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API.
// ---------------------------------------------------------------------------

const ResolvedParameter* ParameterValues::Find(std::string_view name) const {
  for (const ResolvedParameter& p : list) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool IsSsmParameterType(std::string_view type, std::string* inner) {
  std::string_view in;
  if (!Unwrap(type, "AWS::SSM::Parameter::Value", &in)) return false;
  if (inner) *inner = std::string(in);
  return true;
}

bool IsKnownParameterType(std::string_view type) {
  if (IsValueType(type) || type == kSsmNameType) return true;
  std::string inner;
  // AWS::SSM::Parameter::Value<T> for any value type T, or for a parameter
  // name; never a list of SSM types.
  if (IsSsmParameterType(type, &inner)) return IsValueType(inner) || inner == kSsmNameType;
  return false;
}

bool IsListParameterType(std::string_view type) {
  std::string inner;
  if (IsSsmParameterType(type, &inner)) return IsListParameterType(inner);
  std::string_view unused;
  return type == "CommaDelimitedList" || Unwrap(type, "List", &unused);
}

Value ParameterValueOf(std::string_view type, std::string_view text) {
  return IsListParameterType(type) ? Value::StringList(SplitCommaList(text))
                                   : Value::String(std::string(text));
}

std::string AwsSpecificElementType(std::string_view type) {
  if (IsAwsSpecificScalar(type)) return std::string(type);
  std::string_view inner;
  if (Unwrap(type, "List", &inner) && IsAwsSpecificScalar(inner)) return std::string(inner);
  return "";
}

Status ValidateParameterDecls(const Template& t) {
  if (t.parameters.size() > kMaxParameters) {
    // "Template format error: Parameter count 61 is greater than max allowed
    // 60" (recorded when the quota was 60; it is 200 now).
    return Status::Validation("Template format error: Parameter count " +
                              std::to_string(t.parameters.size()) +
                              " is greater than max allowed " + std::to_string(kMaxParameters));
  }
  for (const ParameterDecl& p : t.parameters) {
    if (!IsAlphanumeric(p.name)) {
      // Recorded (LocalStack snapshot) for a parameter named AWS::NoValue.
      return Status::Validation("Template format error: Parameter name " + p.name +
                                " is non alphanumeric.");
    }
    if (p.type.empty()) {
      return Status::Validation(
          "Template format error: Every Parameters object must contain a Type member.");
    }
    if (!IsKnownParameterType(p.type)) {
      return Status::Validation("Template format error: Unrecognized parameter type: " + p.type);
    }
    if (p.allowed_pattern) {
      JavaRegex unused;
      MS_RETURN_IF_ERROR(CompilePattern(p, &unused));
    }
    // "If you define constraints for the parameter, you must specify a value
    // that adheres to those constraints." The default is checked as a value
    // would be, with the same messages.
    if (p.default_value) MS_RETURN_IF_ERROR(CheckValue(p, *p.default_value));
  }
  return Status::OK();
}

Status ResolveParameters(const Template& t, const std::vector<ParameterInput>& given,
                         const std::map<std::string, std::string>& previous,
                         ParameterValues* out) {
  out->list.clear();
  if (t.parameters.empty() && !given.empty()) {
    // Recorded from UpdateStack.
    return Status::Validation("Parameter values specified for a template which does not require them.");
  }
  std::map<std::string, const ParameterDecl*> declared;
  for (const ParameterDecl& p : t.parameters) declared[p.name] = &p;

  // Unknown keys first, all of them, in the order given.
  std::vector<std::string> unknown;
  std::map<std::string, const ParameterInput*> inputs;
  for (const ParameterInput& in : given) {
    if (!declared.count(in.key)) {
      if (std::find(unknown.begin(), unknown.end(), in.key) == unknown.end()) {
        unknown.push_back(in.key);
      }
      continue;
    }
    inputs[in.key] = &in;  // a repeated key: the last one wins
  }
  if (!unknown.empty()) {
    return Status::Validation("Parameters: " + Bracketed(unknown) + " do not exist in the template");
  }

  // Then each parameter's value: given, previous, or default.
  std::vector<std::string> missing;
  for (const ParameterDecl& p : t.parameters) {
    ResolvedParameter r;
    r.name = p.name;
    r.type = p.type;
    r.no_echo = p.no_echo;
    auto it = inputs.find(p.name);
    const ParameterInput* in = it == inputs.end() ? nullptr : it->second;
    if (in && in->use_previous_value) {
      if (in->value && !in->value->empty()) {
        // Recorded from UpdateStack.
        return Status::Validation("Invalid input for parameter key " + p.name +
                                  ". Cannot specify usePreviousValue as true and non empty "
                                  "value for a parameter");
      }
      auto prev = previous.find(p.name);
      if (prev == previous.end()) {
        // Recorded from UpdateStack.
        return Status::Validation(
            "Cannot specify usePreviousValue as true for a parameter key not in the previous "
            "template");
      }
      r.text = prev->second;
    } else if (in && in->value) {
      r.text = *in->value;
    } else if (p.default_value) {
      r.text = *p.default_value;
    } else {
      missing.push_back(p.name);
      continue;
    }
    out->list.push_back(std::move(r));
  }
  if (!missing.empty()) {
    // "Parameters: [ArtifactPath, ConfigS3Bucket] must have values"
    out->list.clear();
    return Status::Validation("Parameters: " + Bracketed(missing) + " must have values");
  }

  // Finally types and constraints, in template order.
  for (ResolvedParameter& r : out->list) {
    const ParameterDecl& p = *declared[r.name];
    Status s = CheckValue(p, r.text);
    if (!s.ok()) {
      out->list.clear();
      return s;
    }
    r.value = MakeValue(p, r.text);
  }
  return Status::OK();
}

Status ResolveSsmParameters(const EvalEnvironment& env, ParameterValues* values) {
  // Every missing key is reported together:
  // "Unable to fetch parameters [kms_arn] from parameter store for this account."
  std::vector<std::string> unfetched;
  for (ResolvedParameter& r : values->list) {
    std::string inner;
    bool is_value = IsSsmParameterType(r.type, &inner);
    if (!is_value && r.type != kSsmNameType) continue;
    std::string resolved;
    if (!env.SsmParameter(r.text, &resolved)) {
      if (std::find(unfetched.begin(), unfetched.end(), r.text) == unfetched.end()) {
        unfetched.push_back(r.text);
      }
      continue;
    }
    if (!is_value) continue;  // AWS::SSM::Parameter::Name: the key is the value
    r.ssm_resolved = resolved;
    r.value = ParameterValueOf(inner, resolved);
  }
  if (!unfetched.empty()) {
    return Status::Validation("Unable to fetch parameters " + Bracketed(unfetched) +
                              " from parameter store for this account.");
  }
  return Status::OK();
}

Status CheckParametersAgainstWorld(const EvalEnvironment& env, ParameterValues* values) {
  MS_RETURN_IF_ERROR(ResolveSsmParameters(env, values));
  // Then AWS-specific values (given directly, or held in an SSM parameter).
  for (const ResolvedParameter& r : values->list) {
    std::string inner;
    std::string element =
        IsSsmParameterType(r.type, &inner) ? AwsSpecificElementType(inner) : AwsSpecificElementType(r.type);
    if (element.empty()) continue;
    std::vector<std::string> items;
    if (r.value.is_list()) {
      for (const Value& v : r.value.list()) items.push_back(v.scalar_text());
    } else {
      items.push_back(r.value.scalar_text());
    }
    for (const std::string& item : items) {
      if (!env.AwsValueExists(element, item)) {
        return Status::Validation("Parameter validation failed: parameter value " + item +
                                  " for parameter name " + r.name + " does not exist");
      }
    }
  }
  return Status::OK();
}

std::string DisplayValue(const ResolvedParameter& p) { return p.no_echo ? "****" : p.text; }

}  // namespace ms
