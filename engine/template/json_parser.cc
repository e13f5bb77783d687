// ParseJson: a hand-written recursive-descent JSON parser.
//
// Hand-written rather than nlohmann_json because we need a line and column on
// every node, duplicate-key rejection, numbers kept as their source text, and
// AWS's error wording, at a few MB per template in milliseconds.
//
// Positions are 1-based; columns count bytes. Error positions follow AWS (whose
// JSON parser reports where it stopped reading): for an unexpected character the
// column just after it, e.g. `{"this is invalid JSON"="bobbins"}` fails at
// (line 1, column 25) although '=' is column 24; at the end of the input, the
// position where the next character would be.
#include <cstdint>
#include <string>
#include <string_view>

#include "template/parse.h"
#include "template/parse_util.h"

namespace ms {
namespace {

using parse_internal::DuplicateKeys;
using parse_internal::Utf8SequenceLength;

// Deep enough for any real template, shallow enough that the recursion (and
// Value's recursive destructor) can never exhaust a thread's stack.
constexpr int kMaxDepth = 512;

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class JsonParser {
 public:
  explicit JsonParser(std::string_view text)
      : begin_(text.data()), end_(text.data() + text.size()), p_(begin_), line_start_(begin_) {}

  Status Parse(Value* out) {
    SkipBom();
    SkipWhitespace();
    if (!ParseValue(out, 0)) return error_;
    SkipWhitespace();
    if (p_ != end_) {
      FailUnexpected(p_);
      return error_;
    }
    return Status::OK();
  }

 private:
  // A UTF-8 byte order mark is not JSON, but editors write one; CloudFormation
  // templates saved on Windows often start with it.
  void SkipBom() {
    if (end_ - p_ >= 3 && static_cast<unsigned char>(p_[0]) == 0xEF &&
        static_cast<unsigned char>(p_[1]) == 0xBB && static_cast<unsigned char>(p_[2]) == 0xBF) {
      p_ += 3;
      line_start_ = p_;
    }
  }

  // Newlines occur only here: raw control characters are illegal inside strings,
  // so this is the one place that needs to track lines.
  void SkipWhitespace() {
    while (p_ < end_) {
      char c = *p_;
      if (c == ' ' || c == '\t') {
        ++p_;
      } else if (c == '\n') {
        NewLine(++p_);
      } else if (c == '\r') {
        ++p_;
        if (p_ < end_ && *p_ == '\n') ++p_;
        NewLine(p_);
      } else {
        break;
      }
    }
  }

  void NewLine(const char* next_line_start) {
    ++line_;
    line_start_ = next_line_start;
  }

  SourcePos PosAt(const char* p) const {
    return SourcePos{line_, static_cast<uint32_t>(p - line_start_ + 1)};
  }

  bool Fail(SourcePos pos, std::string_view detail = {}) {
    std::string msg = "Template format error: JSON not well-formed.";
    if (!detail.empty()) {
      msg += ' ';
      msg += detail;
    }
    msg += " (line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ")";
    error_ = Status::Validation(std::move(msg));
    return false;
  }

  // The character at p is wrong (or p is the end of the input); see the file
  // comment for why the column is the one after it.
  bool FailUnexpected(const char* p) {
    SourcePos pos = PosAt(p);
    if (p < end_) ++pos.column;
    return Fail(pos);
  }

  bool ParseValue(Value* out, int depth) {
    if (p_ == end_) return FailUnexpected(p_);
    switch (*p_) {
      case '{':
        return ParseObject(out, depth + 1);
      case '[':
        return ParseArray(out, depth + 1);
      case '"': {
        SourcePos pos = PosAt(p_);
        std::string s;
        if (!ParseString(&s)) return false;
        *out = Value::String(std::move(s));
        out->set_pos(pos);
        return true;
      }
      case 't':
        return ParseLiteral("true", Value::Bool(true), out);
      case 'f':
        return ParseLiteral("false", Value::Bool(false), out);
      case 'n':
        return ParseLiteral("null", Value::Null(), out);
      default:
        return ParseNumber(out);
    }
  }

  bool ParseLiteral(std::string_view word, Value v, Value* out) {
    SourcePos pos = PosAt(p_);
    for (char c : word) {
      if (p_ == end_ || *p_ != c) return FailUnexpected(p_);
      ++p_;
    }
    *out = std::move(v);
    out->set_pos(pos);
    return true;
  }

  bool CheckDepth(int depth) {
    if (depth <= kMaxDepth) return true;
    return Fail(PosAt(p_), "Nesting deeper than " + std::to_string(kMaxDepth) + " levels");
  }

  bool ParseObject(Value* out, int depth) {
    if (!CheckDepth(depth)) return false;
    SourcePos pos = PosAt(p_);
    ++p_;  // '{'
    *out = Value::MakeMap();
    out->set_pos(pos);
    Value::Map& members = out->mutable_map();
    DuplicateKeys seen;
    SkipWhitespace();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    // A document's top-level object (a store row, a template) has many
    // members: one allocation instead of one per doubling.
    if (depth == 1) members.reserve(16);
    while (true) {
      if (p_ == end_ || *p_ != '"') return FailUnexpected(p_);
      SourcePos key_pos = PosAt(p_);
      std::string key;
      if (!ParseString(&key)) return false;
      // Checked before the value is parsed so errors come in document order.
      if (seen.Seen(members, key)) return Fail(key_pos, "Duplicate key '" + key + "'");
      SkipWhitespace();
      if (p_ == end_ || *p_ != ':') return FailUnexpected(p_);
      ++p_;
      SkipWhitespace();
      // Parse in place: the member vector is not touched until this returns.
      members.push_back(Member{std::move(key), Value()});
      if (!ParseValue(&members.back().value, depth)) return false;
      SkipWhitespace();
      if (p_ == end_) return FailUnexpected(p_);
      if (*p_ == '}') {
        ++p_;
        return true;
      }
      if (*p_ != ',') return FailUnexpected(p_);
      ++p_;
      SkipWhitespace();
    }
  }

  bool ParseArray(Value* out, int depth) {
    if (!CheckDepth(depth)) return false;
    SourcePos pos = PosAt(p_);
    ++p_;  // '['
    *out = Value::MakeList();
    out->set_pos(pos);
    Value::List& items = out->mutable_list();
    SkipWhitespace();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    while (true) {
      items.emplace_back();
      if (!ParseValue(&items.back(), depth)) return false;
      SkipWhitespace();
      if (p_ == end_) return FailUnexpected(p_);
      if (*p_ == ']') {
        ++p_;
        return true;
      }
      if (*p_ != ',') return FailUnexpected(p_);
      ++p_;
      SkipWhitespace();
    }
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, kept as written.
  bool ParseNumber(Value* out) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_) return FailUnexpected(p_);
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      SkipDigits();
    } else {
      return FailUnexpected(p_);
    }
    if (p_ < end_ && *p_ == '.') {
      ++p_;
      if (!IsDigitAt(p_)) return FailUnexpected(p_);
      SkipDigits();
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!IsDigitAt(p_)) return FailUnexpected(p_);
      SkipDigits();
    }
    *out = Value::Number(std::string(start, p_));
    out->set_pos(PosAt(start));
    return true;
  }

  bool IsDigitAt(const char* p) const { return p < end_ && *p >= '0' && *p <= '9'; }
  void SkipDigits() {
    while (IsDigitAt(p_)) ++p_;
  }

  // p_ is at the opening quote. Copies runs of plain characters in one go;
  // escapes and non-ASCII bytes take the slow path.
  bool ParseString(std::string* out) {
    ++p_;  // '"'
    while (true) {
      const char* run = p_;
      while (p_ < end_) {
        unsigned char c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      out->append(run, p_);
      if (p_ == end_) return FailUnexpected(p_);
      unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (!ParseEscape(out)) return false;
      } else if (c >= 0x80) {
        size_t len = Utf8SequenceLength(reinterpret_cast<const unsigned char*>(p_),
                                        reinterpret_cast<const unsigned char*>(end_));
        if (len == 0) return FailUnexpected(p_);
        out->append(p_, len);
        p_ += len;
      } else {
        return FailUnexpected(p_);  // raw control character
      }
    }
  }

  // p_ is at the backslash.
  bool ParseEscape(std::string* out) {
    const char* backslash = p_;
    ++p_;
    if (p_ == end_) return FailUnexpected(p_);
    char c = *p_++;
    switch (c) {
      case '"': out->push_back('"'); return true;
      case '\\': out->push_back('\\'); return true;
      case '/': out->push_back('/'); return true;
      case 'b': out->push_back('\b'); return true;
      case 'f': out->push_back('\f'); return true;
      case 'n': out->push_back('\n'); return true;
      case 'r': out->push_back('\r'); return true;
      case 't': out->push_back('\t'); return true;
      case 'u': break;
      default: return FailUnexpected(p_ - 1);
    }
    uint32_t cp;
    if (!ParseHex4(&cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return FailUnexpected(backslash);  // lone low surrogate
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      // A high surrogate must be followed by an escaped low one: together they
      // encode one code point above U+FFFF.
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return FailUnexpected(backslash);
      const char* second = p_;
      p_ += 2;
      uint32_t low;
      if (!ParseHex4(&low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return FailUnexpected(second);
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(cp, out);
    return true;
  }

  bool ParseHex4(uint32_t* cp) {
    *cp = 0;
    for (int i = 0; i < 4; ++i) {
      if (p_ == end_ || !IsHexDigit(*p_)) return FailUnexpected(p_);
      *cp = (*cp << 4) | HexValue(*p_);
      ++p_;
    }
    return true;
  }

  const char* begin_;
  const char* end_;
  const char* p_;
  const char* line_start_;
  uint32_t line_ = 1;
  Status error_;
};

}  // namespace

Status ParseJson(std::string_view text, Value* out) {
  try {
    Value v;
    Status s = JsonParser(text).Parse(&v);
    if (s.ok()) *out = std::move(v);
    return s;
  } catch (const std::exception&) {
    // Only allocation can throw here (a template too large for memory).
    return Status::Validation("Template format error: JSON not well-formed. Template too large");
  }
}

}  // namespace ms
