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

Status LoadProviders(const std::vector<std::string>& dirs, std::unique_ptr<lua::LuaProviderRuntime>* out);

}  // namespace ms::cli
