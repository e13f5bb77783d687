// LuaProviderRuntime: the engine's ProviderRuntime over lua-sdk providers.
//
// Provider files are found under provider directories: every *.lua file,
// except those under a directory named `lib` or `sim` (shared code that
// providers `require`), `tests` (contract-test fixtures), `custom`
// (custom-resource handlers, `require`d by the custom-resource provider) or
// `scenarios` (scenario scripts).
// Directories are searched in order: the built-in
// providers/ first, then MOONSTACK_PROVIDER_PATH, then each --providers DIR;
// a later directory's provider for a type overrides an earlier one's, and
// the override is reported (ProviderCatalog::notes). Two files of the same
// directory declaring one type is an error naming both.
//
// Each session is one Runtime (one lua_State) with every winning provider
// loaded into it: sessions are for one worker thread each.
//
// Custom::<Name> types have no provider of their own: the provider of
// AWS::CloudFormation::CustomResource serves them (an exact provider for a
// Custom:: type wins). An AWS type no provider implements is served by
// providers/lib/generic.lua, made from its registry schema in the catalog
// (create-only properties replace, others update in place), so real
// templates deploy. With stub_unknown_types, a type AWS does not know either
// is served by moonstack.stub (every property accepted, updates in place,
// any attribute); without it, it stays `Unrecognized resource types`.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "lua/limits.h"
#include "provider/provider.h"
#include "world/world.h"

namespace ms::lua {

struct ProviderPaths {
  std::string sdk_dir;                // lua-sdk/ (holds moonstack/provider.lua)
  std::vector<std::string> dirs;      // provider directories, lowest priority first
  bool stub_unknown_types = false;    // --stub-unknown-types: serve moonstack.stub for types without a provider
};

// The folders of a provider directory holding code providers share
// (`require("sim")`, `require("lib.generic")`), never loaded as providers.
inline constexpr const char* kSharedCodeDirs[] = {"lib", "sim"};
bool IsSharedCodeDir(std::string_view name);

class Runtime;
class WorldBinding;

// A lua_State as every provider runs in: the sandbox, `paths`' module roots
// (the lua-sdk, then each provider directory), `moonstack.world` over `world`;
// `print` receives what the code prints (none: dropped).
Status OpenProviderState(const ProviderPaths& paths, const Limits& limits, World* world,
                         std::unique_ptr<Runtime>* rt, std::unique_ptr<WorldBinding>* binding,
                         std::function<void(std::string_view)> print = nullptr);

class Ref;

// Adds to the provider declaration `decl` (loaded in `rt` by the
// moonstack.host module `host`) the constraints of `type`'s registry schema
// it does not declare itself (lua-sdk's Declaration:adopt_registry_constraints):
// CloudFormation checks them before any handler runs; inside a property it
// declares as plain JSON, the schema's nested ones too, through
// providers/lib/schema_validate.lua when that is on `rt`'s module path.
// False when the catalog has no schema of `type` or the call failed
// (nothing added).
bool AdoptRegistryConstraints(Runtime* rt, const Ref& host, const Ref& decl, const std::string& type);

// The provider directories a command uses: `<home>/providers`, then
// MOONSTACK_PROVIDER_PATH (colon-separated), then `extra` (--providers).
ProviderPaths DefaultProviderPaths(const std::string& home, const std::vector<std::string>& extra);

// What says a provider file changed: its modification time and size (one
// stat). A file that cannot be stat'ed has the stamp {-1, -1}: a file that
// disappears counts as changed, and reloading it names the problem.
struct FileStamp {
  int64_t mtime_ns = -1;
  int64_t size = -1;
  bool operator==(const FileStamp& o) const { return mtime_ns == o.mtime_ns && size == o.size; }
};
FileStamp StampOf(const std::string& path);

class LuaProviderRuntime : public ProviderRuntime {
 public:
  // Finds and loads every provider once (in a probe session), so a provider
  // that fails to load or is declared wrongly is reported now, naming its file.
  // Providers see `world` as `moonstack.world` (and ctx.world, the sim client);
  // it must outlive the runtime and its sessions. Without one the runtime
  // keeps a private, empty World (validation, tests).
  static Status Create(const ProviderPaths& paths, const Limits& limits,
                       std::unique_ptr<LuaProviderRuntime>* out, World* world = nullptr);

  World* world() const { return world_; }

  Status NewSession(std::unique_ptr<ProviderSession>* out) override;
  std::vector<std::string> Types() const override;

  // The schema of a type as loaded by the probe session (or ReloadChanged), or nullptr.
  const TypeSchema* Schema(std::string_view type) const override;
  // Each provider file whose stamp changed is loaded again in a probe
  // session and its type's schema replaced (the old one is kept: pointers
  // Schema gave stay valid). A file that no longer loads keeps the old
  // schema; the operation's session reports its error.
  void ReloadChanged() override;
  // "provider for AWS::EC2::VPC from B overrides A", one per override.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  LuaProviderRuntime() = default;

  ProviderPaths paths_;
  Limits limits_;
  std::unique_ptr<World> own_world_;  // when Create was given none
  World* world_ = nullptr;
  std::map<std::string, std::string> files_;    // type -> winning provider file
  mutable std::mutex schema_mu_;                // guards schemas_, stamps_, retired_
  std::map<std::string, std::unique_ptr<TypeSchema>> schemas_;  // type -> its schema
  std::map<std::string, FileStamp> stamps_;     // type -> its file as it was when its schema was read
  std::vector<std::unique_ptr<TypeSchema>> retired_;  // schemas a reload replaced, still pointed to
  mutable std::mutex fallback_mu_;                             // guards fallback_schemas_
  mutable std::map<std::string, TypeSchema> fallback_schemas_; // generic or stub type -> its schema, made on first use
  std::vector<std::string> notes_;
};

}  // namespace ms::lua
