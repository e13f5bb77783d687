// The Lua runtime of the provider tooling (provider test / new / describe
// --format): the lua-sdk and the provider directories on the module path,
// `moonstack.world` a fresh, empty World on virtual time, and what Lua
// prints going to stdout.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "world/world.h"

namespace ms::cli {

class ToolRuntime {
 public:
  // `dirs`: --providers directories; `extra_roots`: more module roots (the
  // provider file's own directory).
  Status Open(const std::vector<std::string>& dirs, const std::vector<std::string>& extra_roots);
  lua::Runtime& rt() { return *rt_; }

 private:
  World world_;
  std::unique_ptr<lua::Runtime> rt_;
  std::unique_ptr<lua::WorldBinding> binding_;
};

// A whole file's text; false when it is not a readable regular file.
bool ReadText(const std::string& path, std::string* text);
// Writes a whole file; false on failure.
bool WriteText(const std::string& path, const std::string& text);

}  // namespace ms::cli
