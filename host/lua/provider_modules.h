// ProviderModules: every module the host gives providers to `require` — what
// `moonstack provider new` writes LuaLS stubs for (cli/editor_setup.cc).
//
// Found the way a provider finds them, not from a list kept by hand:
//   * the modules the host's C++ puts in package.loaded of a provider's
//     lua_State (OpenProviderState: `moonstack`, `moonstack.world`,
//     `moonstack.lambda`, `moonstack.digest`), less Lua's own standard
//     libraries;
//   * the lua-sdk's `moonstack/` package, and the shared code of each provider
//     directory (kSharedCodeDirs: `sim/`, `lib/`), each file a module named
//     by its path (`sim/ec2/tags.lua` is `sim.ec2.tags`, `sim/init.lua` is
//     `sim`) and resolved as `require` resolves it.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "lua/provider_host.h"

namespace ms::lua {

struct ProviderModule {
  std::string name;    // what require takes: "moonstack.provider", "sim.ec2"
  std::string source;  // the Lua file require loads; empty for a module the host installs from C++
};

// Sorted by name.
Status ProviderModules(const ProviderPaths& paths, std::vector<ProviderModule>* out);

}  // namespace ms::lua
