// Template parameters: declaration checks, value resolution, constraints.
//
// Messages are AWS's where they are known; see the comment above each one.
// AllowedPattern is a Java regular expression on AWS. std::regex is not used:
// libstdc++'s matcher recurses once per input character (a 4096-character
// value against [a-z]* overflows a 1 MB thread stack) and backtracks
// exponentially ((a*)*b). Instead a small Java-syntax compiler feeds a
// Thompson-NFA simulation: linear in the input, no recursion on it.
#include "eval/parameters.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ms {
namespace {

// ---------------------------------------------------------------------------
// Limits (CloudFormation quotas).
// ---------------------------------------------------------------------------

constexpr size_t kMaxParameters = 200;      // "Parameters: 200" (quotas page)
constexpr size_t kMaxValueBytes = 4096;     // "Parameter value: 4,096 bytes"

// ---------------------------------------------------------------------------
// A Java-syntax regular expression, matched against a whole string.
// ---------------------------------------------------------------------------
namespace rx {

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

class Program {
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
    look_memo_.clear();
    return Run(0, 0, text, /*full=*/true);
  }

 private:
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

  // Whether the lookahead body starting at `body` matches a prefix of t[pos..].
  bool Look(int body, size_t pos, const std::u32string& t) const {
    auto& memo = look_memo_[body];
    if (memo.empty()) memo.assign(t.size() + 1, -1);
    if (memo[pos] < 0) memo[pos] = Run(body, pos, t, /*full=*/false) ? 1 : 0;
    return memo[pos] == 1;
  }

  // Follows epsilon edges from pc at pos, adding the reached states to list.
  // Iterative: the work stack grows with the program, not the input.
  void AddState(std::vector<int>* list, std::vector<char>* on, int pc, size_t pos,
                const std::u32string& t) const {
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
          if (Check(i.assert_kind, pos, t)) stack.push_back(p + 1);
          break;
        case Inst::Op::kLook:
          if (Look(i.x, pos, t) != i.negated) stack.push_back(p + 1);
          break;
        default:
          list->push_back(p);
      }
    }
  }

  bool Run(int start, size_t pos, const std::u32string& t, bool full) const {
    size_t n = code_.size();
    std::vector<int> cur, next;
    std::vector<char> on_cur(n, 0), on_next(n, 0);
    AddState(&cur, &on_cur, start, pos, t);
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
        if (step) AddState(&next, &on_next, p + 1, pos + 1, t);
      }
      cur.swap(next);
      on_cur.swap(on_next);
      ++pos;
    }
  }

  std::vector<Inst> code_;
  std::vector<CharSet> sets_;
  mutable std::unordered_map<int, std::vector<int8_t>> look_memo_;
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

}  // namespace rx

// A compiled AllowedPattern.
class AllowedPattern {
 public:
  // False with a reason when the pattern is not a regular expression we can
  // evaluate (invalid Java syntax, or a feature such as back references).
  bool Compile(std::string_view pattern, std::string* error) {
    rx::Node root;
    rx::Parser parser(rx::DecodeUtf8(pattern));
    if (!parser.Parse(&root, error)) return false;
    return program_.Compile(root, error);
  }
  bool FullMatch(std::string_view text) const { return program_.FullMatch(rx::DecodeUtf8(text)); }

 private:
  rx::Program program_;
};

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

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\n' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

// "The total number of strings should be one more than the total number of
// commas. Also, each member string is space trimmed." (Parameters reference)
std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(Trim(text.substr(start)));
      return out;
    }
    out.push_back(Trim(text.substr(start, comma - start)));
    start = comma + 1;
  }
}

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

std::string JoinBracketed(const std::vector<std::string>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  return out + "]";
}

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

Status CompilePattern(const ParameterDecl& p, AllowedPattern* out) {
  std::string why;
  if (!out->Compile(*p.allowed_pattern, &why)) {
    // moonstack's wording: AWS's message for a bad pattern is not recorded.
    return Status::Validation("Template format error: Parameter '" + p.name +
                              "' AllowedPattern must be a valid regular expression: " + why);
  }
  return Status::OK();
}

// Checks one value (or one element of a list value) of parameter p.
Status CheckElement(const ParameterDecl& p, std::string_view type, const std::string& v,
                    const AllowedPattern* pattern) {
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
  AllowedPattern pattern;
  bool has_pattern = p.allowed_pattern.has_value();
  if (has_pattern) MS_RETURN_IF_ERROR(CompilePattern(p, &pattern));
  std::string_view type = ConstraintType(p.type);
  const AllowedPattern* pat = has_pattern ? &pattern : nullptr;
  if (!SplitsGivenValue(p.type)) return CheckElement(p, type, text, pat);
  for (const std::string& element : SplitList(text)) {
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
  if (!SplitsGivenValue(p.type)) return Value::String(text);
  Value::List items;
  for (std::string& e : SplitList(text)) items.push_back(Value::String(std::move(e)));
  return Value::MakeList(std::move(items));
}

// The raw declaration in the document, for shape checks the ParameterDecl
// cannot express (a Default that is a map, say).
const Value* RawParameters(const Template& t) {
  if (!t.root.is_map()) return nullptr;
  const Value* params = t.root.find("Parameters");
  return params && params->is_map() ? params : nullptr;
}

Status CheckRawShape(const Value& raw) {
  if (!raw.is_map()) return Status::OK();  // the loader reports this
  if (const Value* d = raw.find("Default"); d && d->is_map()) {
    // Recorded for a Default that is a function (Fn::Join). A YAML list is
    // left to the loader, which accepts it in the comma form.
    return Status::Validation("Template format error: Every Default member must be a string.");
  }
  if (const Value* a = raw.find("AllowedValues"); a && !a->is_list() && !a->is_null()) {
    // Recorded from CreateStack for a YAML block string.
    return Status::Validation("Template format error: Every AllowedValues member must be a list.");
  }
  return Status::OK();
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
  const Value* raw_params = RawParameters(t);
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
    if (raw_params) {
      if (const Value* raw = raw_params->find(p.name)) MS_RETURN_IF_ERROR(CheckRawShape(*raw));
    }
    if (p.allowed_pattern) {
      AllowedPattern unused;
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
    return Status::Validation("Parameters: " + JoinBracketed(unknown) + " do not exist in the template");
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
    return Status::Validation("Parameters: " + JoinBracketed(missing) + " must have values");
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

Status CheckParametersAgainstWorld(const EvalEnvironment& env, ParameterValues* values) {
  // SSM lookups first; every missing key is reported together:
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
    if (IsListParameterType(inner)) {
      Value::List items;
      for (std::string& e : SplitList(resolved)) items.push_back(Value::String(std::move(e)));
      r.value = Value::MakeList(std::move(items));
    } else {
      r.value = Value::String(resolved);
    }
  }
  if (!unfetched.empty()) {
    return Status::Validation("Unable to fetch parameters " + JoinBracketed(unfetched) +
                              " from parameter store for this account.");
  }

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
