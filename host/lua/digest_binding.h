// The module `moonstack.digest`, for the simulated services (and anyone):
//   sha256(bytes) -> the 32 raw bytes of the SHA-256 of `bytes`
// In C++ (base/sha256.h) because LuaJIT's interpreter (the JIT is off in
// the host) digests ~3 MB/s and a Lambda package may be 50 MB. Under plain
// luajit the lua-sdk's moonstack/digest.lua stands in for it, the same
// function in Lua.
#pragma once

struct lua_State;

namespace ms::lua {

// Sets package.loaded["moonstack.digest"]. Protected mode.
void OpenDigest(lua_State* L);

}  // namespace ms::lua
