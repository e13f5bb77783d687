// Editor setup for a provider directory (`moonstack provider new`): LuaLS
// annotation stubs of every module the host gives providers to `require`
// (lua::ProviderModules) in DIR/.moonstack/stubs/, and DIR/.luarc.json
// pointing lua-language-server at them, so completion and type checks work
// in the directory on its own.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "lua/provider_host.h"
#include "lua/runtime.h"

namespace ms::cli {

// Where the stubs go, relative to the provider directory.
inline constexpr const char* kStubDir = ".moonstack/stubs";

struct EditorSetup {
  std::vector<std::string> written;  // files written, relative to the directory
  // Modules left without a stub: a host module whose hand-written stub is
  // missing; each with the file that should hold it (lua-sdk/meta/...).
  std::vector<std::pair<std::string, std::string>> missing;
  bool kept_luarc = false;           // a .luarc.json was there already: left as it was
};

// Writes the stubs (replacing earlier ones: they follow this moonstack) and,
// unless one exists, .luarc.json. `rt`: a runtime with `paths`' module roots
// (the stubs of Lua modules are made by moonstack.editor in it).
Status WriteEditorSetup(const std::string& dir, const lua::ProviderPaths& paths, lua::Runtime* rt,
                        EditorSetup* out);

}  // namespace ms::cli
