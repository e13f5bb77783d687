#include "lua/chunk_cache.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include <lua.hpp>

namespace ms::lua {
namespace {

// Entries are never dropped; an edited file adds one. Past this many, or
// this many bytes of text and bytecode, new ones are compiled and not kept.
constexpr size_t kMaxEntries = 4096;
constexpr size_t kMaxBytes = size_t{64} << 20;

// chunk name + '\0' + source text -> the chunk's bytecode.
std::mutex g_mu;
size_t g_bytes = 0;  // guarded by g_mu: the kept keys' and bytecodes' sizes
std::unordered_map<std::string, std::shared_ptr<const std::string>>& Cache() {
  static auto* cache = new std::unordered_map<std::string, std::shared_ptr<const std::string>>();
  return *cache;
}

int AppendBytes(lua_State*, const void* p, size_t n, void* out) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(p), n);
  return 0;
}

}  // namespace

int LoadTextChunk(lua_State* L, const std::string& source, const std::string& chunkname) {
  std::string key;
  key.reserve(chunkname.size() + 1 + source.size());
  key.append(chunkname).push_back('\0');
  key.append(source);
  std::shared_ptr<const std::string> hit;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = Cache().find(key);
    if (it != Cache().end()) hit = it->second;
  }
  if (hit != nullptr) return luaL_loadbufferx(L, hit->data(), hit->size(), chunkname.c_str(), "b");
  const int rc = luaL_loadbufferx(L, source.data(), source.size(), chunkname.c_str(), "t");
  if (rc != 0) return rc;  // a syntax error: nothing to keep
  auto bytecode = std::make_shared<std::string>();
  if (lua_dump(L, AppendBytes, bytecode.get()) != 0 || bytecode->empty()) return 0;
  std::lock_guard<std::mutex> lock(g_mu);
  const size_t bytes = key.size() + bytecode->size();
  if (Cache().size() < kMaxEntries && g_bytes + bytes <= kMaxBytes &&
      Cache().emplace(std::move(key), std::move(bytecode)).second) {
    g_bytes += bytes;
  }
  return 0;
}

}  // namespace ms::lua
