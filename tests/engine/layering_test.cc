// The engine's folders are layered: an include may only run from a folder to
// one below it (engine/README.md lists the order). This test reads every
// engine source file and fails on an include that runs upward or sideways
// into a folder not listed below it, and on a Lua or HTTP header.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace {

// Each folder and the folders it may include (directly); the order is the
// layering, lowest first.
const std::map<std::string, std::set<std::string>>& Allowed() {
  static const std::map<std::string, std::set<std::string>> allowed = {
      {"base", {}},
      {"template", {"base"}},
      {"catalog", {"base"}},
      {"world", {"base", "template"}},
      {"records", {"base", "template"}},
      {"provider", {"base", "template"}},
      {"policy", {"base", "template"}},
      {"graph", {"base", "template"}},
      {"eval", {"base", "template", "catalog", "graph", "provider", "policy"}},
      {"run", {"base", "template", "provider"}},
      {"plan", {"base", "template", "catalog", "graph", "eval", "provider", "policy", "records"}},
      {"store", {"base", "template", "world", "records"}},
      {"stack",
       {"base", "template", "catalog", "world", "records", "provider", "policy", "graph", "eval", "run", "plan",
        "store"}},
      {"stackset",
       {"base", "template", "catalog", "world", "records", "provider", "policy", "graph", "eval", "run", "plan",
        "store", "stack"}},
  };
  return allowed;
}

// A Lua header: lua.h, lualib.h, lauxlib.h, luajit.h (any folder), or one of
// host/lua's ("lua/runtime.h"). Not any name containing "lua": "eval/evaluator.h".
bool IsLuaHeader(const std::string& target) {
  static const std::regex lua(R"((^|/)(lua|lualib|lauxlib|luajit)[^/]*$|(^|/)lua/)");
  return std::regex_search(target, lua);
}

}  // namespace

TEST_CASE("engine includes only run downward", "[layering]") {
  const std::filesystem::path engine = std::filesystem::path(MOONSTACK_SOURCE_DIR) / "engine";
  const std::regex include_re(R"re(^\s*#\s*include\s*[<"]([^">]+)[">])re");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(engine)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cc") continue;
    const std::string folder = std::filesystem::relative(entry.path(), engine).begin()->string();
    INFO(entry.path().string());
    REQUIRE(Allowed().count(folder) == 1);  // a new folder takes its place in the list
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, include_re)) continue;
      const std::string target = m[1];
      INFO(line);
      CHECK_FALSE(IsLuaHeader(target));
      CHECK(target.find("httplib") == std::string::npos);
      const size_t slash = target.find('/');
      if (slash == std::string::npos || line.find('"') == std::string::npos) continue;  // a system header
      const std::string to = target.substr(0, slash);
      if (to == folder || Allowed().count(to) == 0) continue;  // own folder, or <nlohmann/json.hpp>-like
      CHECK(Allowed().at(folder).count(to) == 1);
    }
  }
  CHECK(files > 100);
}

TEST_CASE("layering: what counts as a Lua header", "[layering]") {
  for (const char* lua : {"lua.h", "lualib.h", "lauxlib.h", "luajit.h", "luajit-2.1/lua.hpp", "lua/runtime.h",
                          "host/lua/marshal.h"}) {
    INFO(lua);
    CHECK(IsLuaHeader(lua));
  }
  for (const char* other : {"eval/evaluator.h", "eval/eval_walker.h", "template/value.h"}) {
    INFO(other);
    CHECK_FALSE(IsLuaHeader(other));
  }
}
