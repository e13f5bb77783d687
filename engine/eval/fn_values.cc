// Value functions: Fn::GetAtt, Join, Select, Split, Sub, Base64, GetAZs,
// Cidr, FindInMap, ImportValue, and the AWS::LanguageExtensions functions
// Fn::Length and Fn::ToJsonString.
//
// Each function propagates Unknown: when an input it needs is not known yet,
// its result is Unknown with the union of the inputs' refs.
#include <utility>

#include "eval/cidr.h"
#include "eval/eval_walker.h"
#include "template/sub_string.h"

namespace ms::eval_internal {
namespace {

// Recorded from AWS (corpus/AWS_ERROR_MESSAGES.md or public bug reports).
constexpr const char* kJoinError =
    "Template error: every Fn::Join object requires two parameters, (1) a string delimiter and (2) "
    "a list of strings to be joined or a function that returns a list of strings (such as "
    "Fn::GetAZs) to be joined.";
constexpr const char* kSelectError =
    "Template error: Fn::Select requires a list argument with two elements: an integer index and a "
    "list";
constexpr const char* kSplitError =
    "Template error: every Fn::Split object requires two parameters, (1) a string delimiter and (2) "
    "a string to be split or a function that returns a string to be split.";
constexpr const char* kGetAttError =
    "Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name "
    "and the resource attribute";
constexpr const char* kSubError =
    "Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. "
    "Specify a string as first argument, and an optional second argument to specify a mapping of "
    "values to replace in the string";
constexpr const char* kFindInMapError =
    "Template error: every Fn::FindInMap object requires three parameters, the map name, map key "
    "and the attribute for return value";
// As reimplemented by Eucalyptus after AWS; not independently recorded.
constexpr const char* kSubVariablesError =
    "Template error: every value of the context object of every Fn::Sub object must be a string or "
    "a function that returns a string";
constexpr const char* kBase64Error =
    "Template error: every Fn::Base64 object must have a String-typed value.";
constexpr const char* kGetAZsError =
    "Template error: every Fn::GetAZs object must have a String-typed value.";
// (ours)
constexpr const char* kCidrError =
    "Template error: every Fn::Cidr object requires three parameters, (1) an IP block, (2) the "
    "number of subnets (1 to 256) and (3) the number of subnet bits";
constexpr const char* kImportValueError =
    "Template error: every Fn::ImportValue object requires a string export name";
constexpr const char* kLengthError =
    "Transform AWS::LanguageExtensions failed with: Fn::Length layout is incorrect";
constexpr const char* kToJsonStringError =
    "Transform AWS::LanguageExtensions failed with: Fn::ToJsonString layout is incorrect";

bool IsPair(const Value& arg) { return arg.is_list() && arg.list().size() == 2; }

std::string Base64Encode(const std::string& in) {
  static const char kTable[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t n = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    out += kTable[(n >> 18) & 63];
    out += kTable[(n >> 12) & 63];
    out += kTable[(n >> 6) & 63];
    out += kTable[n & 63];
  }
  if (i < in.size()) {
    uint32_t n = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) n |= uint32_t(uint8_t(in[i + 1])) << 8;
    out += kTable[(n >> 18) & 63];
    out += kTable[(n >> 12) & 63];
    out += i + 1 < in.size() ? kTable[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Collects the refs of every Unknown inside `v` (ToJsonString of a map that
// holds a resource's attribute is not known yet either). Iterative.
void CollectNestedUnknowns(const Value& v, std::vector<std::string>* refs) {
  std::vector<const Value*> stack{&v};
  while (!stack.empty()) {
    const Value* cur = stack.back();
    stack.pop_back();
    if (cur->is_unknown()) {
      AddRefs(*cur, refs);
    } else if (cur->is_list()) {
      for (const Value& item : cur->list()) stack.push_back(&item);
    } else if (cur->is_map()) {
      for (const Member& m : cur->map()) stack.push_back(&m.value);
    }
  }
}

// An integer argument (Fn::Select's index, Fn::Cidr's numbers): a number or
// a string holding one.
bool IntegerOf(const Value& v, int64_t* out) {
  if (!v.is_number() && !v.is_string()) return false;
  std::optional<int64_t> n = v.as_integer();
  if (!n) return false;
  *out = *n;
  return true;
}

// Without AWS::LanguageExtensions, Fn::FindInMap's arguments may only be
// literals, Ref and nested Fn::FindInMap (AWS rejects e.g. Fn::Join there).
bool PlainFindInMapArgument(const Value& v) {
  if (v.is_scalar()) return true;
  if (!v.is_map() || v.map().size() != 1) return false;
  const std::string& key = v.map()[0].key;
  return key == "Ref" || key == "Fn::FindInMap";
}

}  // namespace

// Fn::GetAtt: [Resource, Attribute] or "Resource.Attribute" (split at the
// first dot: the attribute may itself contain dots, e.g. Outputs.Name).
Status Walker::GetAtt(const Value& arg, int depth, Value* out, bool* no_value) {
  std::string id, attribute;
  if (arg.is_string()) {
    size_t dot = arg.str().find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == arg.str().size()) {
      return Status::Validation(kGetAttError);
    }
    id = arg.str().substr(0, dot);
    attribute = arg.str().substr(dot + 1);
    return ResolveAttribute(id, attribute, out);
  }
  if (!IsPair(arg) || !arg.list()[0].is_string() || arg.list()[0].str().empty()) {
    return Status::Validation(kGetAttError);
  }
  id = arg.list()[0].str();
  // The attribute name may be a Ref to a parameter.
  Value name;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[1], depth, &name));
  if (name.is_unknown()) {
    MS_RETURN_IF_ERROR(CheckResourceUse(id, Use::kGetAtt));
    std::vector<std::string> refs{id};
    AddRefs(name, &refs);
    *out = Value::Unknown(std::move(refs));
    return Status::OK();
  }
  if (!name.is_string() || name.str().empty()) return Status::Validation(kGetAttError);
  return ResolveAttribute(id, name.str(), out);
}

Status Walker::Join(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!IsPair(arg)) return Status::Validation(kJoinError);
  Value delimiter, items;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, &delimiter));
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[1], depth, &items));
  if (AnyUnknown({&delimiter, &items}, out)) return Status::OK();
  if (!IsText(delimiter) || !items.is_list()) return Status::Validation(kJoinError);
  const std::string sep = delimiter.scalar_text();
  std::string joined;
  std::vector<std::string> refs;
  for (size_t i = 0; i < items.list().size(); ++i) {
    const Value& item = items.list()[i];
    if (item.is_unknown()) {
      AddRefs(item, &refs);
      continue;
    }
    if (!IsText(item)) return Status::Validation(kJoinError);
    if (i > 0) joined += sep;
    joined += item.scalar_text();
  }
  *out = refs.empty() ? Value::String(std::move(joined)) : Value::Unknown(std::move(refs));
  return Status::OK();
}

Status Walker::Select(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!IsPair(arg)) return Status::Validation(kSelectError);
  Value index, list;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, &index));
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[1], depth, &list));
  if (AnyUnknown({&index, &list}, out)) return Status::OK();
  int64_t n = 0;
  if (!IntegerOf(index, &n) || !list.is_list()) return Status::Validation(kSelectError);
  if (n < 0 || static_cast<uint64_t>(n) >= list.list().size()) {
    return Status::Validation("Template error: Fn::Select cannot select nonexistent value at index " +
                              std::to_string(n));
  }
  *out = std::move(list.mutable_list()[static_cast<size_t>(n)]);
  return Status::OK();
}

Status Walker::Split(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!IsPair(arg)) return Status::Validation(kSplitError);
  Value delimiter, source;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, &delimiter));
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[1], depth, &source));
  if (AnyUnknown({&delimiter, &source}, out)) return Status::OK();
  if (!IsText(delimiter) || delimiter.scalar_text().empty() || !IsText(source)) {
    return Status::Validation(kSplitError);
  }
  const std::string sep = delimiter.scalar_text();
  const std::string text = source.scalar_text();
  Value::List parts;
  size_t start = 0;
  while (true) {
    size_t found = text.find(sep, start);
    if (found == std::string::npos) {
      parts.push_back(Value::String(text.substr(start)));
      break;
    }
    parts.push_back(Value::String(text.substr(start, found - start)));
    start = found + sep.size();
  }
  *out = Value::MakeList(std::move(parts));
  return Status::OK();
}

// Fn::Sub: "text ${Var} ${Res.Attr} ${!Literal}" or [text, {Var: value}].
Status Walker::Sub(const Value& arg, int depth, Value* out, bool* no_value) {
  const Value* text = &arg;
  const Value* vars = nullptr;
  if (arg.is_list()) {
    if (!IsPair(arg) || !arg.list()[1].is_map()) return Status::Validation(kSubError);
    text = &arg.list()[0];
    vars = &arg.list()[1];
  }
  if (!text->is_string()) return Status::Validation(kSubError);

  // The map's values, evaluated even when unused (AWS checks them all).
  std::vector<std::pair<const std::string*, Value>> locals;
  if (vars != nullptr) {
    for (const Member& m : vars->map()) {
      Value v;
      MS_RETURN_IF_ERROR(EvalArg(m.value, depth, &v));
      if (!IsText(v) && !v.is_unknown()) return Status::Validation(kSubVariablesError);
      locals.emplace_back(&m.key, std::move(v));
    }
  }

  std::vector<SubPart> parts;
  MS_RETURN_IF_ERROR(ParseSubString(text->str(), &parts));
  std::string result;
  std::vector<std::string> refs;
  for (const SubPart& part : parts) {
    if (!part.is_variable) {
      result += part.text;
      continue;
    }
    const Value* local = nullptr;
    for (const auto& l : locals) {
      if (*l.first == part.text) local = &l.second;
    }
    Value resolved;
    if (local == nullptr) {
      size_t dot = part.text.find('.');
      bool unused = false;
      if (dot == std::string::npos) {
        MS_RETURN_IF_ERROR(ResolveName(part.text, Use::kSub, &resolved, &unused));
      } else {
        MS_RETURN_IF_ERROR(ResolveAttribute(part.text.substr(0, dot), part.text.substr(dot + 1), &resolved));
      }
      local = &resolved;
    }
    if (local->is_unknown()) {
      AddRefs(*local, &refs);
    } else if (IsText(*local)) {
      result += local->scalar_text();
    } else if (!local->is_null()) {  // ${AWS::NoValue} substitutes nothing
      return Status::Validation("Template error: variable " + part.text +
                                " in Fn::Sub expression does not resolve to a string");
    }
  }
  *out = refs.empty() ? Value::String(std::move(result)) : Value::Unknown(std::move(refs));
  return Status::OK();
}

Status Walker::Base64(const Value& arg, int depth, Value* out, bool* no_value) {
  Value v;
  MS_RETURN_IF_ERROR(EvalArg(arg, depth, &v));
  if (v.is_unknown()) {
    *out = std::move(v);
    return Status::OK();
  }
  if (!IsText(v)) return Status::Validation(kBase64Error);
  *out = Value::String(Base64Encode(v.scalar_text()));
  return Status::OK();
}

// Fn::GetAZs: "" / null (and Ref AWS::Region) mean the stack's region.
Status Walker::GetAZs(const Value& arg, int depth, Value* out, bool* no_value) {
  if (in_import_value_ > 0) return Status::Validation(kImportValueDependsOnResources);
  Value region;
  MS_RETURN_IF_ERROR(EvalArg(arg, depth, &region));
  if (region.is_unknown()) {
    *out = std::move(region);
    return Status::OK();
  }
  if (!region.is_null() && !region.is_string()) return Status::Validation(kGetAZsError);
  std::string name = region.is_null() || region.str().empty() ? e_.pseudo_.region : region.str();
  *out = Value::StringList(e_.env_.AvailabilityZones(name));
  return Status::OK();
}

Status Walker::Cidr(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_list() || arg.list().size() != 3) return Status::Validation(kCidrError);
  Value block, count, bits;
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[0], depth, &block));
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[1], depth, &count));
  MS_RETURN_IF_ERROR(EvalArg(arg.list()[2], depth, &bits));
  if (AnyUnknown({&block, &count, &bits}, out)) return Status::OK();
  int64_t n = 0, b = 0;
  if (!block.is_string() || !IntegerOf(count, &n) || !IntegerOf(bits, &b)) {
    return Status::Validation(kCidrError);
  }
  std::vector<std::string> subnets;
  MS_RETURN_IF_ERROR(CidrSubnets(block.str(), n, b, &subnets));
  *out = Value::StringList(std::move(subnets));
  return Status::OK();
}

// Fn::FindInMap [Map, TopKey, SecondKey] and, with AWS::LanguageExtensions,
// a fourth argument {DefaultValue: v} used when the keys are not found.
Status Walker::FindInMap(const Value& arg, int depth, Value* out, bool* no_value) {
  const bool extended = language_extensions();
  if (!arg.is_list()) return Status::Validation(kFindInMapError);
  const Value::List& args = arg.list();
  if (args.size() != 3 && !(extended && args.size() == 4)) return Status::Validation(kFindInMapError);
  const Value* fallback = nullptr;
  if (args.size() == 4) {
    const Value& d = args[3];
    if (!d.is_map() || d.map().size() != 1 || d.map()[0].key != "DefaultValue") {
      return Status::Validation(kFindInMapError);
    }
    fallback = &d.map()[0].value;
  }
  Value keys[3];
  for (int i = 0; i < 3; ++i) {
    if (!extended && !PlainFindInMapArgument(args[i])) return Status::Validation(kFindInMapError);
    MS_RETURN_IF_ERROR(EvalArg(args[i], depth, &keys[i]));
  }
  if (AnyUnknown({&keys[0], &keys[1], &keys[2]}, out)) return Status::OK();
  for (const Value& k : keys) {
    if (!IsText(k)) return Status::Validation(kFindInMapError);
  }
  const std::string map = keys[0].scalar_text(), top = keys[1].scalar_text(),
                    second = keys[2].scalar_text();
  const Value* m = t_.mappings.is_map() ? t_.mappings.find(map) : nullptr;
  const Value* level = m && m->is_map() ? m->find(top) : nullptr;
  const Value* found = level && level->is_map() ? level->find(second) : nullptr;
  if (found != nullptr) {
    *out = *found;
    return Status::OK();
  }
  if (fallback != nullptr) return EvalArg(*fallback, depth, out);
  return Status::Validation("Template error: Unable to get mapping for " + map + "::" + top + "::" + second);
}

// Fn::ImportValue: the export's name must not depend on resources, other
// imports or Fn::GetAZs (checked while evaluating it).
Status Walker::ImportValue(const Value& arg, int depth, Value* out, bool* no_value) {
  if (in_import_value_ > 0) return Status::Validation(kImportValueDependsOnResources);
  Value name;
  ++in_import_value_;
  Status s = EvalArg(arg, depth, &name);
  --in_import_value_;
  MS_RETURN_IF_ERROR(s);
  if (name.is_unknown()) {  // a parameter without a value yet
    *out = std::move(name);
    return Status::OK();
  }
  if (!IsText(name) || name.scalar_text().empty()) return Status::Validation(kImportValueError);
  return e_.env_.ImportValue(name.scalar_text(), out);
}

Status Walker::Length(const Value& arg, int depth, Value* out, bool* no_value) {
  Value list;
  MS_RETURN_IF_ERROR(EvalArg(arg, depth, &list));
  if (list.is_unknown()) {
    *out = std::move(list);
    return Status::OK();
  }
  if (!list.is_list()) return Status::Validation(kLengthError);
  *out = Value::Integer(static_cast<int64_t>(list.list().size()));
  return Status::OK();
}

// Fn::ToJsonString: a map or list as compact JSON text.
Status Walker::ToJsonString(const Value& arg, int depth, Value* out, bool* no_value) {
  Value v;
  MS_RETURN_IF_ERROR(EvalArg(arg, depth, &v));
  if (v.is_unknown()) {
    *out = std::move(v);
    return Status::OK();
  }
  if (!v.is_map() && !v.is_list()) return Status::Validation(kToJsonStringError);
  std::vector<std::string> refs;
  CollectNestedUnknowns(v, &refs);
  *out = refs.empty() ? Value::String(v.ToJson()) : Value::Unknown(std::move(refs));
  return Status::OK();
}

}  // namespace ms::eval_internal
