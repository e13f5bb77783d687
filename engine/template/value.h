// Value: a template document node (JSON/YAML), or the result of evaluating one.
//
// A Value is null, a boolean, a number, a string, a list, a map or *unknown*.
// Numbers keep their source text ("1.10" stays "1.10"): CloudFormation hands
// providers strings, and a template's spelling must survive a round trip.
// Maps keep document order; keys are unique (the parsers reject duplicates).
// Unknown stands for a value that cannot be known yet (a resource's physical ID
// before it exists) and records the references that made it unknown, e.g.
// "Instance" for a Ref or "Instance.PublicIp" for a GetAtt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace ms {

// 1-based position in the template text; line 0 means "not from a document".
struct SourcePos {
  uint32_t line = 0;
  uint32_t column = 0;
  bool known() const { return line != 0; }
};

struct Member;

class Value {
 public:
  enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kList, kMap, kUnknown };
  using List = std::vector<Value>;
  using Map = std::vector<Member>;

  Value() = default;  // null
  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Number(std::string text);  // text must be a JSON number
  static Value Integer(int64_t n);
  static Value Double(double d);          // shortest text that round-trips
  static Value String(std::string s);
  static Value MakeList(List items = {});
  static Value StringList(std::vector<std::string> items);  // a List of Strings
  static Value MakeMap(Map members = {});
  static Value Unknown(std::vector<std::string> refs);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_list() const { return kind_ == Kind::kList; }
  bool is_map() const { return kind_ == Kind::kMap; }
  bool is_unknown() const { return kind_ == Kind::kUnknown; }
  // String, number or bool: what CloudFormation accepts where it wants a string.
  bool is_scalar() const { return is_string() || is_number() || is_bool(); }

  bool as_bool() const { return bool_; }
  // String: its text. Number: its source text. Bool: "true"/"false". Else "".
  std::string scalar_text() const;
  const std::string& str() const;              // String or Number text; else ""
  std::optional<double> as_double() const;     // Number, or a String holding one
  std::optional<int64_t> as_integer() const;   // integral Number or String

  // Containers of the other kinds read as empty. The mutable accessors give
  // the list/map storage without changing the kind (callers building a
  // list or map start from MakeList/MakeMap).
  const List& list() const;
  List& mutable_list();
  const Map& map() const;
  Map& mutable_map();
  const std::vector<std::string>& unknown_refs() const;

  // Map access. find() is linear: maps in templates are small; large ones
  // (Resources) are indexed by the Template that owns them.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  // Replaces the member with this key, or appends it.
  void set(std::string key, Value v);

  // A single-key map whose key is Ref, Condition or Fn::*: an intrinsic call.
  // Returns the function name, or empty.
  std::string_view function_name() const;

  SourcePos pos() const { return pos_; }
  void set_pos(SourcePos p) { pos_ = p; }

  // Structural equality; positions are ignored, numbers compare by text.
  bool operator==(const Value& o) const;
  bool operator!=(const Value& o) const { return !(*this == o); }

  // Compact JSON text (unknown prints as {"Unknown":[refs]}).
  std::string ToJson() const;
  // Appends ToJson() to *out (writers of larger documents: no copies).
  void AppendJsonTo(std::string* out) const;

 private:
  using Refs = std::vector<std::string>;
  // One payload at a time keeps a Value small (templates hold millions).
  // String/Number: std::string; List; Map; Unknown: Refs.
  using Payload = std::variant<std::monostate, std::string, List, Map, Refs>;

  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  SourcePos pos_;
  Payload data_;
};

struct Member {
  std::string key;
  Value value;
};

// Whether `pred` holds for `v` or any value inside it (lists' items and
// maps' members, depth first; stops at the first that does).
template <typename Pred>
bool AnyValue(const Value& v, const Pred& pred) {
  if (pred(v)) return true;
  if (v.is_list()) {
    for (const Value& item : v.list()) {
      if (AnyValue(item, pred)) return true;
    }
  } else if (v.is_map()) {
    for (const Member& m : v.map()) {
      if (AnyValue(m.value, pred)) return true;
    }
  }
  return false;
}

// Appends `s` as a JSON string literal (quoted, escaped).
void AppendJsonQuoted(std::string* out, std::string_view s);
const char* KindName(Value::Kind k);  // "null", "boolean", "number", ...

}  // namespace ms
