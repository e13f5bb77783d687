#include "lua/digest_binding.h"

#include <lua.hpp>

#include <string>

#include "base/sha256.h"

namespace ms::lua {
namespace {

int Sha256(lua_State* L) {
  size_t len = 0;
  const char* bytes = luaL_checklstring(L, 1, &len);
  const std::string digest = Sha256Digest(std::string_view(bytes, len));
  lua_pushlstring(L, digest.data(), digest.size());
  return 1;
}

}  // namespace

void OpenDigest(lua_State* L) {
  lua_newtable(L);
  lua_pushcfunction(L, Sha256);
  lua_setfield(L, -2, "sha256");
  lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "moonstack.digest");
  lua_pop(L, 2);
}

}  // namespace ms::lua
