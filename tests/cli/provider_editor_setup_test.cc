// `moonstack provider new` writes the editor's setup beside the provider:
// LuaLS stubs of every module the host gives providers to `require`, and a
// .luarc.json pointing lua-language-server at them (host/cli/editor_setup.h).
// The module list is the one the sandbox serves (lua::ProviderModules): a
// module added to it without a stub fails the first test.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "lua/provider_modules.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

const std::string kSource = MOONSTACK_SOURCE_DIR;

ms::test::CommandResult Moonstack(const std::string& args, const std::string& env = "") {
  return ms::test::RunCommand(env + std::string(MOONSTACK_BINARY) + " " + args + " 2>&1");
}

std::string TempDir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("moonstack_editor_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The stub of `module` under `stubs`: a/b.lua or a/b/init.lua, as require finds it.
fs::path StubOf(const fs::path& stubs, std::string module) {
  for (char& c : module) {
    if (c == '.') c = '/';
  }
  if (fs::is_regular_file(stubs / (module + ".lua"))) return stubs / (module + ".lua");
  return stubs / module / "init.lua";
}

}  // namespace

TEST_CASE("provider new writes a .luarc.json and a LuaLS stub of every module the sandbox serves",
          "[cli][tooling][editor]") {
  const std::string dir = TempDir("new");
  auto r = Moonstack("provider new Acme::Thing::Widget --dir " + dir);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(Has(r.out, "created " + dir + "/.luarc.json\n"));
  CHECK_FALSE(Has(r.out, "no LuaLS stub"));

  // .luarc.json: LuaJIT, require's paths, the stubs as a library, and the
  // libraries the sandbox removes disabled.
  const nlohmann::json luarc = nlohmann::json::parse(Read(dir + "/.luarc.json"));
  CHECK(luarc["runtime.version"] == "LuaJIT");
  CHECK(luarc["workspace.library"] == nlohmann::json::array({".moonstack/stubs"}));
  CHECK(luarc["runtime.path"] == nlohmann::json::array({"?.lua", "?/init.lua"}));
  CHECK(luarc["runtime.builtin"]["io"] == "disable");
  CHECK(luarc["runtime.builtin"]["debug"] == "disable");
  const fs::path stubs = fs::path(dir) / luarc["workspace.library"][0].get<std::string>();

  // Every module the sandbox serves a provider (the host's own and the files
  // on the module path) has its stub where require finds it.
  ms::lua::ProviderPaths paths;
  paths.sdk_dir = kSource + "/lua-sdk";
  paths.dirs = {kSource + "/providers"};
  std::vector<ms::lua::ProviderModule> modules;
  REQUIRE(ms::lua::ProviderModules(paths, &modules).ok());
  std::set<std::string> names, host;
  for (const auto& m : modules) {
    names.insert(m.name);
    if (m.source.empty()) host.insert(m.name);
  }
  CHECK(host == std::set<std::string>{"moonstack", "moonstack.digest", "moonstack.lambda", "moonstack.world"});
  for (const char* expected : {"moonstack.provider", "moonstack.tags", "moonstack.log", "sim", "sim.ec2",
                               "sim.ssm", "lib.generic"}) {
    CHECK(names.count(expected) == 1);
  }
  for (const auto& m : modules) {
    const fs::path stub = StubOf(stubs, m.name);
    INFO(m.name << " -> " << stub.string());
    REQUIRE(fs::is_regular_file(stub));
    CHECK(Read(stub).rfind("---@meta\n", 0) == 0);
  }

  // What the stubs say: the SDK from its annotations, the host's modules by
  // hand, the sim client from the loaded services.
  const std::string provider = Read(stubs / "moonstack/provider.lua");
  CHECK(Has(provider, "function P.define(input, source) end"));
  CHECK(Has(provider, "---@class moonstack.Context\n"));
  CHECK(Has(provider, "---@field world sim.Client"));
  CHECK(Has(provider, "---@param opts { after: number, context: table?, id: string?, reason: string|string[]? }\n"
                      "---@return moonstack.InProgress\nfunction P.in_progress(opts) end"));
  CHECK(Has(Read(stubs / "moonstack/world.lua"), "function world.get(kind, id) end"));
  CHECK(Has(Read(stubs / "moonstack/init.lua"), "moonstack.null = nil"));
  CHECK(Has(Read(stubs / "sim/init.lua"), "---@return sim.Client\nfunction S.client(ctx, caller) end"));
  const std::string client = Read(stubs / "sim_client.lua");
  CHECK(Has(client, "---@field ec2 sim.client.ec2\n"));
  CHECK(Has(client, "---@field RunInstances fun(request: table?): table\n"));
  CHECK(Has(client, "---@field PutParameter fun(request: table?): table\n"));

  // A second provider in the same directory keeps the user's .luarc.json.
  std::ofstream(dir + "/.luarc.json") << "{}\n";
  r = Moonstack("provider new Acme::Thing::Gadget --dir " + dir);
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  CHECK(Has(r.out, "kept " + dir + "/.luarc.json"));
  CHECK(Read(dir + "/.luarc.json") == "{}\n");
  CHECK(fs::is_regular_file(stubs / "moonstack/provider.lua"));
  fs::remove_all(dir);
}

TEST_CASE("provider new names a host module that has no stub", "[cli][tooling][editor]") {
  // A moonstack home whose lua-sdk lacks the hand-written stub of a module
  // the host installs from C++.
  const std::string home = TempDir("home");
  fs::copy(kSource + "/lua-sdk", home + "/lua-sdk", fs::copy_options::recursive);
  fs::create_directory_symlink(kSource + "/providers", home + "/providers");
  fs::remove(home + "/lua-sdk/meta/moonstack/lambda.lua");
  const std::string dir = TempDir("missing");
  auto r = Moonstack("provider new Acme::Thing::Widget --dir " + dir, "MOONSTACK_HOME=" + home + " ");
  INFO(r.out);
  CHECK(r.exit_code == 0);
  CHECK(Has(r.out, "moonstack: no LuaLS stub for module moonstack.lambda (add lua-sdk/meta/moonstack/lambda.lua)\n"));
  CHECK_FALSE(fs::exists(dir + "/.moonstack/stubs/moonstack/lambda.lua"));
  CHECK(fs::is_regular_file(dir + "/.moonstack/stubs/moonstack/world.lua"));
  fs::remove_all(dir);
  fs::remove_all(home);
}
