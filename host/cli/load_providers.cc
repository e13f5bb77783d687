#include "cli/load_providers.h"

#include <iostream>

#include "cli/io.h"

namespace ms::cli {

Status LoadProviders(const std::vector<std::string>& dirs, std::unique_ptr<lua::LuaProviderRuntime>* out) {
  MS_RETURN_IF_ERROR(
      lua::LuaProviderRuntime::Create(lua::DefaultProviderPaths(Home(), dirs), lua::Limits(), out));
  for (const std::string& note : (*out)->notes()) std::cerr << "moonstack: " << note << "\n";
  return Status::OK();
}

}  // namespace ms::cli
