// host/lua errors: a Lua error becomes an AWS-facing message plus a
// diagnostic (file:line, traceback).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include <sys/stat.h>

#include "lua/runtime.h"

using ms::Value;
using namespace ms::lua;

namespace {

struct Fixture {
  std::string dir;
  std::unique_ptr<Runtime> rt;
  Ref provider;

  Fixture() {
    char tmpl[] = "/tmp/moonstack_lua_err_XXXXXX";
    char* d = mkdtemp(tmpl);
    REQUIRE(d != nullptr);
    dir = d;
    std::ofstream(dir + "/prov.lua") << R"(local M = {}
function M.plain() error("plain failure") end
function M.aws() error({ message = "Subnet subnet-1 not found", code = "NotFound" }) end
function M.level0() error("no position", 0) end
local function check(x) if not x then error("caller's fault", 2) end end
function M.level2()
  check(false)
end
function M.runtime() local t = nil return t.field end
function M.nilerr() error(nil) end
function M.number() error(42) end
function M.table_no_message() error({ code = "X" }) end
function M.nested() local function inner() error({ message = "deep" }) end inner() end
function M.bad_result() return { ok = true, fn = function() end } end
function M.sdk_style()
  local E = setmetatable({ message = "Resource handler returned message: \"denied\"",
    code = "AccessDenied" }, { __tostring = function(e) return e.message end })
  error(E, 0)
end
return M
)";
    RuntimeOptions o;
    o.module_roots = {dir};
    ms::Status status;
    rt = Runtime::Create(o, &status);
    REQUIRE(status.ok());
    CallResult r = rt->Require("prov");
    REQUIRE(r.ok());
    provider = std::move(r.refs[0]);
  }
  ~Fixture() {
    provider.Reset();
    rt.reset();
    std::system(("rm -rf '" + dir + "'").c_str());
  }

  LuaError Fail(const char* hook) {
    CallResult r = rt->CallField(provider, hook, {});
    INFO(hook);
    REQUIRE_FALSE(r.ok());
    return *r.error;
  }
  std::string File() const { return dir + "/prov.lua"; }
};

}  // namespace

TEST_CASE("a string error keeps its message apart from its position", "[lua]") {
  Fixture f;
  LuaError e = f.Fail("plain");
  CHECK(e.kind == LuaErrorKind::kError);
  CHECK(e.message == "plain failure");
  CHECK(e.code.empty());
  CHECK(e.location == f.File() + ":2");
  CHECK(e.traceback.find("stack traceback:") == 0);
  CHECK(e.traceback.find(f.File() + ":2: in function") != std::string::npos);
  // The Status carries the diagnostic.
  ms::Status s = e.ToStatus();
  CHECK(s.code() == ms::Status::Code::kValidation);
  CHECK(s.message().find(f.File() + ":2: plain failure\nstack traceback:") == 0);
}

TEST_CASE("a table error keeps message and code", "[lua]") {
  Fixture f;
  LuaError e = f.Fail("aws");
  CHECK(e.message == "Subnet subnet-1 not found");
  CHECK(e.code == "NotFound");
  CHECK(e.location == f.File() + ":3");
  CHECK(e.Diagnostic().find(f.File() + ":3: Subnet subnet-1 not found (NotFound)") == 0);
  // The SDK's error objects (metatable with __tostring) read the same, raw.
  e = f.Fail("sdk_style");
  CHECK(e.message == "Resource handler returned message: \"denied\"");
  CHECK(e.code == "AccessDenied");
  CHECK(e.location == f.File() + ":18");
  e = f.Fail("nested");
  CHECK(e.message == "deep");
  CHECK(e.location == f.File() + ":13");
  CHECK(e.traceback.find("in function 'inner'") != std::string::npos);
}

TEST_CASE("error levels and runtime errors point at the right line", "[lua]") {
  Fixture f;
  LuaError e = f.Fail("level0");
  CHECK(e.message == "no position");
  CHECK(e.location == f.File() + ":4");
  e = f.Fail("level2");
  CHECK(e.message == "caller's fault");
  CHECK(e.location == f.File() + ":7");  // the caller of check()
  e = f.Fail("runtime");
  CHECK(e.message == "attempt to index local 't' (a nil value)");
  CHECK(e.location == f.File() + ":9");
}

TEST_CASE("other error objects get a readable message", "[lua]") {
  Fixture f;
  CHECK(f.Fail("nilerr").message == "(error object is a nil value)");
  CHECK(f.Fail("number").message == "42");
  LuaError e = f.Fail("table_no_message");
  CHECK(e.message == "(error object is a table value)");
  CHECK(e.code == "X");
}

TEST_CASE("values that cannot cross are marshal errors", "[lua]") {
  Fixture f;
  LuaError e = f.Fail("bad_result");
  CHECK(e.kind == LuaErrorKind::kMarshal);
  CHECK(e.message == "result 1.fn: cannot convert a function value");
  CallResult r = f.rt->CallField(f.provider, "missing", {});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->message == "attempt to call a nil value");
}

TEST_CASE("syntax errors in evaluated chunks", "[lua]") {
  Fixture f;
  CallResult r = f.rt->Eval("return {", "=snippet");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error->kind == LuaErrorKind::kError);
  CHECK(r.error->message.find("snippet:1:") == 0);
  CHECK(r.error->message.find("expected") != std::string::npos);
  // And the runtime goes on.
  CHECK(f.rt->Eval("return 1").ok());
}
