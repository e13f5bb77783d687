#include "stack/drift_compare.h"

#include <string>

#include "template/parse.h"

namespace ms {

namespace {

std::string ScalarText(const Value& v) {
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  return v.str();
}

// "~" and "/" escaped as JSON Pointer has them.
std::string PathPart(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

void Add(std::vector<PropertyDifference>* out, const std::string& path, const Value* expected, const Value* actual,
         const char* type) {
  out->push_back({path, expected ? DriftValueText(*expected) : "", actual ? DriftValueText(*actual) : "", type});
}

void Compare(const std::string& path, const Value& e, const Value& a, std::vector<PropertyDifference>* out);

bool Equal(const Value& e, const Value& a) {
  std::vector<PropertyDifference> diffs;
  Compare("", e, a, &diffs);
  return diffs.empty();
}

bool IsTagList(const Value& v) {
  if (!v.is_list() || v.list().empty()) return false;
  for (const Value& t : v.list()) {
    if (!t.is_map() || t.find("Key") == nullptr) return false;
  }
  return true;
}

const Value* TagWithKey(const Value& tags, const std::string& key, size_t* index) {
  const Value::List& l = tags.list();
  for (size_t i = 0; i < l.size(); ++i) {
    const Value* k = l[i].is_map() ? l[i].find("Key") : nullptr;
    if (k != nullptr && k->str() == key) {
      *index = i;
      return &l[i];
    }
  }
  return nullptr;
}

void CompareTags(const std::string& path, const Value& e, const Value& a, std::vector<PropertyDifference>* out) {
  const Value::List& el = e.list();
  for (size_t i = 0; i < el.size(); ++i) {
    size_t j = 0;
    const Value* match = TagWithKey(a, el[i].find("Key")->str(), &j);
    const std::string at = path + "/" + std::to_string(i);
    if (match == nullptr) Add(out, at, &el[i], nullptr, "REMOVE");
    else Compare(at, el[i], *match, out);
  }
  const Value::List& al = a.list();
  for (size_t j = 0; j < al.size(); ++j) {
    const Value* k = al[j].is_map() ? al[j].find("Key") : nullptr;
    size_t i = 0;
    // AWS's own tags (aws:cloudformation:stack-name, ...) are not the template's.
    if (k != nullptr && k->str().rfind("aws:", 0) == 0) continue;
    if (k == nullptr || TagWithKey(e, k->str(), &i) == nullptr) {
      Add(out, path + "/" + std::to_string(j), nullptr, &al[j], "ADD");
    }
  }
}

// The same elements in any order (each actual element used once).
bool SameElements(const Value::List& e, const Value::List& a) {
  if (e.size() != a.size()) return false;
  std::vector<bool> used(a.size(), false);
  for (const Value& x : e) {
    bool found = false;
    for (size_t j = 0; j < a.size() && !found; ++j) {
      if (!used[j] && Equal(x, a[j])) used[j] = found = true;
    }
    if (!found) return false;
  }
  return true;
}

void CompareLists(const std::string& path, const Value& e, const Value& a, std::vector<PropertyDifference>* out) {
  if (IsTagList(e) || IsTagList(a)) return CompareTags(path, e, a, out);
  const Value::List& el = e.list();
  const Value::List& al = a.list();
  if (SameElements(el, al)) return;
  for (size_t i = 0; i < el.size() || i < al.size(); ++i) {
    const std::string at = path + "/" + std::to_string(i);
    if (i >= al.size()) Add(out, at, &el[i], nullptr, "REMOVE");
    else if (i >= el.size()) Add(out, at, nullptr, &al[i], "ADD");
    else Compare(at, el[i], al[i], out);
  }
}

void CompareMaps(const std::string& path, const Value& e, const Value& a, std::vector<PropertyDifference>* out) {
  for (const Member& m : e.map()) {
    const Value* other = a.find(m.key);
    const std::string at = path + "/" + PathPart(m.key);
    if (other == nullptr || other->is_null()) Add(out, at, &m.value, nullptr, "REMOVE");
    else Compare(at, m.value, *other, out);
  }
  for (const Member& m : a.map()) {
    if (m.value.is_null() || e.find(m.key) != nullptr) continue;
    Add(out, path + "/" + PathPart(m.key), nullptr, &m.value, "ADD");
  }
}

// A JSON string on one side, a document on the other: compared as documents.
bool ParsesTo(const Value& text, Value* doc) {
  return text.is_string() && ParseJson(text.str(), doc).ok() && (doc->is_map() || doc->is_list());
}

void Compare(const std::string& path, const Value& e, const Value& a, std::vector<PropertyDifference>* out) {
  if (e.is_scalar() && a.is_scalar()) {
    if (ScalarText(e) != ScalarText(a)) Add(out, path, &e, &a, "NOT_EQUAL");
    return;
  }
  Value doc;
  if (!e.is_scalar() && ParsesTo(a, &doc)) {
    if (!Equal(e, doc)) Add(out, path, &e, &a, "NOT_EQUAL");
    return;
  }
  if (!a.is_scalar() && ParsesTo(e, &doc)) {
    if (!Equal(doc, a)) Add(out, path, &e, &a, "NOT_EQUAL");
    return;
  }
  if (e.is_map() && a.is_map()) return CompareMaps(path, e, a, out);
  if (e.is_list() && a.is_list()) return CompareLists(path, e, a, out);
  Add(out, path, &e, &a, "NOT_EQUAL");
}

}  // namespace

std::string DriftValueText(const Value& v) { return v.is_scalar() ? ScalarText(v) : v.ToJson(); }

namespace {

// `actual` without, in each top-level tag list the template sets, the
// stack's tags it leaves out (see the header).
Value WithoutStackTags(const Value& expected, const Value& actual, const std::vector<StackTag>& stack_tags) {
  if (stack_tags.empty() || !actual.is_map() || !expected.is_map()) return actual;
  Value out = actual;
  for (Member& m : out.mutable_map()) {
    const Value* want = expected.find(m.key);
    if (want == nullptr || !IsTagList(m.value)) continue;
    Value::List kept;
    for (const Value& t : m.value.list()) {
      const Value* k = t.find("Key");
      const Value* v = t.find("Value");
      size_t unused = 0;
      bool from_stack = false;
      if (k != nullptr && (!want->is_list() || TagWithKey(*want, k->str(), &unused) == nullptr)) {
        for (const StackTag& st : stack_tags) {
          if (st.key == k->str() && v != nullptr && v->is_scalar() && ScalarText(*v) == st.value) from_stack = true;
        }
      }
      if (!from_stack) kept.push_back(t);
    }
    m.value = Value::MakeList(std::move(kept));
  }
  return out;
}

}  // namespace

std::vector<PropertyDifference> CompareProperties(const Value& expected, const Value& actual_read,
                                                  const std::vector<StackTag>& stack_tags) {
  std::vector<PropertyDifference> out;
  if (!expected.is_map()) return out;
  static const Value kEmpty = Value::MakeMap();
  const Value actual = WithoutStackTags(expected, actual_read, stack_tags);
  const Value& a = actual.is_map() ? actual : kEmpty;
  for (const Member& m : expected.map()) {
    if (m.value.is_null()) continue;
    const Value* other = a.find(m.key);
    const std::string at = "/" + PathPart(m.key);
    if (other == nullptr || other->is_null()) Add(&out, at, &m.value, nullptr, "REMOVE");
    else Compare(at, m.value, *other, &out);
  }
  return out;
}

}  // namespace ms
