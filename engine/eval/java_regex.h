// JavaRegex: the java.util.regex syntax that AllowedPattern uses on AWS,
// matched against a whole string.
//
// Why not std::regex: libstdc++'s matcher recurses once per input character
// (a 4096-character parameter value against [a-z]* overflows a 1 MB thread
// stack) and backtracks exponentially ((a*)*b never finishes). This engine
// compiles the pattern to a Thompson NFA and simulates it: time linear in the
// input for a fixed pattern (each lookahead adds at most one memoized sub-match
// per input position), and no recursion on the input.
//
// Supported: literals and escapes (\t \n \xhh \x{h..h} \uhhhh \0ooo \cX \Q..\E),
// classes ([a-z], [^..], Java's nested unions [a[b]], \d \w \s \h \v and their
// negations, \p{..}/\P{..} for the POSIX names and the common Unicode
// categories, approximated), '.', groups (capturing, (?:..), (?<name>..)),
// alternation, greedy/lazy/possessive quantifiers (possessive and atomic
// groups are approximated as greedy), anchors (^ $ \A \z \Z \b \B), lookahead
// (?=..) (?!..), inline flags i, s, m (case folding is ASCII only, as Java's
// default). Not supported, so Compile fails: back references, lookbehind,
// class intersection (&&), the COMMENTS flag (?x). Patterns are bounded (nesting
// 100, repetition counts 1000, 50,000 compiled instructions) so that none can
// exhaust memory or the stack.
//
// Text is UTF-8 and matched by code point; a byte that is not valid UTF-8
// stands for itself, as a Latin-1 character.
#pragma once

#include <memory>
#include <string_view>

#include "base/status.h"

namespace ms {

class JavaRegex {
 public:
  // Matches nothing until compiled.
  JavaRegex() = default;

  // Compiles `pattern` into *out. On failure, *out is untouched and the
  // Validation status's message says why in a few words ("Unclosed group",
  // "back references are not supported"), for the caller to put in context.
  static Status Compile(std::string_view pattern, JavaRegex* out);

  // Whether the whole of `text` matches (Java's Matcher.matches()). Safe to
  // call from several threads at once.
  bool FullMatch(std::string_view text) const;

 private:
  class Program;
  // Immutable once compiled, so copies can share it.
  std::shared_ptr<const Program> program_;
};

}  // namespace ms
