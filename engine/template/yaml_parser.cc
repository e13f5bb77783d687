// ParseYaml: yaml-cpp's event parser feeding a Value builder.
//
// We use the event API (YAML::Parser + YAML::EventHandler) rather than
// YAML::Load because events carry what the node tree loses or mangles: each
// node's Mark, its tag as written (short-form intrinsics like !Ref), and whether
// a scalar was plain ("?") or quoted ("!"), which decides its type.
//
// Scalars follow the YAML 1.2 core schema, narrowed to what CloudFormation
// templates need: plain null/~/empty are null, true/false (three spellings
// each) are booleans, plain scalars spelled as JSON numbers are numbers (text
// kept), and everything else, including 2010-09-09, Yes, 0x1F, 012 and .inf, is
// a string. Quoted scalars are always strings.
//
// CloudFormation rejects YAML aliases (`*name`) with its own message, and so do
// we; an anchor (`&name`) that no alias uses is accepted and ignored.
//
// yaml-cpp reports errors by throwing; the builder also throws (HandlerAbort) to
// stop yaml-cpp early. Nothing escapes ParseYaml.
#include <cstdint>
#include <istream>
#include <new>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "template/parse.h"
#include "template/parse_util.h"

namespace ms {
namespace {

using parse_internal::DuplicateKeys;
using parse_internal::Utf8SequenceLength;

// Same limit as the JSON parser, counted the same way (containers enclosing a
// node, its own included), so any Value we build also parses back from its
// JSON. yaml-cpp's own recursion guard (about 500 levels) often fires first,
// but short-form tags add a map level each, so the builder checks too: deep
// Values would overflow the stack in the recursive code that walks, copies and
// destroys them.
constexpr int kMaxDepth = 512;

// AWS's message (as reported from CreateChangeSet), which has no position.
// Rejecting aliases also rules out "billion laughs" expansion.
constexpr char kAliasesNotAllowed[] =
    "Template error: YAML aliases are not allowed in CloudFormation templates";

constexpr std::string_view kYamlTagPrefix = "tag:yaml.org,2002:";

// yaml-cpp marks are 0-based; SourcePos is 1-based.
SourcePos ToPos(const YAML::Mark& m) {
  if (m.is_null() || m.line < 0 || m.column < 0) return SourcePos{};
  return SourcePos{static_cast<uint32_t>(m.line) + 1, static_cast<uint32_t>(m.column) + 1};
}

std::string ErrorMessage(SourcePos pos, std::string_view detail = {}) {
  if (!pos.known()) pos = SourcePos{1, 1};
  std::string msg = "Template format error: YAML not well-formed.";
  if (!detail.empty()) {
    msg += ' ';
    msg += detail;
  }
  msg += " (line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ")";
  return msg;
}

// Thrown by the builder to make yaml-cpp stop; the builder holds the Status.
struct HandlerAbort {};

// The long-form key for a CloudFormation short-form tag (without its '!'), or
// empty if the tag is not one.
std::string IntrinsicKey(std::string_view name) {
  if (name == "Ref" || name == "Condition") return std::string(name);
  static const char* const kFunctions[] = {
      "And", "Base64", "Cidr", "Equals", "FindInMap", "GetAtt", "GetAZs", "If", "ImportValue",
      "Join", "Length", "Not", "Or", "Select", "Split", "Sub", "ToJsonString", "Transform",
      "GetStackOutput",
      // Rules functions (the Rules section of a template).
      "Contains", "EachMemberEquals", "EachMemberIn", "RefAll", "ValueOf", "ValueOfAll"};
  for (const char* f : kFunctions) {
    if (name == f) return "Fn::" + std::string(name);
  }
  return {};
}

// How a node's tag, as yaml-cpp reports it, is to be read.
struct TagInfo {
  enum Kind {
    kNone,       // "?": untagged plain scalar or collection; resolve by content
    kString,     // "!": quoted scalar, or the non-specific tag `!`
    kStandard,   // !!str, !!int, ...: `standard` holds "str", "int", ...
    kIntrinsic,  // !Ref, !Sub, ...: `key` holds "Ref", "Fn::Sub", ...
    kUnknown,
  } kind;
  std::string standard;
  std::string key;
};

TagInfo ClassifyTag(const std::string& tag) {
  if (tag.empty() || tag == "?") return {TagInfo::kNone, {}, {}};
  if (tag == "!") return {TagInfo::kString, {}, {}};
  if (tag.compare(0, kYamlTagPrefix.size(), kYamlTagPrefix) == 0) {
    return {TagInfo::kStandard, tag.substr(kYamlTagPrefix.size()), {}};
  }
  if (tag[0] == '!') {
    std::string key = IntrinsicKey(std::string_view(tag).substr(1));
    if (!key.empty()) return {TagInfo::kIntrinsic, {}, std::move(key)};
  }
  return {TagInfo::kUnknown, {}, {}};
}

// The tag as the user wrote it, for error messages.
std::string DisplayTag(const std::string& tag) {
  if (tag.compare(0, kYamlTagPrefix.size(), kYamlTagPrefix) == 0) {
    return "!!" + tag.substr(kYamlTagPrefix.size());
  }
  return tag;
}

// JSON's number grammar. Value::Number requires JSON text, and anything YAML
// would call a number but JSON would not (+1, 01, .5, 0x1F) is safer kept as
// the string the author wrote.
bool IsJsonNumber(std::string_view s) {
  size_t i = 0, n = s.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0') {
    ++i;
  } else if (!(i < n && s[i] >= '1' && s[i] <= '9') || !digits()) {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

bool IsTrue(std::string_view s) { return s == "true" || s == "True" || s == "TRUE"; }
bool IsFalse(std::string_view s) { return s == "false" || s == "False" || s == "FALSE"; }
bool IsNullWord(std::string_view s) {
  return s == "null" || s == "Null" || s == "NULL" || s == "~" || s.empty();
}

// Core-schema resolution of an untagged plain scalar (null never gets here:
// yaml-cpp reports plain nulls through OnNull).
Value ResolvePlain(const std::string& text) {
  if (IsTrue(text)) return Value::Bool(true);
  if (IsFalse(text)) return Value::Bool(false);
  if (IsJsonNumber(text)) return Value::Number(text);
  return Value::String(text);
}

// Templates are UTF-8 text. yaml-cpp would pass malformed UTF-8 through into
// strings, and it guesses UTF-16/32 from NUL bytes near the start (`A\0\0\0`
// reads as UTF-32), producing garbage code points. Checking up front keeps
// every string in a Value valid UTF-8, as the JSON parser guarantees.
Status CheckUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  const auto* line_start = p;
  uint32_t line = 1;
  while (p < end) {
    size_t len = 1;
    if (*p == '\n') {
      ++line;
      line_start = p + 1;
    } else if (*p >= 0x80) {
      len = Utf8SequenceLength(p, end);
    } else if (*p == 0) {
      len = 0;  // never valid in YAML
    }
    if (len == 0) {
      SourcePos pos{line, static_cast<uint32_t>(p - line_start + 1)};
      return Status::Validation(ErrorMessage(pos, *p ? "Invalid UTF-8" : "Invalid character"));
    }
    p += len;
  }
  return Status::OK();
}

// A read-only streambuf over the template text, so yaml-cpp reads it in place.
class ViewStreamBuf : public std::streambuf {
 public:
  explicit ViewStreamBuf(std::string_view text) {
    char* p = const_cast<char*>(text.data());  // the get area is never written
    setg(p, p, p + text.size());
  }
};

class ValueBuilder : public YAML::EventHandler {
 public:
  explicit ValueBuilder(std::string_view text) : text_(text) {}

  const Status& error() const { return error_; }
  SourcePos last_pos() const { return last_pos_; }
  // The document's value; null for an empty stream.
  Value TakeRoot() { return std::move(root_); }

  void OnDocumentStart(const YAML::Mark& mark) override {
    Seen(mark);
    // CloudFormation reads one document; a second one is not a template.
    if (++documents_ > 1) Abort(mark);
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override {
    Seen(mark);
    if (AtKey()) return SetKey(NullKeyText(mark), mark);
    Value v;
    v.set_pos(ToPos(mark));
    Add(std::move(v));
  }

  // yaml-cpp reports an alias to an undefined anchor by throwing instead; see
  // RunYamlCpp.
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {
    Abort(Status::Validation(kAliasesNotAllowed));
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                const std::string& text) override {
    Seen(mark);
    TagInfo info = ClassifyTag(tag);
    if (AtKey()) {
      // Keys keep their text as written: `80:` is "80", `True:` is "True".
      bool string_like = info.kind == TagInfo::kNone || info.kind == TagInfo::kString ||
                         (info.kind == TagInfo::kStandard && info.standard == "str");
      if (!string_like) Abort(mark, "Map keys must be plain strings");
      return SetKey(text, mark);
    }
    Value v = ScalarValue(info, tag, text, mark);
    v.set_pos(ToPos(mark));
    if (info.kind == TagInfo::kIntrinsic) {
      if (ParentLevel() + 1 > kMaxDepth) Abort(mark, "Nesting too deep");
      v = Wrap(info.key, std::move(v), mark);
    }
    Add(std::move(v));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    Open(Value::MakeList(), mark, tag);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    Open(Value::MakeMap(), mark, tag);
  }
  void OnMapEnd() override { Close(); }

 private:
  // A list or map under construction.
  struct Frame {
    Value node;
    std::string tag;
    YAML::Mark mark;
    int level = 0;        // containers enclosing it, itself and its tag's wrapper included
    bool is_key = false;  // a collection used as a map key: an error
    // Maps: the key waiting for its value.
    bool has_key = false;
    std::string key;
    DuplicateKeys keys;
  };

  [[noreturn]] void Abort(Status error) {
    error_ = std::move(error);
    throw HandlerAbort{};
  }
  [[noreturn]] void Abort(SourcePos pos, std::string_view detail = {}) {
    Abort(Status::Validation(ErrorMessage(pos, detail)));
  }
  [[noreturn]] void Abort(const YAML::Mark& mark, std::string_view detail = {}) {
    Abort(ToPos(mark), detail);
  }

  void Seen(const YAML::Mark& mark) {
    SourcePos p = ToPos(mark);
    if (p.known()) last_pos_ = p;
  }

  int ParentLevel() const { return stack_.empty() ? 0 : stack_.back().level; }

  bool AtKey() const {
    return !stack_.empty() && stack_.back().node.is_map() && !stack_.back().has_key;
  }

  void SetKey(std::string key, const YAML::Mark& mark) {
    Frame& f = stack_.back();
    if (f.keys.Seen(f.node.map(), key)) Abort(mark, "Duplicate key '" + key + "'");
    f.key = std::move(key);
    f.has_key = true;
  }

  // yaml-cpp does not pass a null's spelling; a null key is named as written
  // (`~: x` has key "~"), which we recover from the source text.
  std::string NullKeyText(const YAML::Mark& mark) const {
    if (mark.pos < 0 || static_cast<size_t>(mark.pos) >= text_.size()) return {};
    std::string_view rest = text_.substr(mark.pos);
    for (std::string_view word : {"null", "Null", "NULL", "~"}) {
      if (rest.substr(0, word.size()) == word) return std::string(word);
    }
    return {};
  }

  Value ScalarValue(const TagInfo& info, const std::string& tag, const std::string& text,
                    const YAML::Mark& mark) {
    switch (info.kind) {
      case TagInfo::kNone:
        return ResolvePlain(text);
      case TagInfo::kString:
      case TagInfo::kIntrinsic:  // `!Ref X`, `!GetAtt A.B`, `!GetAZs ''`: the text
        return Value::String(text);
      case TagInfo::kStandard:
        return StandardScalar(info.standard, tag, text, mark);
      case TagInfo::kUnknown:
        break;
    }
    Abort(mark, "Unknown tag " + DisplayTag(tag));
  }

  // !!str, !!int, !!float, !!bool and !!null force a type; the value must fit it.
  Value StandardScalar(const std::string& name, const std::string& tag, const std::string& text,
                       const YAML::Mark& mark) {
    if (name == "str") return Value::String(text);
    if ((name == "int" || name == "float") && IsJsonNumber(text)) return Value::Number(text);
    if (name == "bool" && IsTrue(text)) return Value::Bool(true);
    if (name == "bool" && IsFalse(text)) return Value::Bool(false);
    if (name == "null" && IsNullWord(text)) return Value::Null();
    if (name == "int" || name == "float" || name == "bool" || name == "null") {
      Abort(mark, "Invalid " + DisplayTag(tag) + " value '" + text + "'");
    }
    Abort(mark, "Unknown tag " + DisplayTag(tag));
  }

  // `!Fn value` becomes {"Fn::Fn": value}, positioned at the tag.
  static Value Wrap(const std::string& key, Value inner, const YAML::Mark& mark) {
    Value::Map members;
    members.push_back(Member{key, std::move(inner)});
    Value v = Value::MakeMap(std::move(members));
    v.set_pos(ToPos(mark));
    return v;
  }

  void Open(Value node, const YAML::Mark& mark, const std::string& tag) {
    Seen(mark);
    Frame f;
    f.level = ParentLevel() + 1 + (ClassifyTag(tag).kind == TagInfo::kIntrinsic ? 1 : 0);
    if (f.level > kMaxDepth) Abort(mark, "Nesting too deep");
    f.is_key = AtKey();
    f.node = std::move(node);
    f.node.set_pos(ToPos(mark));
    f.tag = tag;
    f.mark = mark;
    stack_.push_back(std::move(f));
  }

  void Close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    // Rejected only now, so that yaml-cpp reports its own error first when the
    // "key" is really an unterminated flow collection (`a: [` makes it one).
    if (f.is_key) Abort(f.mark, "Map keys must be scalars");
    Value v = std::move(f.node);
    TagInfo info = ClassifyTag(f.tag);
    switch (info.kind) {
      case TagInfo::kNone:
      case TagInfo::kString:
        break;
      case TagInfo::kIntrinsic:
        v = Wrap(info.key, std::move(v), f.mark);
        break;
      case TagInfo::kStandard:
        if (info.standard == (v.is_list() ? "seq" : "map")) break;
        Abort(f.mark, "Tag " + DisplayTag(f.tag) + " does not apply to a " +
                          (v.is_list() ? "sequence" : "mapping"));
      case TagInfo::kUnknown:
        Abort(f.mark, "Unknown tag " + DisplayTag(f.tag));
    }
    Add(std::move(v));
  }

  // Places a finished node in its parent (or as the root).
  void Add(Value v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return;
    }
    Frame& f = stack_.back();
    if (f.node.is_list()) {
      f.node.mutable_list().push_back(std::move(v));
      return;
    }
    f.node.mutable_map().push_back(Member{std::move(f.key), std::move(v)});
    f.key.clear();
    f.has_key = false;
  }

  std::string_view text_;
  std::vector<Frame> stack_;
  Value root_;
  int documents_ = 0;
  SourcePos last_pos_;
  Status error_;
};

size_t BomLength(std::string_view text) { return text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0; }

// Just after the last non-blank character: where a missing ']' or '}' belonged.
// Columns exclude a byte order mark, as yaml-cpp's do.
SourcePos EndPos(std::string_view text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  end = end == std::string_view::npos ? 0 : end + 1;
  SourcePos pos{1, 1};
  for (size_t i = BomLength(text); i < end; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.column = 1;
    } else {
      ++pos.column;
    }
  }
  return pos;
}

// yaml-cpp reports "end of ... not found" at the end of the input with a
// broken line/column (often 0:0); we point just after the last token instead.
// Its mark.pos is still right, and does not count a byte order mark.
SourcePos ExceptionPos(const YAML::Exception& e, std::string_view text, SourcePos fallback) {
  const YAML::Mark& m = e.mark;
  bool at_end = m.pos >= 0 && static_cast<size_t>(m.pos) + BomLength(text) >= text.size();
  if (at_end && e.msg.rfind("end of ", 0) == 0) return EndPos(text);
  SourcePos pos = ToPos(m);
  return pos.known() ? pos : fallback;
}

Status RunYamlCpp(std::string_view text, Value* out) {
  ViewStreamBuf buf(text);
  std::istream in(&buf);
  ValueBuilder builder(text);
  try {
    YAML::Parser parser(in);
    // A second document aborts in OnDocumentStart, so this runs at most twice.
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const HandlerAbort&) {
    return builder.error();
  } catch (const YAML::DeepRecursion& e) {
    SourcePos pos = ToPos(e.mark);
    return Status::Validation(ErrorMessage(pos.known() ? pos : builder.last_pos(), "Nesting too deep"));
  } catch (const YAML::Exception& e) {
    // An alias to an undefined anchor is still an alias.
    if (e.msg == YAML::ErrorMsg::UNKNOWN_ANCHOR) return Status::Validation(kAliasesNotAllowed);
    return Status::Validation(ErrorMessage(ExceptionPos(e, text, builder.last_pos())));
  }
  *out = builder.TakeRoot();
  return Status::OK();
}

}  // namespace

Status ParseYaml(std::string_view text, Value* out) {
  try {
    MS_RETURN_IF_ERROR(CheckUtf8(text));
    return RunYamlCpp(text, out);
  } catch (const std::bad_alloc&) {
    // No position: the whole template is the problem (as in ParseJson).
    return Status::Validation("Template format error: YAML not well-formed. Template too large");
  } catch (...) {
    // Not expected from yaml-cpp 0.7, but no exception may leave the parser.
    return Status::Validation(ErrorMessage(SourcePos{}));
  }
}

}  // namespace ms
