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
  tree.Write("root/flaky.lua", "if not _G.ready then error('not ready') end return 'ok'\n");
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
  Run(*rt, "_G.ready = true");
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
