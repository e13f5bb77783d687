#include "cli/editor_setup.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "cli/io.h"
#include "cli/tool_runtime.h"
#include "lua/provider_modules.h"

namespace fs = std::filesystem;

namespace ms::cli {
namespace {

// What the sandbox removes (host/lua/sandbox.h), as lua-language-server's
// built-in libraries: disabled, so using them is flagged as an undefined
// global instead of completing.
const char* const kDisabledBuiltins[] = {"io",       "debug",     "ffi",         "jit",         "jit.profile",
                                         "jit.util", "utf8",      "bit32",       "string.buffer", "table.new",
                                         "table.clear"};

// The stub file of `name` under the stub directory: a/b.lua, or a/b/init.lua
// for a module loaded from an init.lua or a host module with submodules
// (`moonstack`, beside moonstack.world), as require would find it.
std::string StubPath(const lua::ProviderModule& m, const std::map<std::string, bool>& has_children) {
  std::string rel = m.name;
  for (char& c : rel) {
    if (c == '.') c = '/';
  }
  const bool init = m.source.empty() ? has_children.count(m.name) != 0
                                     : fs::path(m.source).filename() == "init.lua";
  return rel + (init ? "/init.lua" : ".lua");
}

bool WriteTextMakingDirs(const fs::path& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  return WriteText(path.string(), text);
}

std::string LuarcJson() {
  Json builtins = Json::object();
  for (const char* lib : kDisabledBuiltins) builtins[lib] = "disable";
  Json luarc{{"runtime.version", "LuaJIT"},
             {"runtime.path", {"?.lua", "?/init.lua"}},
             {"runtime.builtin", builtins},
             {"workspace.library", {kStubDir}},
             {"workspace.checkThirdParty", false}};
  return luarc.dump(2) + "\n";
}

}  // namespace

Status WriteEditorSetup(const std::string& dir, const lua::ProviderPaths& paths, lua::Runtime* rt,
                        EditorSetup* out) {
  std::vector<lua::ProviderModule> modules;
  MS_RETURN_IF_ERROR(lua::ProviderModules(paths, &modules));
  lua::CallResult editor = rt->Require("moonstack.editor");
  if (!editor.ok()) return editor.status();

  std::map<std::string, bool> has_children;
  for (const lua::ProviderModule& m : modules) {
    for (size_t dot = m.name.find('.'); dot != std::string::npos; dot = m.name.find('.', dot + 1)) {
      has_children[m.name.substr(0, dot)] = true;
    }
  }
  const fs::path stubs = fs::path(dir) / kStubDir;
  std::error_code ec;
  fs::remove_all(stubs, ec);  // stubs of modules this moonstack no longer has go too
  for (const lua::ProviderModule& m : modules) {
    const std::string rel = StubPath(m, has_children);
    // A hand-written stub (lua-sdk/meta/) wins: host modules have no source.
    std::string text;
    if (!ReadFile((fs::path(paths.sdk_dir) / "meta" / rel).string(), &text).ok()) {
      if (m.source.empty()) {
        out->missing.emplace_back(m.name, "lua-sdk/meta/" + rel);
        continue;
      }
      std::string source;
      MS_RETURN_IF_ERROR(ReadFile(m.source, &source));
      lua::CallResult stub = rt->CallField(editor.refs[0], "stub", {Value::String(m.name), Value::String(source)});
      if (!stub.ok()) return stub.status();
      text = stub.value().str();
    }
    if (!WriteTextMakingDirs(stubs / rel, text)) return Status::Internal("cannot write " + (stubs / rel).string());
    out->written.push_back(std::string(kStubDir) + "/" + rel);
  }

  // The client the sim hands hooks (ctx.world): its services and actions.
  if (has_children.count("sim") != 0) {
    lua::CallResult sim = rt->Require("sim");
    if (!sim.ok()) return sim.status();
    lua::CallResult client = rt->CallField(editor.refs[0], "sim_client", {sim.refs[0]});
    if (!client.ok()) return client.status();
    const std::string rel = std::string(kStubDir) + "/sim_client.lua";
    if (!WriteTextMakingDirs(fs::path(dir) / rel, client.value().str())) return Status::Internal("cannot write " + rel);
    out->written.push_back(rel);
  }

  const fs::path luarc = fs::path(dir) / ".luarc.json";
  if (fs::exists(luarc, ec)) {
    out->kept_luarc = true;
  } else {
    if (!WriteTextMakingDirs(luarc, LuarcJson())) return Status::Internal("cannot write " + luarc.string());
    out->written.push_back(".luarc.json");
  }
  return Status::OK();
}

}  // namespace ms::cli
