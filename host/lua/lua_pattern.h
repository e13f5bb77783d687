// Lua 5.1 patterns (reference manual §5.4.1) with LuaJIT 2.1's details, in a
// matcher that can be stopped from outside.
//
// Why not LuaJIT's own: string.find & co. match in C, where the count hook
// that enforces the deadline never fires, and a pattern can backtrack
// exponentially (('a?'):rep(26) .. ('a'):rep(26) against 26 a's takes
// seconds). This matcher calls a step hook every kPatternStepsPerCheck steps
// and stops when the hook says so.
//
// Semantics follow LuaJIT 2.1 (what provider code ran on before), down to the
// details the manual leaves open; tests/host/lua_pattern_test.cc compares the
// two on generated and hand-written cases:
// - the pattern is a C string: it ends at its first NUL byte;
// - %g (printable except space) exists, as in LuaJIT; classes are ASCII only;
// - errors in a pattern are found lazily, where the matcher reaches them
//   (string.find('b', 'a%') is nil, string.find('a', 'a%') an error);
// - recursion is bounded: more than kMaxPatternDepth nested steps raise
//   "pattern too complex";
// - at most kMaxPatternCaptures captures ("too many captures").
//
// Pure C++ over byte strings: no Lua here (string_lib.h binds it to Lua).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ms::lua {

inline constexpr int kMaxPatternCaptures = 32;   // LUA_MAXCAPTURES
inline constexpr int kMaxPatternDepth = 200;     // LuaJIT's LJ_MAX_XLEVEL
inline constexpr int kPatternStepsPerCheck = 1000;

enum class PatternError : uint8_t {
  kNone,
  kEndsWithPercent,      // malformed pattern (ends with '%')
  kMissingBracket,       // malformed pattern (missing ']')
  kFrontierBracket,      // missing '[' after '%f' in pattern
  kUnbalanced,           // unbalanced pattern (%b without two characters)
  kInvalidCapture,       // invalid pattern capture (')' closes nothing)
  kInvalidCaptureIndex,  // invalid capture index
  kTooManyCaptures,      // too many captures
  kUnfinishedCapture,    // unfinished capture (reported by readers of captures)
  kTooComplex,           // pattern too complex
  kStopped,              // the step hook asked to stop
};

// LuaJIT's text for `e` ("" for kNone and kStopped).
const char* PatternErrorMessage(PatternError e);

struct PatternCapture {
  static constexpr ptrdiff_t kUnfinished = -1;
  static constexpr ptrdiff_t kPosition = -2;  // "()": `start` is the position
  size_t start = 0;                           // offset in the subject
  ptrdiff_t len = kUnfinished;                // or the captured length
};

// True when `pattern` has one of ^$*+?.([%- anywhere (NULs included, as
// LuaJIT looks): string.find without one searches for the plain text.
bool HasPatternSpecials(std::string_view pattern);

class PatternMatcher {
 public:
  // Called every kPatternStepsPerCheck steps; false stops the match
  // (MatchAt fails with PatternError::kStopped). A step is one entry into the
  // recursive matcher or one subject byte scanned by a repetition, %b or a
  // back-reference, so the time between two calls is bounded. The hook must
  // return (not raise a Lua error): the matcher's frames unwind by a C++
  // exception that only Search catches.
  using StepHook = bool (*)(void* context);

  // `pattern` is a C string (without a leading '^': anchoring is the
  // caller's loop). Subject and pattern must outlive the matcher.
  PatternMatcher(std::string_view subject, const char* pattern, StepHook hook = nullptr,
                 void* context = nullptr);

  // Matches the pattern at `pos` (<= subject size) only. True: *end is where
  // the match ends and capture()/capture_count() describe it. False: no match
  // there, or error() says what went wrong (the pattern, its complexity, or
  // the hook).
  bool MatchAt(size_t pos, size_t* end);

  // MatchAt at `from` (<= subject size), then at each later position up to
  // and including the subject's end (only at `from` when `anchored`) until
  // one matches: *start and *end. Stops at the first error.
  bool Search(size_t from, bool anchored, size_t* start, size_t* end);

  PatternError error() const { return error_; }
  // Captures opened by the last successful match (finished or not).
  int capture_count() const { return level_; }
  PatternCapture capture(int i) const;

 private:
  struct Capture {
    const char* init;
    ptrdiff_t len;
  };
  const char* MatchFrom(const char* s);
  const char* Match(const char* s, const char* p);
  const char* MatchItems(const char* s, const char* p);
  const char* MaxExpand(const char* s, const char* p, const char* ep);
  const char* MinExpand(const char* s, const char* p, const char* ep);
  const char* StartCapture(const char* s, const char* p, ptrdiff_t what);
  const char* EndCapture(const char* s, const char* p);
  const char* MatchBalance(const char* s, const char* p);
  const char* MatchBackReference(const char* s, char digit);
  bool AtFrontier(const char* s, const char* p, const char* ep) const;
  void Checkpoint();

  const char* begin_;
  const char* end_;
  const char* pattern_;
  StepHook hook_;
  void* context_;
  int64_t budget_ = kPatternStepsPerCheck;  // steps until the next hook call
  int level_ = 0;  // captures opened
  int depth_ = 0;  // nested Match calls
  PatternError error_ = PatternError::kNone;
  Capture captures_[kMaxPatternCaptures];
};

}  // namespace ms::lua
