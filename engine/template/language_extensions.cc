#include "template/language_extensions.h"

#include <unordered_set>
#include <utility>

namespace ms {
namespace {

using ListLookup = std::function<bool(std::string_view, std::vector<std::string>*)>;

constexpr std::string_view kTransformName = "AWS::LanguageExtensions";
constexpr std::string_view kLoopPrefix = "Fn::ForEach::";
constexpr std::string_view kSections[] = {"Resources", "Conditions", "Outputs"};

// Recursion guards: the document's depth, and how much the loops may produce
// (a cartesian product of nested loops grows fast; AWS's own quotas apply to
// the result, 500 resources and 200 outputs).
constexpr int kMaxDepth = 256;
constexpr size_t kMaxProduced = 20000;

// Sentences measured against AWS (after the transform's prefix).
constexpr char kLayoutIncorrect[] = "Fn::ForEach layout is incorrect";
constexpr char kNoCollection[] =
    "Could not find a collection or could not be resolved for Fn::ForEach";

Status Fail(const std::string& message) {
  return Status::Validation("Transform AWS::LanguageExtensions failed with: " + message);
}

bool IsLoopKey(std::string_view key) { return key.substr(0, kLoopPrefix.size()) == kLoopPrefix; }

bool IsAlphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool IsAlphanumeric(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsAlphanumeric(c)) return false;
  }
  return true;
}

std::string StripNonAlphanumeric(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (IsAlphanumeric(c)) out.push_back(c);
  }
  return out;
}

// The identifiers in scope, innermost last (an inner loop may shadow).
using Bindings = std::vector<std::pair<std::string, std::string>>;

const std::string* Lookup(const Bindings& b, std::string_view name) {
  for (auto it = b.rbegin(); it != b.rend(); ++it) {
    if (it->first == name) return &it->second;
  }
  return nullptr;
}

// Replaces ${Id} (and, when `ampersand`, &{Id}) for the bound identifiers.
// Anything else, ${!Literal} included, is copied as it is.
std::string Substitute(std::string_view text, const Bindings& b, bool ampersand) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    bool opens = (c == '$' || (ampersand && c == '&')) && i + 1 < text.size() && text[i + 1] == '{';
    size_t close = opens ? text.find('}', i + 2) : std::string_view::npos;
    if (close == std::string_view::npos) {
      out.push_back(c);
      ++i;
      continue;
    }
    std::string_view name = text.substr(i + 2, close - i - 2);
    if (const std::string* item = Lookup(b, name)) {
      out += c == '&' ? StripNonAlphanumeric(*item) : *item;
    } else {
      out.append(text.substr(i, close - i + 1));
    }
    i = close + 1;
  }
  return out;
}

bool ContainsPlaceholder(std::string_view key, std::string_view id) {
  std::string dollar = "${" + std::string(id) + "}";
  std::string amp = "&{" + std::string(id) + "}";
  return key.find(dollar) != std::string_view::npos || key.find(amp) != std::string_view::npos;
}

// {"Fn::Sub": "Name"} with nothing left to substitute -> "Name".
void SimplifySub(Value* v) {
  if (v->function_name() != "Fn::Sub") return;
  const Value& arg = v->map()[0].value;
  if (!arg.is_string() || arg.str().find("${") != std::string::npos) return;
  SourcePos pos = v->pos();
  *v = Value::String(arg.str());
  v->set_pos(pos);
}

class Expander {
 public:
  Expander(const ListLookup& list_parameter, const Value* mappings)
      : list_parameter_(list_parameter), mappings_(mappings) {}

  // A whole section: the loops directly in it produce logical IDs,
  // condition names or output names, which must be alphanumeric.
  Status ExpandSection(Value* section) { return ExpandMap(section, {}, 0, /*names=*/true); }

 private:
  Status ExpandMap(Value* map, const Bindings& b, int depth, bool names) {
    if (depth > kMaxDepth) return Fail("the template nests too deeply");
    bool has_loop = false;
    for (const Member& m : map->map()) has_loop = has_loop || IsLoopKey(m.key);
    if (!has_loop) {
      for (Member& m : map->mutable_map()) MS_RETURN_IF_ERROR(ExpandValue(&m.value, b, depth + 1));
      return Status::OK();
    }
    Value::Map out;
    std::unordered_set<std::string> seen;
    for (Member& m : map->mutable_map()) {
      std::vector<Member> produced;
      if (IsLoopKey(m.key)) {
        MS_RETURN_IF_ERROR(ExpandLoop(m.key, m.value, b, depth + 1, names, &produced));
      } else {
        MS_RETURN_IF_ERROR(ExpandValue(&m.value, b, depth + 1));
        produced.push_back(std::move(m));
      }
      for (Member& p : produced) {
        if (!seen.insert(p.key).second) {
          return Fail("the key " + p.key + " is produced more than once by Fn::ForEach");
        }
        out.push_back(std::move(p));
      }
    }
    map->mutable_map() = std::move(out);
    return Status::OK();
  }

  Status ExpandValue(Value* v, const Bindings& b, int depth) {
    if (depth > kMaxDepth) return Fail("the template nests too deeply");
    if (v->is_list()) {
      for (Value& item : v->mutable_list()) MS_RETURN_IF_ERROR(ExpandValue(&item, b, depth + 1));
      return Status::OK();
    }
    if (!v->is_map()) return Status::OK();
    std::string_view fn = v->function_name();
    if (!b.empty() && fn == "Ref") return ExpandRef(v, b, depth);
    if (!b.empty() && fn == "Fn::Sub") return ExpandSub(&v->mutable_map()[0].value, b, depth);
    if (!b.empty() && fn == "Fn::GetAtt") {
      Value& arg = v->mutable_map()[0].value;
      MS_RETURN_IF_ERROR(ExpandValue(&arg, b, depth + 1));
      if (arg.is_list()) {
        for (Value& item : arg.mutable_list()) SimplifySub(&item);
      }
      return Status::OK();
    }
    return ExpandMap(v, b, depth, /*names=*/false);
  }

  // {"Ref": Identifier} is the item; {"Ref": {"Fn::Sub": ...}} a name.
  Status ExpandRef(Value* v, const Bindings& b, int depth) {
    Value& arg = v->mutable_map()[0].value;
    if (arg.is_string()) {
      if (const std::string* item = Lookup(b, arg.str())) {
        SourcePos pos = v->pos();
        *v = Value::String(*item);
        v->set_pos(pos);
      }
      return Status::OK();
    }
    MS_RETURN_IF_ERROR(ExpandValue(&arg, b, depth + 1));
    SimplifySub(&arg);
    return Status::OK();
  }

  // Only ${Identifier} is substituted in Fn::Sub (measured: &{} stays).
  Status ExpandSub(Value* arg, const Bindings& b, int depth) {
    if (arg->is_string()) {
      SourcePos pos = arg->pos();
      *arg = Value::String(Substitute(arg->str(), b, /*ampersand=*/false));
      arg->set_pos(pos);
      return Status::OK();
    }
    if (arg->is_list() && !arg->list().empty() && arg->list()[0].is_string()) {
      Value& text = arg->mutable_list()[0];
      SourcePos pos = text.pos();
      text = Value::String(Substitute(text.str(), b, /*ampersand=*/false));
      text.set_pos(pos);
      for (size_t i = 1; i < arg->list().size(); ++i) {
        MS_RETURN_IF_ERROR(ExpandValue(&arg->mutable_list()[i], b, depth + 1));
      }
      return Status::OK();
    }
    return ExpandValue(arg, b, depth + 1);
  }

  Status ExpandLoop(const std::string& key, const Value& spec, const Bindings& b, int depth,
                    bool names, std::vector<Member>* out) {
    if (depth > kMaxDepth) return Fail("the template nests too deeply");
    if (key.size() == kLoopPrefix.size() || !spec.is_list() || spec.list().size() != 3) {
      return Fail(kLayoutIncorrect);
    }
    const Value& id_value = spec.list()[0];
    const Value& fragment = spec.list()[2];
    if (!id_value.is_string() || id_value.str().empty() || !fragment.is_map()) {
      return Fail(kLayoutIncorrect);
    }
    const std::string& id = id_value.str();
    for (const Member& m : fragment.map()) {
      if (!IsLoopKey(m.key) && !ContainsPlaceholder(m.key, id)) {
        // The docs require it ("${Identifier} or &{Identifier} must be
        // included in the OutputKey"); the wording is moonstack's.
        return Fail("the OutputKey " + m.key + " of " + key + " must contain ${" + id +
                    "} or &{" + id + "}");
      }
    }
    std::vector<std::string> items;
    MS_RETURN_IF_ERROR(Collection(spec.list()[1], b, &items));
    for (const std::string& item : items) {
      Bindings scoped = b;
      scoped.emplace_back(id, item);
      for (const Member& m : fragment.map()) {
        if (IsLoopKey(m.key)) {
          MS_RETURN_IF_ERROR(ExpandLoop(m.key, m.value, scoped, depth + 1, names, out));
          continue;
        }
        std::string produced_key = Substitute(m.key, scoped, /*ampersand=*/true);
        if (names && !IsAlphanumeric(produced_key)) {
          return Fail("OutputKey '" + produced_key + "' should be alphanumeric");
        }
        Value copy = m.value;
        MS_RETURN_IF_ERROR(ExpandValue(&copy, scoped, depth + 1));
        out->push_back(Member{std::move(produced_key), std::move(copy)});
        if (++produced_ > kMaxProduced) {
          return Fail("Fn::ForEach produces more than " + std::to_string(kMaxProduced) +
                      " members");
        }
      }
    }
    return Status::OK();
  }

  // A string argument of Fn::FindInMap in a collection: literal or identifier.
  bool ResolveName(const Value& v, const Bindings& b, std::string* out) const {
    if (v.is_string()) {
      *out = v.str();
      return true;
    }
    if (v.function_name() == "Ref" && v.map()[0].value.is_string()) {
      if (const std::string* item = Lookup(b, v.map()[0].value.str())) {
        *out = *item;
        return true;
      }
    }
    return false;
  }

  static bool ScalarItems(const Value& list, std::vector<std::string>* items) {
    if (!list.is_list()) return false;
    for (const Value& v : list.list()) {
      if (!v.is_scalar()) return false;
      items->push_back(v.scalar_text());
    }
    return true;
  }

  Status FindInMapCollection(const Value& args, const Bindings& b,
                             std::vector<std::string>* items) const {
    if (!args.is_list() || args.list().size() < 3 || args.list().size() > 4) {
      return Fail(kNoCollection);
    }
    std::string keys[3];
    for (int i = 0; i < 3; ++i) {
      if (!ResolveName(args.list()[i], b, &keys[i])) return Fail(kNoCollection);
    }
    const Value* v = mappings_ && mappings_->is_map() ? mappings_->find(keys[0]) : nullptr;
    if (v && v->is_map()) v = v->find(keys[1]);
    if (v && v->is_map()) v = v->find(keys[2]);
    if (v && ScalarItems(*v, items)) return Status::OK();
    items->clear();
    if (args.list().size() == 4 && args.list()[3].is_map()) {
      const Value* def = args.list()[3].find("DefaultValue");
      if (def && ScalarItems(*def, items)) return Status::OK();
    }
    return Fail(kNoCollection);
  }

  Status Collection(const Value& c, const Bindings& b, std::vector<std::string>* items) const {
    if (c.is_list()) {
      for (const Value& v : c.list()) {
        std::string name;
        if (v.is_scalar()) {
          items->push_back(v.scalar_text());
        } else if (v.function_name() == "Ref" && ResolveName(v, b, &name)) {
          items->push_back(name);  // an outer loop's identifier
        } else {
          return Fail(kNoCollection);
        }
      }
      return Status::OK();
    }
    std::string_view fn = c.function_name();
    if (fn == "Ref") {
      const Value& name = c.map()[0].value;
      // An identifier is one string, not a collection.
      if (!name.is_string() || Lookup(b, name.str()) || !list_parameter_ ||
          !list_parameter_(name.str(), items)) {
        return Fail(kNoCollection);
      }
      return Status::OK();
    }
    if (fn == "Fn::FindInMap") return FindInMapCollection(c.map()[0].value, b, items);
    if (c.is_map()) return Fail(kNoCollection);
    return Fail(kLayoutIncorrect);  // a string (measured), number, ...
  }

  const ListLookup& list_parameter_;
  const Value* mappings_;
  size_t produced_ = 0;
};

// Whether v has an Fn::ForEach key anywhere (depth-bounded).
bool ContainsLoop(const Value& v, int depth) {
  if (depth > kMaxDepth) return false;
  if (v.is_list()) {
    for (const Value& item : v.list()) {
      if (ContainsLoop(item, depth + 1)) return true;
    }
  } else if (v.is_map()) {
    for (const Member& m : v.map()) {
      if (IsLoopKey(m.key) || ContainsLoop(m.value, depth + 1)) return true;
    }
  }
  return false;
}

bool IsExpandedSection(std::string_view name) {
  for (std::string_view s : kSections) {
    if (s == name) return true;
  }
  return false;
}

// Loop names, as written: "The name must be unique within the template and
// can't conflict with any logical ID values in the Resources section."
Status CollectLoopNames(const Value& v, int depth, const Value* resources,
                        std::unordered_set<std::string>* names) {
  if (depth > kMaxDepth) return Fail("the template nests too deeply");
  if (v.is_list()) {
    for (const Value& item : v.list()) {
      MS_RETURN_IF_ERROR(CollectLoopNames(item, depth + 1, resources, names));
    }
    return Status::OK();
  }
  if (!v.is_map()) return Status::OK();
  for (const Member& m : v.map()) {
    if (IsLoopKey(m.key)) {
      std::string name = m.key.substr(kLoopPrefix.size());
      if (!name.empty() && !names->insert(name).second) {
        return Fail("the loop name " + name + " is used more than once; loop names must be "
                    "unique within the template");
      }
      if (!name.empty() && resources && resources->is_map() && resources->find(name)) {
        return Fail("the loop name " + name + " conflicts with a logical ID in the Resources "
                    "section");
      }
    }
    MS_RETURN_IF_ERROR(CollectLoopNames(m.value, depth + 1, resources, names));
  }
  return Status::OK();
}

// A resource's or output's Condition written as {"Fn::Sub": "Is${X}"} names
// a condition once the loop has filled it in (measured).
void SimplifyConditions(Value* section) {
  if (!section->is_map()) return;
  for (Member& entry : section->mutable_map()) {
    if (!entry.value.is_map()) continue;
    if (Value* cond = entry.value.find("Condition")) SimplifySub(cond);
  }
}

}  // namespace

bool UsesLanguageExtensions(const Value& root) {
  if (!root.is_map()) return false;
  const Value* t = root.find("Transform");
  if (!t) return false;
  if (t->is_string()) return t->str() == kTransformName;
  if (t->is_list()) {
    for (const Value& item : t->list()) {
      if (item.is_string() && item.str() == kTransformName) return true;
    }
  }
  return false;
}

Status ExpandLanguageExtensions(Value* root, const ListLookup& list_parameter) {
  if (!UsesLanguageExtensions(*root)) return Status::OK();
  // "It can't be used in ... AWSTemplateFormatVersion, Description, Metadata,
  // Transform, Parameters, Mappings, Rules, or Hooks sections."
  for (const Member& m : root->map()) {
    if (!IsExpandedSection(m.key) && ContainsLoop(m.value, 0)) {
      return Fail("Fn::ForEach is not supported in the " + m.key +
                  " section; it is supported in the Resources, Conditions and Outputs sections");
    }
  }
  std::unordered_set<std::string> names;
  const Value* resources = root->find("Resources");
  for (std::string_view section : kSections) {
    if (const Value* s = root->find(section)) {
      MS_RETURN_IF_ERROR(CollectLoopNames(*s, 0, resources, &names));
    }
  }

  Value mappings;
  if (const Value* m = root->find("Mappings")) mappings = *m;
  Expander expander(list_parameter, &mappings);
  for (std::string_view section : kSections) {
    Value* s = root->find(section);
    if (!s || !s->is_map()) continue;
    MS_RETURN_IF_ERROR(expander.ExpandSection(s));
    if (section != "Conditions") SimplifyConditions(s);
  }
  return Status::OK();
}

}  // namespace ms
