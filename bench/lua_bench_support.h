// What the bench_lua_* benchmarks that go through the provider host share: a
// provider runtime over the source tree's lua-sdk and one provider
// directory, and a session of it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "lua/provider_host.h"

namespace bench {

struct LuaProviders {
  std::unique_ptr<ms::lua::LuaProviderRuntime> runtime;
  std::unique_ptr<ms::ProviderSession> session;
};

// `dir` is relative to the source tree ("providers", "bench/providers").
// Exits with the reason when the runtime or its session cannot be made.
inline LuaProviders OpenLuaProviders(const std::string& dir) {
  ms::lua::ProviderPaths paths;
  paths.sdk_dir = std::string(MOONSTACK_SOURCE_DIR) + "/lua-sdk";
  paths.dirs = {std::string(MOONSTACK_SOURCE_DIR) + "/" + dir};
  LuaProviders out;
  ms::Status s = ms::lua::LuaProviderRuntime::Create(paths, ms::lua::Limits(), &out.runtime);
  if (s.ok()) s = out.runtime->NewSession(&out.session);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    std::exit(1);
  }
  return out;
}

}  // namespace bench
