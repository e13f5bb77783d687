// ModuleSearch: where `require` may find Lua modules.
//
// A module name is dot-separated components of letters, digits, '_' and '-'
// ("moonstack.provider", "aws.ec2.subnet"); anything else (a '/', "..", an
// empty component) is refused before the file system is touched. The name
// maps to ROOT/a/b.lua, then ROOT/a/b/init.lua, for each configured root in
// order. The resolved file must lie inside its root after symlinks are
// resolved, so a link pointing out of a root is not followed. Only text
// files are loaded (the loader refuses bytecode).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ms::lua {

struct FoundModule {
  std::string path;       // the file to read
  std::string chunkname;  // "@ROOT/a/b.lua": what error positions show
};

class ModuleSearch {
 public:
  ModuleSearch() = default;
  // Roots that do not exist are kept (they simply hold nothing).
  explicit ModuleSearch(std::vector<std::string> roots);

  // True and *found when `name` resolves to a file in a root. Otherwise
  // false and *error: "invalid module name" or the list of places tried,
  // in Lua's "module 'x' not found:" format (without that first line).
  bool Find(std::string_view name, FoundModule* found, std::string* error) const;

  // ROOT/?.lua;ROOT/?/init.lua;...: what package.path shows.
  std::string PathString() const;

  static bool ValidName(std::string_view name);

 private:
  struct Root {
    std::string dir;        // as configured, without a trailing '/'
    std::string canonical;  // realpath, empty when the directory is missing
  };
  std::vector<Root> roots_;
};

// Reads a whole file (at most max_bytes). False with *error when it cannot.
bool ReadModuleFile(const std::string& path, size_t max_bytes, std::string* contents,
                    std::string* error);

}  // namespace ms::lua
