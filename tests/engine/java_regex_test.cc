// JavaRegex: the Java-syntax regular expressions of AllowedPattern. Parameter
// messages around it are tested in parameters_test.cc.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "eval/java_regex.h"

namespace ms {
namespace {

JavaRegex Compiled(const std::string& pattern) {
  JavaRegex re;
  Status s = JavaRegex::Compile(pattern, &re);
  INFO(pattern);
  INFO(s.message());
  REQUIRE(s.ok());
  return re;
}

bool Matches(const std::string& pattern, const std::string& text) {
  return Compiled(pattern).FullMatch(text);
}

// The reason Compile gives for a bad pattern.
std::string CompileError(const std::string& pattern) {
  JavaRegex re;
  Status s = JavaRegex::Compile(pattern, &re);
  INFO(pattern);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == Status::Code::kValidation);
  return s.message();
}

TEST_CASE("JavaRegex matches the whole text", "[regex]") {
  CHECK(Matches("abc", "abc"));
  CHECK_FALSE(Matches("abc", "abcd"));
  CHECK_FALSE(Matches("abc", "xabc"));
  CHECK_FALSE(Matches("b", "abc"));
  CHECK(Matches("", ""));
  CHECK_FALSE(Matches("", "a"));
  CHECK_FALSE(Matches("[a-z]+", ""));
}

TEST_CASE("JavaRegex classes", "[regex]") {
  CHECK(Matches("[a-c]+", "abcab"));
  CHECK_FALSE(Matches("[a-c]+", "abcd"));
  CHECK(Matches("[^0-9]+", "abc"));
  CHECK_FALSE(Matches("[^0-9]+", "ab1"));
  CHECK(Matches("[a-z[0-9]]+", "a1b2"));  // Java's nested union
  CHECK(Matches("\\d\\D\\w\\W\\s\\S", "1a_ \tx"));
  CHECK(Matches("[-a]+", "-a-"));
  CHECK(Matches("[a-]+", "a-"));
  CHECK(Matches(".", "\xC3\xA9"));  // one code point, two bytes
}

TEST_CASE("JavaRegex quantifiers", "[regex]") {
  CHECK(Matches("a*", ""));
  CHECK(Matches("a+", "aaa"));
  CHECK_FALSE(Matches("a+", ""));
  CHECK(Matches("ab?c", "ac"));
  CHECK(Matches("ab?c", "abc"));
  CHECK_FALSE(Matches("ab?c", "abbc"));
  CHECK(Matches("a{3}", "aaa"));
  CHECK_FALSE(Matches("a{3}", "aa"));
  CHECK(Matches("a{2,}", "aaaaa"));
  CHECK(Matches("a{2,3}", "aaa"));
  CHECK_FALSE(Matches("a{2,3}", "aaaa"));
  CHECK(Matches("(ab){2}", "abab"));
}

TEST_CASE("JavaRegex alternation and anchors", "[regex]") {
  CHECK(Matches("cat|dog", "dog"));
  CHECK_FALSE(Matches("cat|dog", "catdog"));
  CHECK(Matches("(cat|dog)+", "catdog"));
  CHECK(Matches("a(|b)c", "ac"));
  CHECK(Matches("^abc$", "abc"));
  CHECK(Matches("\\Aabc\\z", "abc"));
  CHECK_FALSE(Matches("a^b", "ab"));
  CHECK(Matches("(?m)a$\\n^b", "a\nb"));
  CHECK(Matches("\\bab\\b", "ab"));
  CHECK_FALSE(Matches("a\\Bb", "a b"));
}

TEST_CASE("JavaRegex Java syntax", "[regex]") {
  CHECK(Matches("^[a-zA-Z0-9]*$", "abc123"));
  CHECK_FALSE(Matches("^[a-zA-Z0-9]*$", "abc-123"));
  CHECK(Matches("\\d{3}-\\d{4}", "555-1234"));
  CHECK_FALSE(Matches("\\d{3}-\\d{4}", "555-12345"));
  CHECK(Matches("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})", "10.0.0.0/16"));
  CHECK_FALSE(Matches("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})", "10.0.0.0"));
  CHECK(Matches("[a-z]|[0-9]+", "42"));
  CHECK(Matches("(?i)abc", "AbC"));
  CHECK_FALSE(Matches("abc", "ABC"));
  CHECK(Matches("a(?i:b)c", "aBc"));
  CHECK_FALSE(Matches("a(?i:b)c", "aBC"));
  CHECK(Matches("\\p{Alnum}+", "Abc9"));
  CHECK_FALSE(Matches("\\p{Alnum}+", "Abc-9"));
  CHECK(Matches("[\\p{Upper}\\d]+", "AB12"));
  CHECK(Matches("\\P{Digit}+", "abc"));
  CHECK(Matches("[^\\s]+", "no-spaces"));
  CHECK_FALSE(Matches("[^\\s]+", "has space"));
  CHECK(Matches("[\\w.-]+@[\\w.-]+", "me@example.com"));
  CHECK(Matches("\\Qa.b\\E", "a.b"));
  CHECK_FALSE(Matches("\\Qa.b\\E", "axb"));
  CHECK(Matches("[]a]+", "]a]"));
  CHECK(Matches("x*?y+?z??", "xxyz"));  // lazy quantifiers
  CHECK(Matches("a++b", "aab"));        // possessive, approximated as greedy
  CHECK(Matches("(?<name>ab)+", "abab"));
  CHECK(Matches("\\x41\\u0042\\0103", "ABC"));
  CHECK(Matches(".*", "any thing"));
  CHECK_FALSE(Matches(".*", "line\nbreak"));  // '.' excludes line terminators
  CHECK(Matches("(?s).*", "line\nbreak"));
  CHECK(Matches("abc$", "abc\n") == false);   // $ before the final newline, but the
                                               // newline must still be matched
  CHECK(Matches("\\bword\\b", "word"));
  CHECK(Matches("caf\xC3\xA9", "caf\xC3\xA9"));  // UTF-8 code points
  CHECK(Matches("caf.", "caf\xC3\xA9"));
  // Lookahead, as in password rules.
  const char* password = "^(?=.*[A-Z])(?=.*\\d)(?!.*\\s).{8,}$";
  CHECK(Matches(password, "Passw0rdX"));
  CHECK_FALSE(Matches(password, "password1"));
  CHECK_FALSE(Matches(password, "Pass w0rd"));
  CHECK_FALSE(Matches(password, "Pa55"));
}

TEST_CASE("JavaRegex rejects invalid and unsupported patterns", "[regex]") {
  for (const char* pattern : {"[a-", "(abc", "abc)", "a{2", "a{3,1}", "*a", "a**", "\\",
                              "\\1", "(?<=a)b", "\\p{NoSuchClass}", "[z-a]", "\\xZZ", "\\y"}) {
    CHECK_FALSE(CompileError(pattern).empty());
  }
  CHECK(CompileError("(abc") == "Unclosed group");
  CHECK(CompileError("abc)") == "Unmatched closing ')'");
  // Valid Java, but beyond this engine: an error, never a wrong answer.
  CHECK(CompileError("(a)\\1") == "back references are not supported");
  CHECK(CompileError("(?<=a)b") == "lookbehind is not supported");
  CHECK(CompileError("[a-z&&[^b]]") == "class intersection (&&) is not supported");
  CHECK(CompileError("(?x)a b") == "the COMMENTS flag (?x) is not supported");
  // Too big to compile is an error, not a hang.
  CHECK(CompileError("((a{1000}){1000}){1000}") == "pattern is too complex");
  CHECK(CompileError(std::string(500, '(') + "a" + std::string(500, ')')) ==
        "pattern nests too deeply");
}

TEST_CASE("JavaRegex: a failed compile leaves the regex as it was", "[regex]") {
  JavaRegex re = Compiled("a+");
  CHECK_FALSE(JavaRegex::Compile("(", &re).ok());
  CHECK(re.FullMatch("aa"));
  CHECK_FALSE(JavaRegex().FullMatch(""));  // never compiled: matches nothing
  JavaRegex copy = re;
  CHECK(copy.FullMatch("a"));
}

// A backtracking matcher would never finish these; ctest's per-test timeout
// (tests/CMakeLists.txt) turns such a hang into a failure.
TEST_CASE("JavaRegex: long inputs and pathological patterns", "[regex]") {
  // 4096 bytes is the longest parameter value.
  std::string a4096(4096, 'a');
  CHECK(Matches("[a-z]*", a4096));
  CHECK(Matches("(a|b)*", a4096));
  CHECK(Matches("(a|aa)+", a4096));
  CHECK_FALSE(Matches("(a*)*b", a4096));  // exponential for a backtracking matcher
  CHECK_FALSE(Matches("(a+)+$x", a4096));
  CHECK_FALSE(Matches("^(?=.*b).*$", a4096));
  CHECK(Matches("a{0,1000}a{0,1000}a{0,1000}a{0,1000}a{0,100}", std::string(4000, 'a')));
}

TEST_CASE("JavaRegex: one compiled regex serves several threads", "[regex]") {
  JavaRegex re = Compiled("^(?=.*[A-Z])(?=.*\\d).{8,}$");
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&re, &ok, t] {
      for (int i = 0; i < 200; ++i) {
        if (re.FullMatch("Passw0rd" + std::string(t * 10, 'x')) && !re.FullMatch("password")) {
          ++ok[t];
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int n : ok) CHECK(n == 200);
}

}  // namespace
}  // namespace ms
