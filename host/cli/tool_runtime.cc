#include "cli/tool_runtime.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "cli/io.h"
#include "lua/provider_host.h"

namespace fs = std::filesystem;

namespace ms::cli {

Status ToolRuntime::Open(const std::vector<std::string>& dirs, const std::vector<std::string>& extra_roots) {
  lua::ProviderPaths paths = lua::DefaultProviderPaths(Home(), dirs);
  lua::RuntimeOptions options;
  // One call runs a provider's whole contract (milliseconds for a sound
  // one); a hook that never returns stops the run at this deadline.
  options.limits.deadline = std::chrono::milliseconds(20000);
  options.limits.memory_bytes = size_t{256} << 20;
  options.module_roots.push_back(paths.sdk_dir);
  for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
  for (const std::string& d : extra_roots) options.module_roots.push_back(d);
  options.print = [](std::string_view line) { std::cout << line << std::endl; };
  Status s;
  rt_ = lua::Runtime::Create(options, &s);
  if (!rt_) return s;
  return lua::WorldBinding::Install(rt_.get(), &world_, &binding_);
}

bool ReadText(const std::string& path, std::string* text) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace ms::cli
