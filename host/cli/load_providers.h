// Loading the Lua providers for a command: the built-in providers/, then
// MOONSTACK_PROVIDER_PATH, then each --providers DIR. Overrides are reported
// on stderr, as the log line the provider-host issue asks for.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "lua/provider_host.h"

namespace ms::cli {

// stub_unknown_types (--stub-unknown-types): types no provider implements are
// served by moonstack.stub instead of failing validation.
// `world` (may be null: a private empty one) is what providers see.
Status LoadProviders(const std::vector<std::string>& dirs, std::unique_ptr<lua::LuaProviderRuntime>* out,
                     bool stub_unknown_types = false, World* world = nullptr);

}  // namespace ms::cli
