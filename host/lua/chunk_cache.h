// A process-wide cache of compiled module chunks.
//
// Every lua_State a process makes (the probe that reads every provider's
// schema, each worker's session, each `serve` operation's fresh one) used
// to compile the same SDK and provider sources again: LuaJIT's parser was
// four fifths of a new session's cost (~12 M instructions, a few ms: the
// first operation of a kind in a session waited on it). Here the first
// state to load a file compiles it and keeps its bytecode (lua_dump, with
// its debug info: chunk name and lines, so errors and tracebacks read as
// before); the next state that loads the same text under the same chunk
// name loads that bytecode instead.
//
// The sandbox loads only text chunks from files (bytecode from outside
// could break the VM): the bytecode here is only ever what this process
// compiled from the exact text it is asked to load, compared in full, so an
// edited file is compiled again. The host's own chunks (the sandbox's Lua
// wrappers, the read-only views' functions) load through it too. At most
// 4,096 chunks (64 MiB) are kept; past that, chunks are compiled as before.
#pragma once

#include <string>

struct lua_State;

namespace ms::lua {

// luaL_loadbufferx(L, source, ..., chunkname, "t"), from the cache when the
// same chunk name was compiled from the same text before. Same results:
// 0 and the function pushed, or an error code and the message pushed.
int LoadTextChunk(lua_State* L, const std::string& source, const std::string& chunkname);

}  // namespace ms::lua
