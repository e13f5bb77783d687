#include "lua/lua_pattern.h"

#include <array>
#include <cstring>

namespace ms::lua {
namespace {

constexpr char kEsc = '%';

// Thrown to unwind the matcher's recursion on an error; caught in Search.
struct Stop {
  PatternError error;
};

// Character classes as LuaJIT's own table has them: ASCII only, whatever
// the C locale says.
enum : uint8_t {
  kCntrl = 1,
  kSpace = 2,
  kPunct = 4,
  kDigit = 8,
  kXdigit = 16,
  kUpper = 32,
  kLower = 64,
  kAlpha = kUpper | kLower,
  kAlnum = kAlpha | kDigit,
  kGraph = kAlnum | kPunct,
};

constexpr std::array<uint8_t, 256> MakeClassTable() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 128; ++c) {
    uint8_t bits = 0;
    if (c < 32 || c == 127) bits |= kCntrl;
    if ((c >= 9 && c <= 13) || c == ' ') bits |= kSpace;
    if (c > 32 && c < 127) bits |= kPunct;  // minus letters and digits below
    if (c >= '0' && c <= '9') bits = kDigit | kXdigit;
    if (c >= 'A' && c <= 'Z') bits = kUpper;
    if (c >= 'a' && c <= 'z') bits = kLower;
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) bits |= kXdigit;
    t[static_cast<size_t>(c)] = bits;
  }
  return t;
}

constexpr std::array<uint8_t, 256> kClasses = MakeClassTable();

inline unsigned char U(char c) { return static_cast<unsigned char>(c); }

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// What the character after a '%' stands for: class bits, kNegated for the
// upper-case complements, kNul for %z/%Z; 0 when it stands for itself.
enum : uint16_t { kNegated = 0x100, kNul = 0x200 };

constexpr std::array<uint16_t, 256> MakeClassLetters() {
  std::array<uint16_t, 256> t{};
  const struct {
    char letter;
    uint16_t meaning;
  } kLetters[] = {{'a', kAlpha}, {'c', kCntrl}, {'d', kDigit}, {'g', kGraph},
                  {'l', kLower}, {'p', kPunct}, {'s', kSpace}, {'u', kUpper},
                  {'w', kAlnum}, {'x', kXdigit}, {'z', kNul}};
  for (const auto& l : kLetters) {
    t[static_cast<size_t>(l.letter)] = l.meaning;
    t[static_cast<size_t>(l.letter - 'a' + 'A')] = l.meaning | kNegated;
  }
  return t;
}

constexpr std::array<uint16_t, 256> kClassLetters = MakeClassLetters();

// `c` against the character after a '%': a class (%a, %A...), %z/%Z (the
// NUL byte), or else that character itself (%., %%, %]...).
inline bool MatchClass(unsigned char c, unsigned char cl) {
  uint16_t k = kClassLetters[cl];
  if (k == 0) return cl == c;
  bool in = (k & kNul) != 0 ? c == 0 : (kClasses[c] & k) != 0;
  return (k & kNegated) != 0 ? !in : in;
}

// `c` against the set [...] from `p` (its '[') to `ec` (its ']').
bool MatchSet(unsigned char c, const char* p, const char* ec) {
  bool in = true;
  if (p[1] == '^') {
    in = false;
    ++p;
  }
  while (++p < ec) {
    if (*p == kEsc) {
      ++p;
      if (MatchClass(c, U(*p))) return in;
    } else if (p[1] == '-' && p + 2 < ec) {  // a range; a '-' last is literal
      p += 2;
      if (U(p[-2]) <= c && c <= U(*p)) return in;
    } else if (U(*p) == c) {
      return in;
    }
  }
  return !in;
}

// One character against the single-character class from `p` to `ep`.
inline bool SingleMatch(unsigned char c, const char* p, const char* ep) {
  switch (*p) {
    case '.': return true;
    case kEsc: return MatchClass(c, U(p[1]));
    case '[': return MatchSet(c, p, ep - 1);
    default: return U(*p) == c;
  }
}

// The end of the single-character class starting at `p`.
inline const char* ClassEnd(const char* p) {
  char c = *p++;
  if (c == kEsc) {
    if (*p == '\0') throw Stop{PatternError::kEndsWithPercent};
    return p + 1;
  }
  if (c == '[') {
    if (*p == '^') ++p;
    // The first character is part of the set even when it is ']'.
    do {
      if (*p == '\0') throw Stop{PatternError::kMissingBracket};
      if (*p++ == kEsc && *p != '\0') ++p;  // skips escapes such as %]
    } while (*p != ']');
    return p + 1;
  }
  return p;
}

}  // namespace

const char* PatternErrorMessage(PatternError e) {
  switch (e) {
    case PatternError::kNone: return "";
    case PatternError::kEndsWithPercent: return "malformed pattern (ends with '%')";
    case PatternError::kMissingBracket: return "malformed pattern (missing ']')";
    case PatternError::kFrontierBracket: return "missing '[' after '%f' in pattern";
    case PatternError::kUnbalanced: return "unbalanced pattern";
    case PatternError::kInvalidCapture: return "invalid pattern capture";
    case PatternError::kInvalidCaptureIndex: return "invalid capture index";
    case PatternError::kTooManyCaptures: return "too many captures";
    case PatternError::kUnfinishedCapture: return "unfinished capture";
    case PatternError::kTooComplex: return "pattern too complex";
    case PatternError::kStopped: return "";
  }
  return "";
}

bool HasPatternSpecials(std::string_view pattern) {
  for (char c : pattern) {
    switch (c) {
      case '^': case '$': case '*': case '+': case '?': case '.': case '(': case '[':
      case '%': case '-':
        return true;
      default:
        break;
    }
  }
  return false;
}

PatternMatcher::PatternMatcher(std::string_view subject, const char* pattern, StepHook hook,
                               void* context)
    : begin_(subject.data()),
      end_(subject.data() + subject.size()),
      pattern_(pattern),
      hook_(hook),
      context_(context) {}

bool PatternMatcher::MatchAt(size_t pos, size_t* end) {
  size_t start = 0;
  return Search(pos, true, &start, end);
}

bool PatternMatcher::Search(size_t from, bool anchored, size_t* start, size_t* end) {
  error_ = PatternError::kNone;
  // Errors unwind the recursion as an exception, caught here only: the
  // caller raises the Lua error once no matcher frame is left.
  try {
    const char* s = begin_ + from;
    do {
      if (const char* e = MatchFrom(s)) {
        *start = static_cast<size_t>(s - begin_);
        *end = static_cast<size_t>(e - begin_);
        return true;
      }
    } while (s++ < end_ && !anchored);
  } catch (const Stop& stop) {
    error_ = stop.error;
  }
  return false;
}

// One attempt at `s` with no capture and no depth carried over.
inline const char* PatternMatcher::MatchFrom(const char* s) {
  level_ = 0;
  depth_ = 0;
  return Match(s, pattern_);
}

PatternCapture PatternMatcher::capture(int i) const {
  PatternCapture c;
  c.start = static_cast<size_t>(captures_[i].init - begin_);
  c.len = captures_[i].len;
  return c;
}

void PatternMatcher::Checkpoint() {
  budget_ = kPatternStepsPerCheck;
  if (hook_ != nullptr && !hook_(context_)) throw Stop{PatternError::kStopped};
}

// The recursive matcher: the end of the match of pattern `p` at `s`, or
// nullptr. Every entry counts towards the depth bound (as in LuaJIT, where
// this is what "pattern too complex" measures) and the step budget.
const char* PatternMatcher::Match(const char* s, const char* p) {
  if (++depth_ > kMaxPatternDepth) throw Stop{PatternError::kTooComplex};
  if (--budget_ <= 0) Checkpoint();
  s = MatchItems(s, p);
  --depth_;
  return s;
}

// Matches items one after the other, looping where the rest of the pattern
// is a tail call; recursing (through Match) only where it must backtrack.
const char* PatternMatcher::MatchItems(const char* s, const char* p) {
  for (;;) {
    switch (*p) {
      case '\0':  // end of pattern: matched
        return s;
      case '(':
        if (p[1] == ')') return StartCapture(s, p + 2, PatternCapture::kPosition);
        return StartCapture(s, p + 1, PatternCapture::kUnfinished);
      case ')':
        return EndCapture(s, p + 1);
      case '$':
        if (p[1] == '\0') return s == end_ ? s : nullptr;
        break;  // a '$' elsewhere is the character itself
      case kEsc:
        if (p[1] == 'b') {
          s = MatchBalance(s, p + 2);
          if (s == nullptr) return nullptr;
          p += 4;
          continue;
        }
        if (p[1] == 'f') {
          p += 2;
          if (*p != '[') throw Stop{PatternError::kFrontierBracket};
          const char* ep = ClassEnd(p);
          if (!AtFrontier(s, p, ep)) return nullptr;
          p = ep;
          continue;
        }
        if (IsDigit(p[1])) {
          s = MatchBackReference(s, p[1]);
          if (s == nullptr) return nullptr;
          p += 2;
          continue;
        }
        break;  // a class such as %a, or an escaped character
      default:
        break;
    }
    // A single-character class, maybe with a quantifier after it.
    const char* ep = ClassEnd(p);
    bool m = s < end_ && SingleMatch(U(*s), p, ep);
    switch (*ep) {
      case '?':
        if (m) {
          const char* res = Match(s + 1, ep + 1);
          if (res != nullptr) return res;
        }
        p = ep + 1;
        continue;
      case '*':
        return MaxExpand(s, p, ep);
      case '+':
        return m ? MaxExpand(s + 1, p, ep) : nullptr;
      case '-':
        return MinExpand(s, p, ep);
      default:
        if (!m) return nullptr;
        ++s;
        p = ep;
        continue;
    }
  }
}

// Greedy repetition: the longest run first, then one less at a time.
const char* PatternMatcher::MaxExpand(const char* s, const char* p, const char* ep) {
  ptrdiff_t i = 0;
  while (s + i < end_ && SingleMatch(U(s[i]), p, ep)) ++i;
  budget_ -= i;
  for (; i >= 0; --i) {
    const char* res = Match(s + i, ep + 1);
    if (res != nullptr) return res;
  }
  return nullptr;
}

// Lazy repetition: the shortest run first, then one more at a time.
const char* PatternMatcher::MinExpand(const char* s, const char* p, const char* ep) {
  for (;;) {
    const char* res = Match(s, ep + 1);
    if (res != nullptr) return res;
    if (s < end_ && SingleMatch(U(*s), p, ep)) {
      ++s;
    } else {
      return nullptr;
    }
  }
}

const char* PatternMatcher::StartCapture(const char* s, const char* p, ptrdiff_t what) {
  if (level_ >= kMaxPatternCaptures) throw Stop{PatternError::kTooManyCaptures};
  captures_[level_].init = s;
  captures_[level_].len = what;
  ++level_;
  const char* res = Match(s, p);
  if (res == nullptr) --level_;  // undo the capture
  return res;
}

const char* PatternMatcher::EndCapture(const char* s, const char* p) {
  int l = level_ - 1;
  while (l >= 0 && captures_[l].len != PatternCapture::kUnfinished) --l;
  if (l < 0) throw Stop{PatternError::kInvalidCapture};
  captures_[l].len = s - captures_[l].init;
  const char* res = Match(s, p);
  if (res == nullptr) captures_[l].len = PatternCapture::kUnfinished;  // undo
  return res;
}

// %bxy at `s`: from an x to its matching y. `p` points after "%b".
const char* PatternMatcher::MatchBalance(const char* s, const char* p) {
  if (p[0] == '\0' || p[1] == '\0') throw Stop{PatternError::kUnbalanced};
  if (s >= end_ || *s != p[0]) return nullptr;
  const char* start = s;
  char open = p[0], close = p[1];
  int depth = 1;
  while (++s < end_) {
    if (*s == close) {  // checked first: %b"" spans one quoted string
      if (--depth == 0) {
        budget_ -= s - start;
        return s + 1;
      }
    } else if (*s == open) {
      ++depth;
    }
  }
  budget_ -= s - start;
  return nullptr;
}

// %1-%9 at `s`: the same text as that finished capture.
const char* PatternMatcher::MatchBackReference(const char* s, char digit) {
  int l = digit - '1';
  if (l < 0 || l >= level_ || captures_[l].len == PatternCapture::kUnfinished) {
    throw Stop{PatternError::kInvalidCaptureIndex};
  }
  ptrdiff_t len = captures_[l].len;
  // A position capture has no text: it never matches (as in LuaJIT).
  if (len < 0 || end_ - s < len) return nullptr;
  budget_ -= len;
  if (std::memcmp(captures_[l].init, s, static_cast<size_t>(len)) != 0) return nullptr;
  return s + len;
}

// %f[set] at `s`: the previous character (NUL at the start) is not in the
// set from `p` to `ep` and the current one (NUL at the end) is.
bool PatternMatcher::AtFrontier(const char* s, const char* p, const char* ep) const {
  unsigned char previous = s == begin_ ? 0 : U(s[-1]);
  unsigned char current = s < end_ ? U(*s) : 0;
  return !MatchSet(previous, p, ep - 1) && MatchSet(current, p, ep - 1);
}

}  // namespace ms::lua
