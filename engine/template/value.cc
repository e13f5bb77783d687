#include "template/value.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cctype>

namespace ms {

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = Kind::kBool;
  v.bool_ = b;
  return v;
}

Value Value::Number(std::string text) {
  Value v;
  v.kind_ = Kind::kNumber;
  v.data_ = std::move(text);
  return v;
}

Value Value::Integer(int64_t n) { return Number(std::to_string(n)); }

Value Value::Double(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15) {
    return Integer(static_cast<int64_t>(d));
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d);
  return Number(std::string(buf, res.ptr));
}

Value Value::String(std::string s) {
  Value v;
  v.kind_ = Kind::kString;
  v.data_ = std::move(s);
  return v;
}

Value Value::MakeList(List items) {
  Value v;
  v.kind_ = Kind::kList;
  v.data_ = std::move(items);
  return v;
}

Value Value::StringList(std::vector<std::string> items) {
  List list;
  list.reserve(items.size());
  for (std::string& s : items) list.push_back(String(std::move(s)));
  return MakeList(std::move(list));
}

Value Value::MakeMap(Map members) {
  Value v;
  v.kind_ = Kind::kMap;
  v.data_ = std::move(members);
  return v;
}

Value Value::Unknown(std::vector<std::string> refs) {
  Value v;
  v.kind_ = Kind::kUnknown;
  v.data_ = std::move(refs);
  return v;
}

std::string Value::scalar_text() const {
  switch (kind_) {
    case Kind::kString:
    case Kind::kNumber:
      return str();
    case Kind::kBool:
      return bool_ ? "true" : "false";
    default:
      return "";
  }
}

std::optional<double> Value::as_double() const {
  if (!is_number() && !is_string()) return std::nullopt;
  const std::string& s = str();
  if (s.empty()) return std::nullopt;
  // Leading/trailing space is not a number; strtod would skip leading space.
  if (std::isspace(static_cast<unsigned char>(s.front())) ||
      std::isspace(static_cast<unsigned char>(s.back()))) {
    return std::nullopt;
  }
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
  // Reject hex floats and "inf"/"nan" spellings strtod accepts.
  for (char c : s) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' ||
          c == 'e' || c == 'E')) {
      return std::nullopt;
    }
  }
  return d;
}

std::optional<int64_t> Value::as_integer() const {
  if (!is_number() && !is_string()) return std::nullopt;
  int64_t n = 0;
  const char* b = str().data();
  const char* e = b + str().size();
  if (b != e && *b == '+') ++b;
  auto res = std::from_chars(b, e, n);
  if (res.ec == std::errc() && res.ptr == e && b != e) return n;
  return std::nullopt;
}

const std::string& Value::str() const {
  static const std::string kEmpty;
  const std::string* s = std::get_if<std::string>(&data_);
  return s ? *s : kEmpty;
}

const Value::List& Value::list() const {
  static const List kEmpty;
  const List* l = std::get_if<List>(&data_);
  return l ? *l : kEmpty;
}

Value::List& Value::mutable_list() {
  if (!std::holds_alternative<List>(data_)) data_ = List();
  return std::get<List>(data_);
}

const Value::Map& Value::map() const {
  static const Map kEmpty;
  const Map* m = std::get_if<Map>(&data_);
  return m ? *m : kEmpty;
}

Value::Map& Value::mutable_map() {
  if (!std::holds_alternative<Map>(data_)) data_ = Map();
  return std::get<Map>(data_);
}

const std::vector<std::string>& Value::unknown_refs() const {
  static const Refs kEmpty;
  const Refs* r = std::get_if<Refs>(&data_);
  return r ? *r : kEmpty;
}

const Value* Value::find(std::string_view key) const {
  for (const Member& m : map()) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

Value* Value::find(std::string_view key) {
  Map* members = std::get_if<Map>(&data_);
  if (members == nullptr) return nullptr;
  for (Member& m : *members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

void Value::set(std::string key, Value v) {
  if (Value* existing = find(key)) {
    *existing = std::move(v);
    return;
  }
  mutable_map().push_back(Member{std::move(key), std::move(v)});
}

std::string_view Value::function_name() const {
  if (kind_ != Kind::kMap || map().size() != 1) return {};
  const std::string& k = map()[0].key;
  if (k == "Ref" || k == "Condition" || k.rfind("Fn::", 0) == 0) return k;
  return {};
}

bool Value::operator==(const Value& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return bool_ == o.bool_;
    case Kind::kNumber:
    case Kind::kString:
      return str() == o.str();
    case Kind::kList:
      return list() == o.list();
    case Kind::kMap: {
      const Map& a = map();
      const Map& b = o.map();
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].key != b[i].key || a[i].value != b[i].value) return false;
      }
      return true;
    }
    case Kind::kUnknown:
      return unknown_refs() == o.unknown_refs();
  }
  return false;
}

// True for the bytes a JSON string must escape: '"', '\\' and controls.
static constexpr std::array<bool, 256> kNeedsEscape = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = t['\\'] = true;
  return t;
}();

static void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  // Runs of characters that need no escape are appended whole (the table
  // keeps the scan to a load and a test per byte: world records are
  // serialized at every commit).
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (!kNeedsEscape[c]) continue;
    const char* esc = nullptr;
    switch (c) {
      case '"': esc = "\\\""; break;
      case '\\': esc = "\\\\"; break;
      case '\n': esc = "\\n"; break;
      case '\r': esc = "\\r"; break;
      case '\t': esc = "\\t"; break;
      case '\b': esc = "\\b"; break;
      case '\f': esc = "\\f"; break;
      default:
        if (c >= 0x20) continue;
    }
    out->append(s.data() + run, i - run);
    run = i + 1;
    if (esc != nullptr) {
      out->append(esc);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out->append(buf);
    }
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

static void AppendJson(std::string* out, const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      out->append("null");
      break;
    case Value::Kind::kBool:
      out->append(v.as_bool() ? "true" : "false");
      break;
    case Value::Kind::kNumber:
      out->append(v.str());
      break;
    case Value::Kind::kString:
      AppendJsonString(out, v.str());
      break;
    case Value::Kind::kList: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.list()) {
        if (!first) out->push_back(',');
        first = false;
        AppendJson(out, item);
      }
      out->push_back(']');
      break;
    }
    case Value::Kind::kMap: {
      out->push_back('{');
      bool first = true;
      for (const Member& m : v.map()) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(out, m.key);
        out->push_back(':');
        AppendJson(out, m.value);
      }
      out->push_back('}');
      break;
    }
    case Value::Kind::kUnknown: {
      out->append("{\"Unknown\":[");
      bool first = true;
      for (const std::string& r : v.unknown_refs()) {
        if (!first) out->push_back(',');
        first = false;
        AppendJsonString(out, r);
      }
      out->append("]}");
      break;
    }
  }
}

std::string Value::ToJson() const {
  std::string out;
  AppendJson(&out, *this);
  return out;
}

void Value::AppendJsonTo(std::string* out) const { AppendJson(out, *this); }

void AppendJsonQuoted(std::string* out, std::string_view s) { AppendJsonString(out, s); }

const char* KindName(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNull: return "null";
    case Value::Kind::kBool: return "boolean";
    case Value::Kind::kNumber: return "number";
    case Value::Kind::kString: return "string";
    case Value::Kind::kList: return "list";
    case Value::Kind::kMap: return "map";
    case Value::Kind::kUnknown: return "unknown";
  }
  return "?";
}

}  // namespace ms
