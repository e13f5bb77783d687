// host/lua sandbox: what provider code can and cannot reach, and require's
// module roots.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "lua/runtime.h"

using ms::Value;
using namespace ms::lua;

namespace {

std::unique_ptr<Runtime> NewRuntime(std::vector<std::string> roots = {},
                                    std::function<void(std::string_view)> print = {}) {
  RuntimeOptions o;
  o.limits.deadline = std::chrono::milliseconds(1000);
  o.limits.memory_bytes = size_t{16} << 20;
  o.module_roots = std::move(roots);
  o.print = std::move(print);
  ms::Status status;
  auto rt = Runtime::Create(o, &status);
  REQUIRE(status.ok());
  REQUIRE(rt != nullptr);
  return rt;
}

// Runs `code` and returns its first result (failing the test on error).
Value Run(Runtime& rt, const std::string& code) {
  CallResult r = rt.Eval(code, "=test");
  INFO(code);
  INFO((r.ok() ? std::string() : r.error->Diagnostic()));
  REQUIRE(r.ok());
  return r.value();
}

// A fresh directory tree for module roots: DIR/root (the root) and DIR
// (outside it).
struct TempTree {
  std::string dir;
  TempTree() {
    char tmpl[] = "/tmp/moonstack_lua_XXXXXX";
    char* d = mkdtemp(tmpl);
    REQUIRE(d != nullptr);
    dir = d;
    mkdir((dir + "/root").c_str(), 0755);
  }
  ~TempTree() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string root() const { return dir + "/root"; }
  void Write(const std::string& rel, const std::string& text) const {
    std::string path = dir + "/" + rel;
    std::string parent = path.substr(0, path.rfind('/'));
    std::system(("mkdir -p '" + parent + "'").c_str());
    std::ofstream(path, std::ios::binary) << text;
  }
};

}  // namespace

TEST_CASE("the sandbox removes unsafe globals and library functions", "[lua]") {
  auto rt = NewRuntime();
  for (const char* name :
       {"io", "debug", "ffi", "jit", "dofile", "loadfile", "getfenv", "setfenv", "newproxy",
        "module", "gcinfo", "string.dump", "os.execute", "os.exit", "os.remove", "os.rename",
        "os.tmpname", "os.getenv", "os.setlocale", "package.loadlib", "package.loaders",
        "package.searchers", "package.seeall"}) {
    INFO(name);
    CHECK(Run(*rt, std::string("return ") + name + " == nil").as_bool());
  }
  CHECK(Run(*rt, "return package.cpath").str().empty());
  // What stays works.
  CHECK(Run(*rt, "return os.time() > 0 and os.clock() >= 0 and type(os.date('%Y')) == 'string'")
            .as_bool());
  CHECK(Run(*rt, "return bit.band(6, 3)").str() == "2");
  CHECK(Run(*rt, "return math.floor(2.5) + #('abc'):upper()").str() == "5");
}

TEST_CASE("the sandbox refuses C modules and the JIT's own libraries", "[lua]") {
  TempTree tree;
  tree.Write("root/cmod.so", "not really a shared object");
  auto rt = NewRuntime({tree.root()});
  for (const char* mod : {"ffi", "jit", "jit.opt", "io", "debug", "cmod", "table.new"}) {
    INFO(mod);
    CallResult r = rt->Eval(std::string("return require('") + mod + "')", "=test");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message.find("module '" + std::string(mod) + "' not found") != std::string::npos);
  }
}

TEST_CASE("load and loadstring take text chunks only", "[lua]") {
  auto rt = NewRuntime();
  CHECK(Run(*rt, "return load('return 1 + 2')()").str() == "3");
  CHECK(Run(*rt, "return loadstring('return 4')()").str() == "4");
  // Binary chunks (LuaJIT bytecode starts with ESC 'L' 'J') are refused:
  // "attempt to load chunk with wrong mode".
  Value msg = Run(*rt, "local f, err = load('\\27LJ\\2\\0\\0\\0') return f == nil and err");
  CHECK(msg.str().find("wrong mode") != std::string::npos);
  msg = Run(*rt, "local f, err = loadstring('\\27LJ\\2\\0') return f == nil and err");
  CHECK(msg.str().find("wrong mode") != std::string::npos);
  // A reader function whose pieces spell bytecode is refused the same way.
  msg = Run(*rt, R"(
    local parts = { '\27', 'LJ', '\2' }
    local i = 0
    local f, err = load(function() i = i + 1 return parts[i] end)
    return f == nil and err)");
  CHECK(msg.str().find("wrong mode") != std::string::npos);
  msg = Run(*rt, "local f, err = load('return 1', 'x', 'b') return f == nil and err");
  CHECK(msg.str().find("mode is 'b'") != std::string::npos);
  // A reader function and an environment work.
  CHECK(Run(*rt, R"(
    local parts = { 'return ', 'x * 2' }
    local i = 0
    return load(function() i = i + 1 return parts[i] end, '=r', 't', { x = 21 })())")
            .str() == "42");
  // Syntax errors come back as nil + message.
  CHECK(Run(*rt, "local f, err = load('return +', '=chunk') return err").str().find("chunk:1") == 0);
}

TEST_CASE("collectgarbage cannot stop the collector", "[lua]") {
  auto rt = NewRuntime();
  CHECK(Run(*rt, "return collectgarbage('count') > 0").as_bool());
  CHECK(Run(*rt, "collectgarbage() collectgarbage('step') return true").as_bool());
  for (const char* opt : {"stop", "restart", "setpause", "setstepmul"}) {
    CallResult r = rt->Eval(std::string("collectgarbage('") + opt + "')", "=test");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message.find("not available") != std::string::npos);
  }
}

TEST_CASE("print goes to the host's callback", "[lua]") {
  std::vector<std::string> lines;
  auto rt = NewRuntime({}, [&](std::string_view s) { lines.emplace_back(s); });
  Run(*rt, "print('a', 1, nil, true, moonstack.null) print()");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "a\t1\tnil\ttrue\tnull");
  CHECK(lines[1].empty());
  // Without a callback print is silent.
  auto quiet = NewRuntime();
  CHECK(Run(*quiet, "print('dropped') return true").as_bool());
}

TEST_CASE("require loads Lua modules from the configured roots only", "[lua]") {
  TempTree tree;
  tree.Write("root/good.lua", "return { answer = 42 }\n");
  tree.Write("root/pkg/init.lua", "return { name = 'pkg' }\n");
  tree.Write("root/pkg/sub.lua", "return { parent = require('pkg').name }\n");
  tree.Write("root/dash-ed.lua", "return 'dash'\n");
  tree.Write("secret.lua", "return 'secret'\n");
  tree.Write("other/extra.lua", "return 'extra'\n");
  REQUIRE(symlink((tree.dir + "/secret.lua").c_str(), (tree.root() + "/link.lua").c_str()) == 0);
  REQUIRE(symlink(tree.dir.c_str(), (tree.root() + "/up").c_str()) == 0);
  auto rt = NewRuntime({tree.root(), tree.dir + "/other", tree.dir + "/missing"});

  CHECK(Run(*rt, "return require('good').answer").str() == "42");
  CHECK(Run(*rt, "return require('good') == require('good')").as_bool());
  CHECK(Run(*rt, "return package.loaded.good.answer").str() == "42");
  CHECK(Run(*rt, "return require('pkg.sub').parent").str() == "pkg");
  CHECK(Run(*rt, "return require('dash-ed')").str() == "dash");
  CHECK(Run(*rt, "return require('extra')").str() == "extra");  // second root
  CHECK(Run(*rt, "return package.path").str().find(tree.root() + "/?.lua") == 0);

  // Module names cannot climb out of a root, and links out are not followed.
  for (const char* name : {"../secret", "..secret", ".secret", "secret", "root/../secret",
                           "up.secret", "link", "/etc/passwd", "a..b", "good.", ""}) {
    INFO(name);
    CallResult r = rt->Eval(std::string("return require('") + name + "')", "=test");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message.find("not found") != std::string::npos);
  }
  CallResult r = rt->Eval("return require('link')", "=test");
  CHECK(r.error->message.find("leads outside its module root") != std::string::npos);

  // The result of the host-facing Require is the module value itself.
  CallResult mod = rt->Require("good");
  REQUIRE(mod.ok());
  REQUIRE(mod.refs.size() == 1);
  CallResult answer = rt->Get(mod.refs[0], "answer");
  REQUIRE(answer.ok());
  CHECK(answer.value().str() == "42");
}

TEST_CASE("require detects loops and retries a module that failed to load", "[lua]") {
  TempTree tree;
  tree.Write("root/a.lua", "return require('b')\n");
  tree.Write("root/b.lua", "return require('a')\n");
  // Modules have globals of their own: what the host's code tells them goes
  // through a shared table only the host can write.
  tree.Write("root/flaky.lua", "if not package.loaded.ready then error('not ready') end return 'ok'\n");
  tree.Write("root/bytecode.lua", "\x1bLJ\x02\x00\x00");
  tree.Write("root/broken.lua", "return {\n");
  auto rt = NewRuntime({tree.root()});
  CallResult r = rt->Eval("return require('a')", "=test");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message.find("loop or previous error loading module 'a'") != std::string::npos);

  r = rt->Require("flaky");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "not ready");
  CHECK(r.error->location == tree.root() + "/flaky.lua:1");
  Run(*rt, "package.loaded.ready = true");
  r = rt->Require("flaky");  // a later call loads it again
  REQUIRE(r.ok());

  r = rt->Require("bytecode");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message.find("wrong mode") != std::string::npos);
  r = rt->Require("broken");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message.find("error loading module 'broken'") != std::string::npos);
  CHECK(r.error->message.find("broken.lua:2") != std::string::npos);

  // package.preload works, and replacing the global require changes nothing
  // for the host.
  CHECK(Run(*rt, "package.preload.virtual = function() return 7 end return require('virtual')")
            .str() == "7");
  Run(*rt, "require = nil");
  CHECK(rt->Require("good").error->message.find("module 'good' not found") != std::string::npos);
}

TEST_CASE("a module compiled by one runtime loads in the next as compiled and an edited one is compiled again", "[lua]") {
  TempTree tree;
  tree.Write("root/shared_chunk.lua",
             "local M = {}\n"
             "function M.answer() return 41 + 1 end\n"
             "function M.fail() error('boom') end\n"
             "return M\n");
  for (int i = 0; i < 2; ++i) {  // the second runtime loads what the first compiled (host/lua/chunk_cache.h)
    auto rt = NewRuntime({tree.root()});
    CHECK(Run(*rt, "return require('shared_chunk').answer()").str() == "42");
    CallResult r = rt->Eval("require('shared_chunk').fail()", "=test");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message == "boom");
    CHECK(r.error->location == tree.root() + "/shared_chunk.lua:3");  // the cached chunk keeps its lines
  }
  tree.Write("root/shared_chunk.lua", "return { answer = function() return 7 end }\n");
  auto rt = NewRuntime({tree.root()});
  CHECK(Run(*rt, "return require('shared_chunk').answer()").str() == "7");
  // A file holding bytecode is still refused, however often it is loaded.
  tree.Write("root/shared_bytecode.lua", "\x1bLJ\x02\x00\x00");
  for (int i = 0; i < 2; ++i) {
    CallResult r = NewRuntime({tree.root()})->Require("shared_bytecode");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error->message.find("wrong mode") != std::string::npos);
  }
}

TEST_CASE("the guarded library functions still behave as before", "[lua]") {
  auto rt = NewRuntime();
  CHECK(Run(*rt, "return (('hello world'):gsub('o', function(c) return c:upper() end))").str() ==
        "hellO wOrld");
  CHECK(Run(*rt, "return string.format('%s-%d', 'a', 3)").str() == "a-3");
  CHECK(Run(*rt, "local t = {3, 1, 2} table.sort(t, function(a, b) return a > b end) "
                 "return table.concat(t, ',')")
            .str() == "3,2,1");
  CHECK(Run(*rt, R"(
    local gen = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
    local co = coroutine.create(function(x) coroutine.yield(x) return 'done' end)
    local _, y = coroutine.resume(co, 5)
    local _, z = coroutine.resume(co)
    return gen(1) + gen(10) + y .. z)")
            .str() == "27done");
  // Errors inside a wrapped coroutine propagate; argument errors keep names.
  CallResult r = rt->Eval("coroutine.wrap(function() error({ message = 'inner' }) end)()", "=t");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "inner");
  r = rt->Eval("string.gsub(nil, 'a', 'b')", "=t");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "bad argument #1 to 'gsub' (string expected, got nil)");
  CHECK(r.error->location == "t:1");
}

// --- isolation: read-only views and each chunk's own globals ------------------------
// (provider-level cases, through the provider host: lua_isolation_test.cc)

namespace {

// The error `code` fails with (message only).
std::string FailureOf(Runtime& rt, const std::string& code) {
  CallResult r = rt.Eval(code, "=test");
  INFO(code);
  REQUIRE_FALSE(r.ok());
  return r.error->message;
}

}  // namespace

TEST_CASE("a read-only view reads like its table and refuses every write", "[lua]") {
  auto rt = NewRuntime();
  Run(*rt, "V = moonstack.freeze({ 'a', 'b', n = 1, nested = { x = 1 }, list = { 3, 4 } }, 'data')");
  // Reads, through the view-aware functions.
  CHECK(Run(*rt, "return V.n + V.nested.x").str() == "2");
  CHECK(Run(*rt, "local n = 0 for k, v in pairs(V) do n = n + 1 end return n").str() == "5");
  CHECK(Run(*rt, "local s = '' for i, v in ipairs(V) do s = s .. i .. v end return s").str() == "1a2b");
  CHECK(Run(*rt, "return next(V) ~= nil and rawget(V, 'n') == 1 and rawget(V, 1) == 'a'").as_bool());
  CHECK(Run(*rt, "return table.concat({ unpack(V) }, ',') .. table.concat(V, '+')").str() == "a,ba+b");
  CHECK(Run(*rt, "return table.maxn(V) + table.getn(V)").str() == "4");
  CHECK(Run(*rt, "local s = '' table.foreachi(V, function(i, v) s = s .. v end) return s").str() == "ab");
  CHECK(Run(*rt, "return table.concat(table.move(V.list, 1, 2, 1, {}), ',')").str() == "3,4");
  // `#` cannot see through (LuaJIT ignores __len on tables).
  CHECK(Run(*rt, "return #V").str() == "0");
  // Nested tables come back as views, the same one each time.
  CHECK(Run(*rt, "return V.nested == V.nested and rawget(V, 'nested') == V.nested").as_bool());
  CHECK(Run(*rt, "for k, v in pairs(V) do if k == 'nested' then return v == V.nested end end").as_bool());
  // Marshalling sees the table.
  CHECK(Run(*rt, "return V.nested").ToJson() == R"({"x":1})");
  CHECK(Run(*rt, "return { V.list }").ToJson() == R"([[3,4]])");
  CHECK(Run(*rt, "return moonstack.kind(V.list)").str() == "array");

  // Writes, every way there is.
  CHECK(FailureOf(*rt, "V.n = 2") == "attempt to modify read-only table data (field 'n')");
  CHECK(FailureOf(*rt, "V.new = 2") == "attempt to modify read-only table data (field 'new')");
  CHECK(FailureOf(*rt, "V.nested.x = 2") == "attempt to modify read-only table data.nested (field 'x')");
  CHECK(FailureOf(*rt, "rawset(V, 'n', 2)") == "attempt to modify read-only table data (field 'n')");
  CHECK(FailureOf(*rt, "table.insert(V.list, 5)") == "attempt to modify read-only table data.list");
  CHECK(FailureOf(*rt, "table.remove(V)") == "attempt to modify read-only table data");
  CHECK(FailureOf(*rt, "table.sort(V)") == "attempt to modify read-only table data");
  CHECK(FailureOf(*rt, "table.move({ 1 }, 1, 1, 1, V)") == "attempt to modify read-only table data");
  CHECK(FailureOf(*rt, "moonstack.array(V.list)") == "attempt to modify read-only table data.list");
  CHECK(FailureOf(*rt, "setmetatable(V, {})") == "cannot change a protected metatable");
  CHECK(Run(*rt, "return getmetatable(V) == false and V.n == 1 and V.nested.x == 1").as_bool());
  // The errors name the line that wrote.
  CallResult r = rt->Eval("local x = 1\nV.n = 2", "=writer");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->location == "writer:2");
  // Ordinary tables are untouched by the view-aware functions.
  CHECK(Run(*rt, "local t = {} rawset(t, 'a', 1) table.insert(t, 2) table.sort({ 2, 1 }) "
                 "return rawget(t, 'a') + t[1] + select('#', unpack({ 1, 2 }))")
            .str() == "5");
  CHECK(FailureOf(*rt, "pairs(nil)") == "bad argument #1 to 'pairs' (table expected, got nil)");
  CHECK(FailureOf(*rt, "table.insert(nil, 1)") == "bad argument #1 to 'insert' (table expected, got nil)");
}

TEST_CASE("the libraries and the string metatable are read-only, also to the host's code", "[lua]") {
  auto rt = NewRuntime();
  for (const char* lib : {"string", "table", "math", "os", "bit", "coroutine", "moonstack"}) {
    INFO(lib);
    CHECK(FailureOf(*rt, std::string(lib) + ".x = 1") ==
          std::string("attempt to modify read-only table ") + lib + " (field 'x')");
    CHECK(Run(*rt, std::string("return require('") + lib + "') == " + lib).as_bool());
  }
  CHECK(FailureOf(*rt, "getmetatable('').__index.upper = nil") ==
        "attempt to modify read-only table string (field 'upper')");
  CHECK(FailureOf(*rt, "getmetatable('').__index = {}") ==
        "attempt to modify read-only table string metatable (field '__index')");
  CHECK(FailureOf(*rt, "rawset(getmetatable(''), '__index', {})") ==
        "attempt to modify read-only table string metatable (field '__index')");
  CHECK(FailureOf(*rt, "setmetatable(getmetatable(''), {})") == "cannot change a protected metatable");
  CHECK(Run(*rt, "return getmetatable('').__index == string and ('abc'):upper()").str() == "ABC");
  // The globals themselves are the host's (Eval) to change.
  CHECK(Run(*rt, "string = nil return ('x'):rep(2)").str() == "xx");
}

TEST_CASE("modules and load()ed chunks have their own globals, require hands out views", "[lua]") {
  TempTree tree;
  tree.Write("root/setter.lua", "Mine = 'setter' string = nil _G.Also = 1 return { answer = 42, list = { 1 } }\n");
  tree.Write("root/reader.lua", "return { seen = tostring(Mine) .. '/' .. tostring(Also) .. '/' .. type(string) }\n");
  auto rt = NewRuntime({tree.root()});
  CHECK(Run(*rt, "return require('setter').answer").str() == "42");
  CHECK(Run(*rt, "return require('reader').seen").str() == "nil/nil/table");
  CHECK(Run(*rt, "return tostring(Mine) .. tostring(Also)").str() == "nilnil");
  CHECK(FailureOf(*rt, "require('setter').answer = 1") ==
        "attempt to modify read-only table setter (field 'answer')");
  CHECK(FailureOf(*rt, "table.insert(require('setter').list, 2)") == "attempt to modify read-only table setter.list");
  // A chunk of its own sees package.loaded read-only, with the same views.
  CHECK(Run(*rt, "return load(\"return package.loaded.setter == require('setter')\")()").as_bool());
  CHECK(FailureOf(*rt, "load(\"package.loaded.setter = 1\")()") ==
        "attempt to modify read-only table package.loaded (field 'setter')");
  CHECK(FailureOf(*rt, "require('_G')").find("module '_G' not found") == 0);

  // load() without an env: the chunk's globals are its own.
  CHECK(Run(*rt, "load('Loaded = 1 string = nil')() return tostring(Loaded) .. type(string)").str() == "niltable");
  CHECK(Run(*rt, "return load('Here = 2 return Here')()").str() == "2");
  CHECK(Run(*rt, "local env = { } load('x = 3', 'c', 't', env)() return env.x").str() == "3");
}
