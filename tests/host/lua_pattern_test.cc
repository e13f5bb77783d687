// host/lua pattern functions: the host's string.find/match/gmatch/gsub give
// what LuaJIT's give (a differential test against an unsandboxed LuaJIT
// state), and a runaway pattern fails its call at the deadline.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <lua.hpp>

#include "lua/lua_pattern.h"
#include "lua/runtime.h"

using namespace ms::lua;
using Clock = std::chrono::steady_clock;

namespace {

// Serialises results the same way in both states, with no pattern function
// (the Runtime's are under test): count, then each value.
const char kPrelude[] = R"lua(
function __ser(...)
  local out = {}
  for i = 1, select('#', ...) do
    local v = select(i, ...)
    if type(v) == 'string' then
      out[i] = string.format('%q', v)
    else  -- no addresses: they differ between the states
      out[i] = type(v) == 'table' and 'table' or tostring(v)
    end
  end
  return select('#', ...) .. ':' .. table.concat(out, ',')
end
function __gmatch(s, p)
  local out, it = {}, string.gmatch(s, p)
  for _ = 1, 100 do
    local r = { n = 0 }
    local function keep(...) r = { n = select('#', ...), ... } end
    keep(it())
    if r.n == 0 or r[1] == nil then break end
    out[#out + 1] = __ser(unpack(r, 1, r.n))
  end
  return table.concat(out, '|')
end
)lua";

// The original functions: a plain LuaJIT state with the standard libraries.
class Reference {
 public:
  Reference() : L_(luaL_newstate()) {
    luaL_openlibs(L_);
    REQUIRE(luaL_loadbuffer(L_, kPrelude, sizeof kPrelude - 1, "=prelude") == 0);
    REQUIRE(lua_pcall(L_, 0, 0, 0) == 0);
  }
  ~Reference() { lua_close(L_); }
  Reference(const Reference&) = delete;
  Reference& operator=(const Reference&) = delete;

  // The chunk's first result as a string, or "error: " and the message.
  std::string Eval(const std::string& code) {
    std::string out;
    if (luaL_loadbuffer(L_, code.data(), code.size(), "=case") != 0 ||
        lua_pcall(L_, 0, 1, 0) != 0) {
      out = "error: ";
    }
    size_t n = 0;
    const char* s = lua_tolstring(L_, -1, &n);
    out.append(s ? std::string(s, n) : std::string("(not a string)"));
    lua_settop(L_, 0);
    return out;
  }

 private:
  lua_State* L_;
};

std::unique_ptr<Runtime> NewRuntime(std::chrono::milliseconds deadline) {
  RuntimeOptions o;
  o.limits.deadline = deadline;
  o.limits.memory_bytes = size_t{32} << 20;
  ms::Status status;
  auto rt = Runtime::Create(o, &status);
  REQUIRE(status.ok());
  return rt;
}

// The same chunk in the sandboxed Runtime.
std::string EvalIn(Runtime& rt, const std::string& code) {
  CallResult r = rt.Eval(code, "=case");
  if (!r.ok()) return "error: " + r.error->message;
  return r.value().str();
}

// A Lua string literal for any bytes.
std::string Lit(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\' || c < 32 || c >= 127) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03u", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Runs `body` (a function body returning results) in both, non-tail and
// tail-called (error positions depend on the frame), and compares.
class Differential {
 public:
  Differential() : rt_(NewRuntime(std::chrono::milliseconds(2000))) {
    REQUIRE(rt_->Eval(kPrelude, "=prelude").ok());
  }

  void Check(const std::string& body) {
    for (const std::string& code :
         {"return __ser(pcall(function() " + body + " end))",
          "local r = { pcall(function() " + body + " end) } return __ser(unpack(r))"}) {
      std::string want = ref_.Eval(code);
      std::string got = EvalIn(*rt_, code);
      INFO(code);
      CHECK(got == want);
      ++cases_;
    }
  }

  // find, match, gmatch and gsub (string, function, table, max-n) of one
  // subject and pattern.
  void CheckAll(const std::string& s, const std::string& p, int init, const std::string& repl) {
    std::string S = Lit(s), P = Lit(p), I = std::to_string(init);
    Check("return string.find(" + S + ", " + P + ")");
    Check("return string.find(" + S + ", " + P + ", " + I + ")");
    Check("return string.match(" + S + ", " + P + ", " + I + ")");
    Check("return __gmatch(" + S + ", " + P + ")");
    Check("return string.gsub(" + S + ", " + P + ", " + Lit(repl) + ")");
    Check("return string.gsub(" + S + ", " + P + ", " + Lit(repl) + ", " + I + ")");
    Check("return string.gsub(" + S + ", " + P + ", function(...) return __ser(...) end)");
    Check("return string.gsub(" + S + ", " + P + ", { a = 'A', ['1'] = 1, b = false })");
  }

  int cases() const { return cases_; }
  Runtime& runtime() { return *rt_; }

 private:
  Reference ref_;
  std::unique_ptr<Runtime> rt_;
  int cases_ = 0;
};

// Random patterns from the §5.4.1 grammar, with now and then a malformed
// piece (the error messages are compared too).
class PatternGen {
 public:
  explicit PatternGen(uint32_t seed) : rng_(seed) {}

  std::string Subject() {
    static const char kChars[] = "aab b()[]%-.x1 \n\0AZ9_";
    std::string s;
    for (int n = Pick(12); n > 0; --n) s += kChars[Pick(sizeof kChars - 1)];
    return s;
  }

  std::string Pattern() {
    std::string p;
    if (Pick(5) == 0) p += '^';
    for (int n = 1 + Pick(4); n > 0; --n) p += Item(2);
    if (Pick(5) == 0) p += '$';
    if (Pick(25) == 0) p += Malformed();
    return p;
  }

  std::string Replacement() {
    static const char* const kRepl[] = {"<%0>", "%1", "%2-%1", "x", "%%", "%", "", "[%1%1]",
                                        "%a", "%9"};
    return kRepl[Pick(sizeof kRepl / sizeof *kRepl)];
  }

  int Init() { return static_cast<int>(Pick(17)) - 6; }  // -6 .. 10

 private:
  uint32_t Pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_); }

  std::string Item(int depth) {
    switch (Pick(12)) {
      case 0:
        if (depth > 0) {
          std::string inner;
          for (int n = 1 + Pick(2); n > 0; --n) inner += Item(depth - 1);
          return "(" + inner + ")";
        }
        return "()";
      case 1: return "()";
      case 2: return Pick(2) ? "%b()" : "%b[]";
      case 3: return "%f" + Set();
      case 4: return "%" + std::to_string(1 + Pick(2));  // back-reference
      default: return Single() + Quantifier();
    }
  }

  std::string Single() {
    static const char* const kSingles[] = {
        "a",  "b",  "x",  " ",  "1",  ".",  "%a", "%d", "%s", "%w", "%x", "%p", "%c",
        "%l", "%u", "%z", "%g", "%A", "%D", "%S", "%W", "%P", "%Z", "%%", "%(", "%.",
        "%-", "%]", "-",  "]",  "\n", "\\", "$",  "a",  "b",  "."};
    if (Pick(4) == 0) return Set();
    return kSingles[Pick(sizeof kSingles / sizeof *kSingles)];
  }

  std::string Set() {
    static const char* const kParts[] = {"a", "b", "a-c", "0-9", "%a", "%s", "%d", "%]",
                                         "-",  ".", "(",   "%%",  "x-",  "%W", "^",  "Z"};
    std::string s = "[";
    if (Pick(3) == 0) s += '^';
    if (Pick(10) == 0) s += ']';
    for (int n = 1 + Pick(3); n > 0; --n) s += kParts[Pick(sizeof kParts / sizeof *kParts)];
    return s + "]";
  }

  std::string Quantifier() {
    static const char* const kQ[] = {"", "", "", "*", "+", "-", "?"};
    return kQ[Pick(sizeof kQ / sizeof *kQ)];
  }

  std::string Malformed() {
    static const char* const kBad[] = {"%", "[a", "(", ")", "%b", "%bx", "%fa", "%0", "[^", "[%"};
    return kBad[Pick(sizeof kBad / sizeof *kBad)];
  }

  std::mt19937 rng_;
};

// The step hook of the pure C++ tests: stops after `limit` calls.
struct StopAfter {
  int calls = 0;
  int limit = 0;
  static bool Hook(void* self) {
    auto* s = static_cast<StopAfter*>(self);
    return ++s->calls < s->limit;
  }
};

}  // namespace

TEST_CASE("the pattern matcher works without Lua", "[lua]") {
  std::string subject = "key = value; other = 42";
  PatternMatcher m(subject, "(%w+)%s*=%s*(%w+)");
  size_t end = 0;
  REQUIRE(m.MatchAt(0, &end));
  CHECK(end == 11);
  REQUIRE(m.capture_count() == 2);
  CHECK(m.capture(0).start == 0);
  CHECK(m.capture(0).len == 3);
  CHECK(m.capture(1).start == 6);
  CHECK(m.capture(1).len == 5);
  CHECK_FALSE(m.MatchAt(3, &end));
  CHECK(m.error() == PatternError::kNone);

  PatternMatcher position(subject, "()=");
  REQUIRE(position.MatchAt(4, &end));
  CHECK(position.capture(0).len == PatternCapture::kPosition);
  CHECK(position.capture(0).start == 4);

  PatternMatcher bad(subject, "k[ey");
  CHECK_FALSE(bad.MatchAt(0, &end));
  CHECK(bad.error() == PatternError::kMissingBracket);
  CHECK(std::string(PatternErrorMessage(bad.error())) == "malformed pattern (missing ']')");

  CHECK(HasPatternSpecials("a.b"));
  CHECK(HasPatternSpecials(std::string_view("a\0%", 3)));
  CHECK_FALSE(HasPatternSpecials("plain text"));
}

TEST_CASE("the step hook can stop a runaway match", "[lua]") {
  std::string subject(26, 'a');
  std::string pattern;
  for (int i = 0; i < 26; ++i) pattern += "a?";
  pattern += subject;
  StopAfter stop;
  stop.limit = 50;
  PatternMatcher m(subject, pattern.c_str(), StopAfter::Hook, &stop);
  size_t end = 0;
  CHECK_FALSE(m.MatchAt(0, &end));
  CHECK(m.error() == PatternError::kStopped);
  CHECK(stop.calls == 50);

  // Hook calls come every kPatternStepsPerCheck steps, also when the steps
  // are bytes scanned by one repetition (a long subject, few entries).
  std::string long_subject(200000, 'x');
  StopAfter count;
  count.limit = 1 << 30;
  PatternMatcher scan(long_subject, ".*y", StopAfter::Hook, &count);
  CHECK_FALSE(scan.MatchAt(0, &end));
  CHECK(scan.error() == PatternError::kNone);
  CHECK(count.calls >= 200000 / kPatternStepsPerCheck);
}

TEST_CASE("deep pattern recursion is 'pattern too complex'", "[lua]") {
  std::string pattern;
  for (int i = 0; i < 250; ++i) pattern += "a*";
  PatternMatcher m("a", pattern.c_str());
  size_t end = 0;
  CHECK_FALSE(m.MatchAt(0, &end));
  CHECK(m.error() == PatternError::kTooComplex);

  Differential d;
  d.Check("return string.find('a', string.rep('a*', 250))");
  d.Check("return string.find('a', string.rep('a*', 199))");
  d.Check("return string.find('a', string.rep('a*', 200))");
  d.Check("return string.match(string.rep('a', 300), string.rep('a?', 300))");
  d.Check("return string.gsub('aaa', string.rep('(a*)', 33), 'x')");
  d.Check("return string.find('x', string.rep('(', 40))");
  CallResult r =
      d.runtime().Eval("local i = string.find('a', string.rep('a*', 250)) return i", "=deep");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "pattern too complex");
  CHECK(r.error->location == "deep:1");
}

TEST_CASE("pattern functions give what LuaJIT's give: edge cases", "[lua]") {
  Differential d;
  const char* const kBodies[] = {
      // find: init, plain, specials, NULs
      "return string.find('hello', 'l')",
      "return string.find('hello', 'l', 4)",
      "return string.find('hello', 'l', -1)",
      "return string.find('hello', 'l', -100)",
      "return string.find('hello', '', 10)",
      "return string.find('hello', '', 6)",
      "return string.find('hello', 'o', 0)",
      "return string.find('hello', '', 2^32 + 1)",
      "return string.find('hello', 'l', 3.9)",
      "return string.find('hello', 'l', '4')",
      "return string.find('hello', 'l', 0/0)",
      "return string.find('hello', 'l', -2^31)",
      "return string.find('hello', 'l', 2^31)",
      "return string.find('a.b', '.', 1, true)",
      "return string.find('a.b', '.', 1, 1)",
      "return string.find('a.b', '.', 1, false)",
      "return string.find('a.b', '.', nil, true)",
      "return string.find('a\\0b', '\\0b')",
      "return string.find('a\\0b.', '\\0b.')",
      "return string.find('a\\0b', '%z')",
      "return string.find('a\\0b', '[%z]b')",
      "return string.find('a\\0b', 'a\\0x')",
      "return string.find('', '')",
      "return string.find('', 'a*')",
      "return string.find('', '^$')",
      "return string.find('abc', '$')",
      "return string.find('a$c', 'a$c')",
      "return string.find('a$', '$$')",
      "return string.find('^a', '^^a')",
      "return string.find('a^', 'a^')",
      "return string.find(12345, 34)",
      "return string.find(12345, '3(4)')",
      "return ('hello'):find('l+')",
      // anchors
      "return string.find('aaa', '^a')",
      "return string.find('baaa', '^a')",
      "return string.find('baaa', '^a', 2)",
      "return string.match('hello world', '^(%w+)')",
      "return string.match('hello world', '(%w+)$')",
      "return string.gsub('hello world', '^h', 'H')",
      "return string.gsub('hhh', '^h', 'H')",
      "return string.gsub('hello', '$', '!')",
      "return string.gsub('hello', '^', '>')",
      // captures and position captures
      "return string.match('key=val', '(%w+)=(%w+)')",
      "return string.match('key=val', '()=()')",
      "return string.find('key=val', '()(=)()')",
      "return string.match('abc', '((a)(b))')",
      "return string.match('abc', '()')",
      "return string.match('abc', '(a', 1)",
      "return string.find('abc', '(a')",
      "return string.gsub('abc', '(a', 'x')",
      "return string.gsub('abc', '(a', '%1')",
      "return string.gsub('abc', '(a', {})",
      "return string.match('abc', 'a)')",
      "return string.match('abc', '%1')",
      "return string.match('abc', '(a)%2')",
      "return string.match('abab', '(ab)%1')",
      "return string.match('aa', '()a%1')",
      "return string.match('xx', '(x)%0')",
      "return string.match(string.rep('a', 40), string.rep('(a)', 32))",
      "return string.match(string.rep('a', 40), string.rep('(a)', 33))",
      // %b and %f
      "return string.match('f(a(b)c) d', '%b()')",
      "return string.match('f(a(b c', '%b()')",
      "return string.match('say \"hi\" and \"bye\"', '%b\"\"')",
      "return string.match('x', '%b')",
      "return string.match('x', '%bx')",
      "return string.match('', '%b()')",
      "return string.gsub('THE (quick) fox', '%f[%a]%a+', 'W')",
      "return string.gsub('hello world', '%f[%w]%w+%f[%W]', '<%0>')",
      "return string.find('abc', '%f[%z]')",
      "return string.find('abc', '%f[%Z]')",
      "return string.find('abc', '%fa')",
      "return string.find('abc', '%f')",
      "return string.find('abc', '%f[a')",
      // classes, sets
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%a', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%g', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%G', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%p', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%c', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%s', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%x', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '%W', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '[%w_]', '.')",
      "return string.gsub('aZ09 _.\\t\\1\\127\\200', '[^%w_]', '.')",
      "return string.gsub('a]b-c^d', '[]]', '.')",
      "return string.gsub('a]b-c^d', '[^]]', '.')",
      "return string.gsub('a]b-c^d', '[a-]', '.')",
      "return string.gsub('a]b-c^d', '[-a]', '.')",
      "return string.gsub('a]b-c^d', '[%]-]', '.')",
      "return string.gsub('a]b-c^d', '[b-a]', '.')",
      "return string.gsub('a]b-c^d', '[a^]', '.')",
      "return string.gsub('a]b-c^d', '[]', '.')",
      "return string.gsub('a]b-c^d', '[', '.')",
      "return string.gsub('a]b-c^d', '[%', '.')",
      "return string.gsub('a]b-c^d', '[^', '.')",
      "return string.gsub('a%b', '%', '.')",
      "return string.gsub('a%b', '%%', '.')",
      "return string.gsub('\\200\\255', '[\\128-\\255]', '.')",
      "return string.gsub('a.b', '%.', '%%')",
      // quantifiers
      "return string.match('aaab', 'a-b')",
      "return string.match('aaab', 'a*')",
      "return string.match('aaab', 'a+')",
      "return string.match('aaab', 'a?a?a?a?b')",
      "return string.match('<a><b>', '<.->')",
      "return string.match('<a><b>', '<.*>')",
      "return string.match('ab', 'a**')",
      "return string.match('a+b', 'a+%+b')",
      "return string.match('a', '*a')",
      "return string.match('*a', '*a')",
      "return string.match('-a', '-a')",
      "return string.match('?', '?')",
      // gsub: replacement kinds and max-n
      "return string.gsub('hello world', 'o', '0')",
      "return string.gsub('hello world', 'o', '0', 1)",
      "return string.gsub('hello world', 'o', '0', 0)",
      "return string.gsub('hello world', 'o', '0', -1)",
      "return string.gsub('hello world', 'o', '0', 1.7)",
      "return string.gsub('hello world', 'o', '0', '1')",
      "return string.gsub('hello world', 'o', '0', 2^32 + 1)",
      "return string.gsub('hello world', '(o)', '[%1%0%%]')",
      "return string.gsub('hello world', 'o', '%1')",
      "return string.gsub('hello world', 'o', '%2')",
      "return string.gsub('hello world', 'o', '%')",
      "return string.gsub('hello world', 'o', 'x%')",
      "return string.gsub('hello world', 'o', '%x')",
      "return string.gsub('hello world', 'o', 42)",
      "return string.gsub('hello world', '()o', '%1')",
      "return string.gsub('hello', '', '-')",
      "return string.gsub('hello', 'l*', '-')",
      "return string.gsub('abc', '%w*', '-')",
      "return string.gsub('abc', '%w*', '-', 1)",
      "return string.gsub('a,b,,c', ',*', '|')",
      "return string.gsub('hello world', '%w+', string.upper)",
      "return string.gsub('hello world', '(%w+) (%w+)', function(a, b) return b .. ' ' .. a end)",
      "return string.gsub('hello world', '%w+', function() return nil end)",
      "return string.gsub('hello world', '%w+', function() return false end)",
      "return string.gsub('hello world', '%w+', function() return 7 end)",
      "return string.gsub('hello world', '%w+', function() return true end)",
      "return string.gsub('hello world', '%w+', function() return {} end)",
      "return string.gsub('hello world', '%w+', function() error('boom') end)",
      "return string.gsub('hello world', '%w+', function() error({}) end)",
      "return string.gsub('hello world', '()l', function(p) return p end)",
      "return string.gsub('$x and $y', '%$(%w+)', { x = 'X', y = 2 })",
      "return string.gsub('$x and $y', '%$(%w+)', { x = true })",
      "return string.gsub('$x and $y', '%$%w+', { ['$x'] = 'X' })",
      "return string.gsub('$x', '%$(%w+)', setmetatable({}, { __index = function(t, k) "
      "return k:upper() end }))",
      "return string.gsub('abc', 'b', true)",
      "return string.gsub('abc', 'b')",
      "return string.gsub('abc', 'b', nil)",
      "return string.gsub('abc', 'b', 'x', 'y')",
      "return string.gsub('abc', 'b', true, 'y')",
      "return string.gsub('abc')",
      "return string.gsub()",
      "return string.gsub({}, 'b', 'x')",
      "return string.gsub('a\\0b\\0', '%z', 'Z')",
      "return string.gsub('a\\0b', 'a\\0b', 'Z')",
      "return ('abc'):gsub('b', 'x')",
      // gmatch
      "return __gmatch('hello world from lua', '%a+')",
      "return __gmatch('k1=v1, k2=v2', '(%w+)=(%w+)')",
      "return __gmatch('abc', '')",
      "return __gmatch('abc', '%w*')",
      "return __gmatch('abc', 'b*')",
      "return __gmatch('abc', '()')",
      "return __gmatch('a^b', '^b')",
      "return __gmatch('ab', '^a')",
      "return __gmatch('', '')",
      "return __gmatch('', 'x')",
      "return __gmatch('abc', '(a')",
      "return __gmatch('abc', '%')",
      "return __gmatch(123, 2)",
      "return string.gmatch('abc')",
      "return string.gmatch()",
      "local it = string.gmatch('ab', '.') return it(), it(), it(), it()",
      "local n = 0 for a in ('a,b,c'):gmatch('[^,]+') do n = n + #a end return n",
      // argument errors and names
      "return string.find()",
      "return string.find('a')",
      "return string.find(nil, 'a')",
      "return string.find('a', {})",
      "return string.find('a', 'a', {})",
      "return string.find('a', 'a', 'x')",
      "return string.match('a')",
      "return ('a'):find()",
      "return ('a'):find('a', {})",
      "return ('a'):match({})",
      "return ('a'):gsub({}, 'x')",
      "local f = string.find return f('a', 'a%')",
      "return pcall(string.find, 'a', '%')",
      "return pcall(string.find, 'a', 'a', {})",
      "return pcall(string.gsub, 'a', 'a', true)",
      "return select('#', string.find('a', 'b'))",
      "return select('#', string.match('a', 'b'))",
      "return select('#', string.find('a', 'a'))",
      "return string.find('a', 'a', 'x')",
      "return string.find('a', 'a', true)",
      "return string.find('a', 'a', '0x1')",
      "local t = { find = string.find } return t:find('a')",
      "local f = string.gsub local r = f() return r",
      "local f = string.gmatch local r = f('a', nil) return r",
      // the replacement function cannot yield (a C call in between)
      "local co = coroutine.wrap(function() return string.gsub('ab', '.', coroutine.yield) end) "
      "return co()",
      // a replacement function using the pattern functions itself
      "return string.gsub('a-b c-d', '%S+', function(w) return (w:gsub('(%w)-(%w)', '%2-%1')) "
      "end)",
  };
  for (const char* body : kBodies) d.Check(body);
  CHECK(d.cases() == 2 * static_cast<int>(sizeof kBodies / sizeof *kBodies));
}

TEST_CASE("pattern functions give what LuaJIT's give: generated cases", "[lua]") {
  Differential d;
  PatternGen gen(20240601);
  for (int i = 0; i < 1000; ++i) {
    std::string p = gen.Pattern();
    std::string s = gen.Subject();
    d.CheckAll(s, p, gen.Init(), gen.Replacement());
  }
  CHECK(d.cases() == 1000 * 8 * 2);
}

TEST_CASE("s:find uses the host's functions (the string metatable's __index)", "[lua]") {
  auto rt = NewRuntime(std::chrono::milliseconds(2000));
  CallResult r = rt->Eval(
      "return getmetatable('').__index == string and ('').find == string.find and "
      "('').gsub == string.gsub and ('').match == string.match and "
      "('').gmatch == string.gmatch",
      "=t");
  REQUIRE(r.ok());
  CHECK(r.value().as_bool());
}

TEST_CASE("moonstack.utf8_len counts what the SDK's gsub count counts", "[lua]") {
  auto rt = NewRuntime(std::chrono::milliseconds(2000));
  // ASCII, two- three- and four-byte characters, a lone continuation byte
  // and a truncated sequence (counted as gsub counts them: by lead bytes).
  const std::string kStrings[] = {"", "abc", "h\xc3\xa9llo", "\xe2\x82\xac\xf0\x9f\x98\x80x", "\x80\xbf",
                                  "\xc3", std::string("a\0b", 3), std::string(300, 'x')};
  for (const std::string& s : kStrings) {
    INFO("string " << Lit(s));
    CHECK(EvalIn(*rt, "local s = " + Lit(s) + " local _, n = s:gsub('[^\\128-\\191]', '') "
                      "return tostring(moonstack.utf8_len(s) == n) .. ' ' .. n") ==
          "true " + std::to_string([&] {
            int n = 0;
            for (unsigned char c : s) n += (c & 0xC0) != 0x80;
            return n;
          }()));
  }
  CHECK(EvalIn(*rt, "return select(2, pcall(moonstack.utf8_len, {}))").find("bad argument #1") != std::string::npos);
}

TEST_CASE("a runaway pattern fails its call at the deadline", "[lua]") {
  auto rt = NewRuntime(std::chrono::milliseconds(100));
  const char* const kRunaway[] = {
      "return string.find(S, P)",
      "return S:find(P)",
      "return string.match(S, P)",
      "for x in S:gmatch(P) do end",
      "return string.gsub(S, P, 'x')",
      "return string.gsub(S, P, function() return 'x' end)",
      // pcall cannot swallow the abort
      "local ok, e = pcall(string.find, S, P) return ok, e",
      "for i = 1, 3 do pcall(string.match, S, P) end return 'swallowed'",
      // a long scan rather than deep backtracking: many bytes per entry
      "local s = string.rep('x', 4000) return s:find(string.rep('.-', 6) .. 'y')",
  };
  for (const char* body : kRunaway) {
    std::string code =
        "local S, P = string.rep('a', 26), string.rep('a?', 26) .. string.rep('a', 26) ";
    code += body;
    auto start = Clock::now();
    CallResult r = rt->Eval(code, "=runaway");
    auto took = Clock::now() - start;
    INFO(body);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->kind == LuaErrorKind::kDeadline);
    CHECK(r.error->message == "provider call exceeded its deadline of 100 ms");
    CHECK(took < std::chrono::seconds(1));  // unchecked, these run for seconds to hours
    // The same Runtime serves the next call normally.
    CallResult ok = rt->Eval("return (string.gsub('a-b', '%-', '+'))", "=normal");
    REQUIRE(ok.ok());
    CHECK(ok.value().str() == "a+b");
  }
}
