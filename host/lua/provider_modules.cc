#include "lua/provider_modules.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>

#include "lua/modules.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"

namespace fs = std::filesystem;

namespace ms::lua {
namespace {

// Lua's (and LuaJIT's) own libraries: lua-language-server knows them.
bool IsStandardLibrary(const std::string& name) {
  static const char* const kStandard[] = {"_G", "package", "coroutine", "string", "table", "math",
                                          "os", "io", "debug", "bit", "jit", "ffi"};
  return std::find_if(std::begin(kStandard), std::end(kStandard),
                      [&](const char* s) { return name == s; }) != std::end(kStandard);
}

// Module names of the .lua files under `root`/`package` ("sim/ec2.lua" ->
// "sim.ec2", "sim/init.lua" -> "sim").
void FileModules(const std::string& root, const std::string& package, std::vector<std::string>* out) {
  std::error_code ec;
  const fs::path base(root);
  if (!fs::is_directory(base / package, ec)) return;
  fs::recursive_directory_iterator it(base / package, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".lua") continue;
    std::string name = fs::relative(it->path(), base, ec).replace_extension().generic_string();
    std::replace(name.begin(), name.end(), '/', '.');
    const std::string init = ".init";
    if (name.size() > init.size() && name.compare(name.size() - init.size(), init.size(), init) == 0) {
      name.resize(name.size() - init.size());
    }
    if (ModuleSearch::ValidName(name)) out->push_back(name);
  }
}

}  // namespace

Status ProviderModules(const ProviderPaths& paths, std::vector<ProviderModule>* out) {
  World world;
  std::unique_ptr<Runtime> rt;
  std::unique_ptr<WorldBinding> binding;
  MS_RETURN_IF_ERROR(OpenProviderState(paths, Limits(), &world, &rt, &binding));
  CallResult loaded = rt->Eval(
      "local names = {}\n"
      "for name in pairs(package.loaded) do\n"
      "  if type(name) == 'string' then names[#names + 1] = name end\n"
      "end\n"
      "table.sort(names)\n"
      "return names\n");
  if (!loaded.ok()) return loaded.status();

  // A module the host installed has no source, even if a file of that name
  // exists: require finds it in package.loaded first.
  std::map<std::string, ProviderModule> modules;
  for (const Value& v : loaded.value().list()) {
    if (!IsStandardLibrary(v.str())) modules.emplace(v.str(), ProviderModule{v.str(), ""});
  }
  std::vector<std::string> files;
  FileModules(paths.sdk_dir, "moonstack", &files);
  for (const std::string& dir : paths.dirs) {
    for (const char* shared : kSharedCodeDirs) FileModules(dir, shared, &files);
  }
  std::vector<std::string> roots{paths.sdk_dir};
  roots.insert(roots.end(), paths.dirs.begin(), paths.dirs.end());
  const ModuleSearch search(roots);
  for (const std::string& name : files) {
    if (modules.count(name) != 0) continue;
    FoundModule found;
    std::string error;
    if (search.Find(name, &found, &error)) modules.emplace(name, ProviderModule{name, found.path});
  }
  out->clear();
  for (auto& [name, m] : modules) out->push_back(std::move(m));
  return Status::OK();
}

}  // namespace ms::lua
