#include "cli/load_providers.h"

#include <iostream>

#include "cli/io.h"

namespace ms::cli {

Status LoadProviders(const std::vector<std::string>& dirs, std::unique_ptr<lua::LuaProviderRuntime>* out,
                     bool stub_unknown_types, World* world) {
  lua::ProviderPaths paths = lua::DefaultProviderPaths(Home(), dirs);
  paths.stub_unknown_types = stub_unknown_types;
  MS_RETURN_IF_ERROR(lua::LuaProviderRuntime::Create(paths, lua::Limits(), out, world));
  for (const std::string& note : (*out)->notes()) std::cerr << "moonstack: " << note << "\n";
  return Status::OK();
}

}  // namespace ms::cli
