#include "lua/modules.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <sys/stat.h>

namespace ms::lua {
namespace {

std::string RealPath(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> p(realpath(path.c_str(), nullptr), &std::free);
  return p ? std::string(p.get()) : std::string();
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool Inside(const std::string& file, const std::string& dir) {
  return file.size() > dir.size() + 1 && file.compare(0, dir.size(), dir) == 0 &&
         file[dir.size()] == '/';
}

}  // namespace

ModuleSearch::ModuleSearch(std::vector<std::string> roots) {
  for (std::string& dir : roots) {
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    if (dir.empty()) dir = ".";
    std::string canonical = RealPath(dir);
    roots_.push_back({std::move(dir), std::move(canonical)});
  }
}

bool ModuleSearch::ValidName(std::string_view name) {
  if (name.empty() || name.size() > 256) return false;
  bool component_start = true;
  for (char c : name) {
    if (c == '.') {
      if (component_start) return false;  // leading dot or ".."
      component_start = true;
      continue;
    }
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return false;
    component_start = false;
  }
  return !component_start;  // no trailing dot
}

bool ModuleSearch::Find(std::string_view name, FoundModule* found, std::string* error) const {
  if (!ValidName(name)) {
    *error = "\n\tinvalid module name (use letters, digits, '_', '-' separated by dots)";
    return false;
  }
  std::string rel(name);
  for (char& c : rel) {
    if (c == '.') c = '/';
  }
  std::string tried;
  for (const Root& root : roots_) {
    for (const char* suffix : {".lua", "/init.lua"}) {
      std::string shown = root.dir + "/" + rel + suffix;
      if (!root.canonical.empty() && IsRegularFile(shown)) {
        std::string real = RealPath(shown);
        if (Inside(real, root.canonical)) {
          found->path = real;
          found->chunkname = "@" + shown;
          return true;
        }
        tried += "\n\tfile '" + shown + "' leads outside its module root";
        continue;
      }
      tried += "\n\tno file '" + shown + "'";
    }
  }
  if (roots_.empty()) tried += "\n\tno module roots configured";
  *error = tried;
  return false;
}

std::string ModuleSearch::PathString() const {
  std::string out;
  for (const Root& root : roots_) {
    if (!out.empty()) out += ";";
    out += root.dir + "/?.lua;" + root.dir + "/?/init.lua";
  }
  return out;
}

bool ReadModuleFile(const std::string& path, size_t max_bytes, std::string* contents,
                    std::string* error) {
  std::unique_ptr<FILE, decltype(&std::fclose)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    *error = "cannot open " + path;
    return false;
  }
  contents->clear();
  char buf[16384];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
    if (contents->size() + n > max_bytes) {
      *error = path + " is larger than " + std::to_string(max_bytes) + " bytes";
      return false;
    }
    contents->append(buf, n);
  }
  if (std::ferror(f.get())) {
    *error = "cannot read " + path;
    return false;
  }
  return true;
}

}  // namespace ms::lua
