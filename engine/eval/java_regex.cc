// JavaRegex: see java_regex.h. A recursive-descent parser turns the pattern
// into a syntax tree (recursion bounded by the pattern's nesting, never by the
// input), which compiles to a Thompson-NFA program simulated state set by state
// set.
#include "eval/java_regex.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ms {
namespace {

constexpr int kMaxProgram = 50000;   // instructions; bounds {n,m} expansion
constexpr int kMaxNesting = 100;     // parenthesis depth of the pattern
constexpr int kMaxRepeat = 1000;     // largest n or m in {n,m}

// A character class: ranges, nested classes (Java's [a-z[0-9]] union and the
// \d-style classes), optionally negated and ASCII case-insensitive.
struct CharSet {
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<CharSet> nested;
  bool negated = false;
  bool icase = false;

  bool RawContains(char32_t c) const {
    for (const auto& r : ranges) {
      if (c >= r.first && c <= r.second) return true;
    }
    for (const CharSet& n : nested) {
      if (n.Contains(c)) return true;
    }
    return false;
  }
  bool Contains(char32_t c) const {
    bool in = RawContains(c);
    if (!in && icase) {
      // Java's CASE_INSENSITIVE folds US-ASCII only (no UNICODE_CASE).
      if (c >= 'a' && c <= 'z') in = RawContains(c - 32);
      else if (c >= 'A' && c <= 'Z') in = RawContains(c + 32);
    }
    return in != negated;
  }
};

CharSet Range(char32_t lo, char32_t hi) {
  CharSet s;
  s.ranges.push_back({lo, hi});
  return s;
}

CharSet Ranges(std::initializer_list<std::pair<char32_t, char32_t>> rs, bool negated = false) {
  CharSet s;
  s.ranges.assign(rs.begin(), rs.end());
  s.negated = negated;
  return s;
}

enum class AssertKind { kBegin, kEnd, kEndOfInput, kEndBeforeFinalNewline, kWordBoundary,
                        kNotWordBoundary, kLineBegin, kLineEnd };

struct Node {
  enum class Kind { kEmpty, kSet, kAny, kCat, kAlt, kRepeat, kAssert, kLook };
  Kind kind = Kind::kEmpty;
  std::vector<Node> kids;
  CharSet set;
  bool dotall = false;
  int min = 0, max = -1;  // kRepeat; max -1: unbounded
  AssertKind assert_kind = AssertKind::kBegin;
  bool negated = false;   // kLook
};

// Recursive-descent parser over the pattern's code points. Depth is bounded
// by kMaxNesting, so the recursion is bounded by the pattern, not the input.
class Parser {
 public:
  explicit Parser(std::u32string p) : p_(std::move(p)) {}

  bool Parse(Node* out, std::string* error) {
    if (!ParseAlt(out, 0)) {
      *error = error_;
      return false;
    }
    if (pos_ != p_.size()) {  // a ')' without its '('
      *error = "Unmatched closing ')'";
      return false;
    }
    return true;
  }

 private:
  struct Flags {
    bool icase = false, dotall = false, multiline = false;
  };

  bool Fail(std::string msg) {
    error_ = std::move(msg);
    return false;
  }
  bool AtEnd() const { return pos_ >= p_.size(); }
  char32_t Peek(size_t ahead = 0) const {
    return pos_ + ahead < p_.size() ? p_[pos_ + ahead] : 0;
  }

  bool ParseAlt(Node* out, int depth) {
    if (depth > kMaxNesting) return Fail("pattern nests too deeply");
    Flags saved = flags_;
    std::vector<Node> branches(1);
    if (!ParseCat(&branches.back(), depth)) return false;
    while (!AtEnd() && Peek() == '|') {
      ++pos_;
      branches.emplace_back();
      if (!ParseCat(&branches.back(), depth)) return false;
    }
    flags_ = saved;  // inline flags end with their group
    if (branches.size() == 1) {
      *out = std::move(branches[0]);
    } else {
      out->kind = Node::Kind::kAlt;
      out->kids = std::move(branches);
    }
    return true;
  }

  bool ParseCat(Node* out, int depth) {
    out->kind = Node::Kind::kCat;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      if (Peek() == '\\' && Peek(1) == 'Q') {
        // \Q...\E quotes; a quantifier after it applies to the last char.
        pos_ += 2;
        while (!AtEnd() && !(Peek() == '\\' && Peek(1) == 'E')) {
          out->kids.push_back(Literal(p_[pos_++]));
        }
        if (!AtEnd()) pos_ += 2;
        if (!out->kids.empty() && !ParseQuantifier(&out->kids.back())) return false;
        continue;
      }
      Node atom;
      bool is_flag_group = false;
      if (!ParseAtom(&atom, depth, &is_flag_group)) return false;
      if (is_flag_group) continue;  // (?i) changes flags, matches nothing
      if (!ParseQuantifier(&atom)) return false;
      out->kids.push_back(std::move(atom));
    }
    return true;
  }

  Node Literal(char32_t c) const {
    Node n;
    n.kind = Node::Kind::kSet;
    n.set = Range(c, c);
    n.set.icase = flags_.icase;
    return n;
  }

  static bool IsDigit(char32_t c) { return c >= '0' && c <= '9'; }

  bool ReadInt(int* out) {
    if (AtEnd() || !IsDigit(Peek())) return false;
    long v = 0;
    while (!AtEnd() && IsDigit(Peek())) {
      v = v * 10 + (Peek() - '0');
      if (v > 1000000) v = 1000000;
      ++pos_;
    }
    *out = static_cast<int>(v);
    return true;
  }

  bool ParseQuantifier(Node* atom) {
    if (AtEnd()) return true;
    int min = 0, max = -1;
    char32_t c = Peek();
    if (c == '*') {
      ++pos_;
    } else if (c == '+') {
      min = 1;
      ++pos_;
    } else if (c == '?') {
      max = 1;
      ++pos_;
    } else if (c == '{') {
      ++pos_;
      if (!ReadInt(&min)) return Fail("Illegal repetition");
      max = min;
      if (!AtEnd() && Peek() == ',') {
        ++pos_;
        max = -1;
        if (!AtEnd() && IsDigit(Peek()) && !ReadInt(&max)) return Fail("Illegal repetition");
      }
      if (AtEnd() || Peek() != '}') return Fail("Unclosed counted closure");
      ++pos_;
      if (max != -1 && max < min) return Fail("Illegal repetition range");
      if (min > kMaxRepeat || max > kMaxRepeat) return Fail("repetition count too large");
    } else {
      return true;
    }
    // Lazy (?) and possessive (+) forms: for a whole-string match laziness
    // changes nothing; possessiveness is approximated as greedy.
    if (!AtEnd() && (Peek() == '?' || Peek() == '+')) ++pos_;
    if (atom->kind == Node::Kind::kAssert || atom->kind == Node::Kind::kLook) {
      return true;  // a quantified assertion still asserts (or matches empty)
    }
    Node rep;
    rep.kind = Node::Kind::kRepeat;
    rep.min = min;
    rep.max = max;
    rep.kids.push_back(std::move(*atom));
    *atom = std::move(rep);
    if (!AtEnd() && (Peek() == '*' || Peek() == '+' || Peek() == '?' || Peek() == '{')) {
      return Fail("Dangling meta character '" + std::string(1, static_cast<char>(Peek())) + "'");
    }
    return true;
  }

  bool ParseAtom(Node* out, int depth, bool* is_flag_group) {
    char32_t c = p_[pos_++];
    switch (c) {
      case '(':
        return ParseGroup(out, depth, is_flag_group);
      case '[':
        out->kind = Node::Kind::kSet;
        return ParseClass(&out->set, depth);
      case '.':
        out->kind = Node::Kind::kAny;
        out->dotall = flags_.dotall;
        return true;
      case '^':
        out->kind = Node::Kind::kAssert;
        out->assert_kind = flags_.multiline ? AssertKind::kLineBegin : AssertKind::kBegin;
        return true;
      case '$':
        out->kind = Node::Kind::kAssert;
        out->assert_kind = flags_.multiline ? AssertKind::kLineEnd : AssertKind::kEnd;
        return true;
      case '*':
      case '+':
      case '?':
        return Fail("Dangling meta character '" + std::string(1, static_cast<char>(c)) + "'");
      case '{':
        return Fail("Illegal repetition");
      case '\\':
        return ParseEscape(out);
      default:
        *out = Literal(c);
        return true;
    }
  }

  bool ParseGroup(Node* out, int depth, bool* is_flag_group) {
    bool look = false, negated = false;
    Flags outer = flags_;
    if (!AtEnd() && Peek() == '?') {
      ++pos_;
      char32_t k = Peek();
      if (k == ':' || k == '>') {  // non-capturing; atomic approximated
        ++pos_;
      } else if (k == '=' || k == '!') {
        look = true;
        negated = k == '!';
        ++pos_;
      } else if (k == '<' && (Peek(1) == '=' || Peek(1) == '!')) {
        return Fail("lookbehind is not supported");
      } else if (k == '<') {  // named group (?<name>...)
        ++pos_;
        while (!AtEnd() && Peek() != '>') ++pos_;
        if (AtEnd()) return Fail("named capturing group is missing trailing '>'");
        ++pos_;
      } else {
        // Inline flags: (?i) or (?i-s:...)
        bool on = true;
        while (!AtEnd() && Peek() != ')' && Peek() != ':') {
          char32_t f = p_[pos_++];
          if (f == '-') {
            on = false;
          } else if (f == 'i') {
            flags_.icase = on;
          } else if (f == 's') {
            flags_.dotall = on;
          } else if (f == 'm') {
            flags_.multiline = on;
          } else if (f == 'u' || f == 'U' || f == 'd') {
            // Unicode case / character classes, UNIX_LINES: ignored.
          } else if (f == 'x') {
            return Fail("the COMMENTS flag (?x) is not supported");
          } else {
            return Fail("Unknown inline modifier");
          }
        }
        if (AtEnd()) return Fail("Unclosed group");
        if (Peek() == ')') {  // (?i): applies to the rest of the enclosing group
          ++pos_;
          *is_flag_group = true;
          return true;
        }
        ++pos_;  // ':' - flags scoped to this group
      }
    }
    Node body;
    if (!ParseAlt(&body, depth + 1)) return false;
    if (AtEnd() || Peek() != ')') return Fail("Unclosed group");
    ++pos_;
    flags_ = outer;
    if (look) {
      out->kind = Node::Kind::kLook;
      out->negated = negated;
      out->kids.push_back(std::move(body));
    } else {
      *out = std::move(body);
    }
    return true;
  }

  // Predefined classes shared by escapes in and outside brackets.
  static bool NamedClass(char32_t c, CharSet* out) {
    switch (c) {
      case 'd': *out = Range('0', '9'); return true;
      case 'D': *out = Range('0', '9'); out->negated = true; return true;
      case 'w': *out = Ranges({{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}}); return true;
      case 'W': *out = Ranges({{'a', 'z'}, {'A', 'Z'}, {'0', '9'}, {'_', '_'}}, true); return true;
      case 's': *out = Ranges({{' ', ' '}, {'\t', '\r'}}); return true;
      case 'S': *out = Ranges({{' ', ' '}, {'\t', '\r'}}, true); return true;
      case 'h': *out = Ranges({{' ', ' '}, {'\t', '\t'}, {0xA0, 0xA0}, {0x1680, 0x1680},
                               {0x2000, 0x200A}, {0x202F, 0x202F}, {0x205F, 0x205F},
                               {0x3000, 0x3000}});
        return true;
      case 'H': NamedClass('h', out); out->negated = true; return true;
      case 'v': *out = Ranges({{'\n', '\r'}, {0x85, 0x85}, {0x2028, 0x2029}}); return true;
      case 'V': NamedClass('v', out); out->negated = true; return true;
      default: return false;
    }
  }

  // \p{Name}: the POSIX classes (US-ASCII, as Java without UNICODE_CHARACTER_CLASS)
  // and approximations of the common Unicode categories.
  static bool PropertyClass(const std::string& name, CharSet* out) {
    std::string n = name;
    if (n.rfind("Is", 0) == 0) n = n.substr(2);
    if (n == "Lower" || n == "Ll" || n == "Lowercase") { *out = Range('a', 'z'); return true; }
    if (n == "Upper" || n == "Lu" || n == "Uppercase") { *out = Range('A', 'Z'); return true; }
    if (n == "ASCII") { *out = Range(0, 0x7F); return true; }
    if (n == "Alpha") { *out = Ranges({{'a', 'z'}, {'A', 'Z'}}); return true; }
    if (n == "Digit" || n == "N" || n == "Nd") { *out = Range('0', '9'); return true; }
    if (n == "Alnum") { *out = Ranges({{'a', 'z'}, {'A', 'Z'}, {'0', '9'}}); return true; }
    if (n == "Punct" || n == "P") {
      *out = Ranges({{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}});
      return true;
    }
    if (n == "Graph") { *out = Range('!', '~'); return true; }
    if (n == "Print") { *out = Range(' ', '~'); return true; }
    if (n == "Blank") { *out = Ranges({{' ', ' '}, {'\t', '\t'}}); return true; }
    if (n == "Cntrl") { *out = Ranges({{0, 0x1F}, {0x7F, 0x7F}}); return true; }
    if (n == "XDigit") { *out = Ranges({{'0', '9'}, {'a', 'f'}, {'A', 'F'}}); return true; }
    if (n == "Space" || n == "White_Space" || n == "WhiteSpace") {
      *out = Ranges({{' ', ' '}, {'\t', '\r'}});
      return true;
    }
    if (n == "L" || n == "Letter" || n == "Alphabetic") {
      // ASCII letters plus the main alphabetic blocks beyond Latin-1.
      *out = Ranges({{'a', 'z'}, {'A', 'Z'}, {0xC0, 0xD6}, {0xD8, 0xF6}, {0xF8, 0x2AF},
                     {0x370, 0x3FF}, {0x400, 0x52F}, {0x5D0, 0x5EA}, {0x620, 0x64A},
                     {0x3040, 0x30FF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3}});
      return true;
    }
    return false;
  }

  static int HexValue(char32_t c) {
    if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
    return -1;
  }

  bool ReadHex(int digits, char32_t* out) {
    uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
      if (AtEnd() || HexValue(Peek()) < 0) return Fail("Illegal hexadecimal escape sequence");
      v = v * 16 + static_cast<uint32_t>(HexValue(p_[pos_++]));
    }
    *out = v;
    return true;
  }

  // After a backslash: a single character (*cp) or a class (*set, returns
  // kind kSet with is_class). Shared by escapes inside and outside brackets.
  enum class EscapeResult { kChar, kClass, kAssert, kError };
  EscapeResult ReadEscape(char32_t* cp, CharSet* set, AssertKind* assert_kind, bool in_class) {
    if (AtEnd()) {
      Fail("Unexpected internal error: trailing backslash");
      return EscapeResult::kError;
    }
    char32_t c = p_[pos_++];
    if (NamedClass(c, set)) return EscapeResult::kClass;
    switch (c) {
      case 't': *cp = '\t'; return EscapeResult::kChar;
      case 'n': *cp = '\n'; return EscapeResult::kChar;
      case 'r': *cp = '\r'; return EscapeResult::kChar;
      case 'f': *cp = '\f'; return EscapeResult::kChar;
      case 'a': *cp = 0x07; return EscapeResult::kChar;
      case 'e': *cp = 0x1B; return EscapeResult::kChar;
      case '0': {
        uint32_t v = 0;
        int n = 0;
        while (n < 3 && !AtEnd() && Peek() >= '0' && Peek() <= '7') {
          v = v * 8 + static_cast<uint32_t>(p_[pos_++] - '0');
          ++n;
        }
        if (n == 0) {
          Fail("Illegal octal escape sequence");
          return EscapeResult::kError;
        }
        *cp = v;
        return EscapeResult::kChar;
      }
      case 'x':
        if (!AtEnd() && Peek() == '{') {
          ++pos_;
          uint32_t v = 0;
          int n = 0;
          while (!AtEnd() && HexValue(Peek()) >= 0 && n < 8) {
            v = v * 16 + static_cast<uint32_t>(HexValue(p_[pos_++]));
            ++n;
          }
          if (n == 0 || AtEnd() || Peek() != '}' || v > 0x10FFFF) {
            Fail("Illegal hexadecimal escape sequence");
            return EscapeResult::kError;
          }
          ++pos_;
          *cp = v;
          return EscapeResult::kChar;
        }
        return ReadHex(2, cp) ? EscapeResult::kChar : EscapeResult::kError;
      case 'u':
        return ReadHex(4, cp) ? EscapeResult::kChar : EscapeResult::kError;
      case 'c':
        if (AtEnd()) {
          Fail("Illegal control escape sequence");
          return EscapeResult::kError;
        }
        *cp = p_[pos_++] ^ 64;
        return EscapeResult::kChar;
      case 'p':
      case 'P': {
        std::string name;
        if (!AtEnd() && Peek() == '{') {
          ++pos_;
          while (!AtEnd() && Peek() != '}') name.push_back(static_cast<char>(p_[pos_++]));
          if (AtEnd()) {
            Fail("Unclosed character family");
            return EscapeResult::kError;
          }
          ++pos_;
        } else if (!AtEnd()) {
          name.push_back(static_cast<char>(p_[pos_++]));
        }
        if (!PropertyClass(name, set)) {
          Fail("Unknown character property name {" + name + "}");
          return EscapeResult::kError;
        }
        if (c == 'P') set->negated = !set->negated;
        return EscapeResult::kClass;
      }
      default:
        break;
    }
    if (!in_class) {
      switch (c) {
        case 'b': *assert_kind = AssertKind::kWordBoundary; return EscapeResult::kAssert;
        case 'B': *assert_kind = AssertKind::kNotWordBoundary; return EscapeResult::kAssert;
        case 'A': *assert_kind = AssertKind::kBegin; return EscapeResult::kAssert;
        case 'z': *assert_kind = AssertKind::kEndOfInput; return EscapeResult::kAssert;
        case 'Z': *assert_kind = AssertKind::kEndBeforeFinalNewline; return EscapeResult::kAssert;
        default: break;
      }
    }
    if ((c >= '1' && c <= '9') || c == 'k') {
      Fail("back references are not supported");
      return EscapeResult::kError;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      Fail("Illegal/unsupported escape sequence");
      return EscapeResult::kError;
    }
    *cp = c;  // an escaped non-letter is itself
    return EscapeResult::kChar;
  }

  bool ParseEscape(Node* out) {
    char32_t cp = 0;
    CharSet set;
    AssertKind kind = AssertKind::kBegin;
    switch (ReadEscape(&cp, &set, &kind, /*in_class=*/false)) {
      case EscapeResult::kChar:
        *out = Literal(cp);
        return true;
      case EscapeResult::kClass:
        out->kind = Node::Kind::kSet;
        out->set = std::move(set);
        out->set.icase = flags_.icase;
        return true;
      case EscapeResult::kAssert:
        out->kind = Node::Kind::kAssert;
        out->assert_kind = kind;
        return true;
      case EscapeResult::kError:
        return false;
    }
    return false;
  }

  // After '['. Java semantics: ']' first is a literal, nested [..] unions.
  bool ParseClass(CharSet* out, int depth) {
    if (depth > kMaxNesting) return Fail("pattern nests too deeply");
    out->icase = flags_.icase;
    if (!AtEnd() && Peek() == '^') {
      out->negated = true;
      ++pos_;
    }
    bool first = true;
    while (true) {
      if (AtEnd()) return Fail("Unclosed character class");
      char32_t c = Peek();
      if (c == ']' && !first) {
        ++pos_;
        return true;
      }
      first = false;
      if (c == '[') {
        ++pos_;
        CharSet nested;
        if (!ParseClass(&nested, depth + 1)) return false;
        out->nested.push_back(std::move(nested));
        continue;
      }
      if (c == '&' && Peek(1) == '&') return Fail("class intersection (&&) is not supported");
      char32_t lo = 0;
      if (!ClassChar(out, &lo)) return false;
      if (lo == static_cast<char32_t>(-1)) continue;  // a class escape, already added
      if (!AtEnd() && Peek() == '-' && Peek(1) != ']' && Peek(1) != 0) {
        ++pos_;
        char32_t hi = 0;
        if (Peek() == '[') return Fail("Illegal character range");
        if (!ClassChar(out, &hi)) return false;
        if (hi == static_cast<char32_t>(-1) || hi < lo) return Fail("Illegal character range");
        out->ranges.push_back({lo, hi});
      } else {
        out->ranges.push_back({lo, lo});
      }
    }
  }

  // One member of a class: a character in *c, or a class escape added to
  // *set (then *c is -1).
  bool ClassChar(CharSet* set, char32_t* c) {
    char32_t ch = p_[pos_++];
    if (ch != '\\') {
      *c = ch;
      return true;
    }
    CharSet cls;
    AssertKind unused;
    switch (ReadEscape(c, &cls, &unused, /*in_class=*/true)) {
      case EscapeResult::kChar:
        return true;
      case EscapeResult::kClass:
        set->nested.push_back(std::move(cls));
        *c = static_cast<char32_t>(-1);
        return true;
      default:
        return false;
    }
  }

  std::u32string p_;
  size_t pos_ = 0;
  Flags flags_;
  std::string error_;
};

struct Inst {
  enum class Op { kSet, kAny, kAnyDotall, kSplit, kJmp, kAssert, kLook, kMatch };
  Op op = Op::kMatch;
  int x = 0, y = 0;   // kSplit/kJmp targets; kLook: x = body start
  int set = -1;
  AssertKind assert_kind = AssertKind::kBegin;
  bool negated = false;
};

// UTF-8 to code points; an invalid byte stands for itself (as Latin-1).
std::u32string DecodeUtf8(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size();
    char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (int k = 1; ok && k < len; ++k) {
      unsigned char cb = static_cast<unsigned char>(s[i + k]);
      if ((cb >> 6) != 2) ok = false;
      cp = (cp << 6) | (cb & 0x3F);
    }
    if (!ok) {
      out.push_back(b);
      ++i;
      continue;
    }
    out.push_back(cp);
    i += len;
  }
  return out;
}

}  // namespace

// The compiled pattern: instructions and the character sets they test.
class JavaRegex::Program {
 public:
  bool Compile(const Node& root, std::string* error) {
    if (!Emit(root)) {
      *error = "pattern is too complex";
      return false;
    }
    code_.push_back(Inst{});  // kMatch
    return true;
  }

  bool FullMatch(const std::u32string& text) const {
    Input in{text, {}};
    return Run(0, 0, &in, /*full=*/true);
  }

 private:
  // The text being matched, and the lookahead results found so far: for each
  // lookahead body, per position, -1 (not run yet), 0 or 1.
  struct Input {
    const std::u32string& text;
    std::unordered_map<int, std::vector<int8_t>> look_memo;
  };

  bool Room() const { return static_cast<int>(code_.size()) < kMaxProgram; }

  int Add(Inst inst) {
    code_.push_back(inst);
    return static_cast<int>(code_.size()) - 1;
  }

  bool Emit(const Node& n) {
    if (!Room()) return false;
    switch (n.kind) {
      case Node::Kind::kEmpty:
        return true;
      case Node::Kind::kSet: {
        sets_.push_back(n.set);
        Inst i;
        i.op = Inst::Op::kSet;
        i.set = static_cast<int>(sets_.size()) - 1;
        Add(i);
        return true;
      }
      case Node::Kind::kAny: {
        Inst i;
        i.op = n.dotall ? Inst::Op::kAnyDotall : Inst::Op::kAny;
        Add(i);
        return true;
      }
      case Node::Kind::kCat:
        for (const Node& k : n.kids) {
          if (!Emit(k)) return false;
        }
        return true;
      case Node::Kind::kAlt: {
        // split L1, next; L1: a; jmp end; next: split L2, ... ; last
        std::vector<int> jumps;
        for (size_t b = 0; b < n.kids.size(); ++b) {
          if (b + 1 < n.kids.size()) {
            int split = Add(Inst{Inst::Op::kSplit});
            code_[split].x = split + 1;
            if (!Emit(n.kids[b])) return false;
            jumps.push_back(Add(Inst{Inst::Op::kJmp}));
            code_[split].y = static_cast<int>(code_.size());
          } else if (!Emit(n.kids[b])) {
            return false;
          }
        }
        for (int j : jumps) code_[j].x = static_cast<int>(code_.size());
        return true;
      }
      case Node::Kind::kRepeat: {
        const Node& body = n.kids[0];
        for (int i = 0; i < n.min; ++i) {
          if (!Emit(body)) return false;
        }
        if (n.max == -1) {
          int split = Add(Inst{Inst::Op::kSplit});
          code_[split].x = split + 1;
          if (!Emit(body)) return false;
          int jmp = Add(Inst{Inst::Op::kJmp});
          code_[jmp].x = split;
          code_[split].y = static_cast<int>(code_.size());
          return true;
        }
        std::vector<int> splits;
        for (int i = n.min; i < n.max; ++i) {
          int split = Add(Inst{Inst::Op::kSplit});
          code_[split].x = split + 1;
          splits.push_back(split);
          if (!Emit(body)) return false;
        }
        for (int s : splits) code_[s].y = static_cast<int>(code_.size());
        return true;
      }
      case Node::Kind::kAssert: {
        Inst i;
        i.op = Inst::Op::kAssert;
        i.assert_kind = n.assert_kind;
        Add(i);
        return true;
      }
      case Node::Kind::kLook: {
        // look(body); jmp over; body...; match; over:
        int look = Add(Inst{Inst::Op::kLook});
        code_[look].negated = n.negated;
        int jmp = Add(Inst{Inst::Op::kJmp});
        code_[look].x = static_cast<int>(code_.size());
        if (!Emit(n.kids[0])) return false;
        Add(Inst{});  // kMatch ends the body
        code_[jmp].x = static_cast<int>(code_.size());
        return true;
      }
    }
    return false;
  }

  static bool IsWord(char32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
  }
  static bool IsLineTerminator(char32_t c) {
    return c == '\n' || c == '\r' || c == 0x85 || c == 0x2028 || c == 0x2029;
  }

  static bool Check(AssertKind k, size_t pos, const std::u32string& t) {
    size_t n = t.size();
    switch (k) {
      case AssertKind::kBegin:
        return pos == 0;
      case AssertKind::kEndOfInput:
        return pos == n;
      case AssertKind::kEnd:
      case AssertKind::kEndBeforeFinalNewline:
        return pos == n || (pos + 1 == n && IsLineTerminator(t[pos]));
      case AssertKind::kLineBegin:
        return pos == 0 || (IsLineTerminator(t[pos - 1]) && pos < n);
      case AssertKind::kLineEnd:
        return pos == n || IsLineTerminator(t[pos]);
      case AssertKind::kWordBoundary:
      case AssertKind::kNotWordBoundary: {
        bool before = pos > 0 && IsWord(t[pos - 1]);
        bool after = pos < n && IsWord(t[pos]);
        return (before != after) == (k == AssertKind::kWordBoundary);
      }
    }
    return false;
  }

  // Whether the lookahead body starting at `body` matches a prefix of the text
  // from pos.
  bool Look(int body, size_t pos, Input* in) const {
    auto& memo = in->look_memo[body];
    if (memo.empty()) memo.assign(in->text.size() + 1, -1);
    if (memo[pos] < 0) memo[pos] = Run(body, pos, in, /*full=*/false) ? 1 : 0;
    return memo[pos] == 1;
  }

  // Follows epsilon edges from pc at pos, adding the reached states to list.
  // Iterative: the work stack grows with the program, not the input.
  void AddState(std::vector<int>* list, std::vector<char>* on, int pc, size_t pos,
                Input* in) const {
    std::vector<int> stack{pc};
    while (!stack.empty()) {
      int p = stack.back();
      stack.pop_back();
      if ((*on)[p]) continue;
      (*on)[p] = 1;
      const Inst& i = code_[p];
      switch (i.op) {
        case Inst::Op::kJmp:
          stack.push_back(i.x);
          break;
        case Inst::Op::kSplit:
          stack.push_back(i.y);
          stack.push_back(i.x);
          break;
        case Inst::Op::kAssert:
          if (Check(i.assert_kind, pos, in->text)) stack.push_back(p + 1);
          break;
        case Inst::Op::kLook:
          if (Look(i.x, pos, in) != i.negated) stack.push_back(p + 1);
          break;
        default:
          list->push_back(p);
      }
    }
  }

  bool Run(int start, size_t pos, Input* in, bool full) const {
    const std::u32string& t = in->text;
    size_t n = code_.size();
    std::vector<int> cur, next;
    std::vector<char> on_cur(n, 0), on_next(n, 0);
    AddState(&cur, &on_cur, start, pos, in);
    while (true) {
      for (int p : cur) {
        if (code_[p].op == Inst::Op::kMatch && (!full || pos == t.size())) return true;
      }
      if (cur.empty() || pos == t.size()) return false;
      char32_t c = t[pos];
      next.clear();
      std::fill(on_next.begin(), on_next.end(), 0);
      for (int p : cur) {
        const Inst& i = code_[p];
        bool step = (i.op == Inst::Op::kSet && sets_[i.set].Contains(c)) ||
                    (i.op == Inst::Op::kAnyDotall) ||
                    (i.op == Inst::Op::kAny && !IsLineTerminator(c));
        if (step) AddState(&next, &on_next, p + 1, pos + 1, in);
      }
      cur.swap(next);
      on_cur.swap(on_next);
      ++pos;
    }
  }

  std::vector<Inst> code_;
  std::vector<CharSet> sets_;
};

Status JavaRegex::Compile(std::string_view pattern, JavaRegex* out) {
  Node root;
  std::string error;
  if (!Parser(DecodeUtf8(pattern)).Parse(&root, &error)) return Status::Validation(error);
  auto program = std::make_shared<Program>();
  if (!program->Compile(root, &error)) return Status::Validation(error);
  out->program_ = std::move(program);
  return Status::OK();
}

bool JavaRegex::FullMatch(std::string_view text) const {
  return program_ && program_->FullMatch(DecodeUtf8(text));
}

}  // namespace ms
