// Isolation between the chunks one lua_State runs: every provider file,
// custom handler, module and stack of a worker shares the state, so nothing
// one of them writes may reach another.
//
// - Globals: each chunk gets a table of its own (PushChunkGlobals), a copy
//   of the globals as they were sealed. The state's own globals are the
//   host's: only Runtime::Eval code runs in them.
// - Shared tables are read-only views (readonly.h), to the host's code too:
//   string, table, math, os, bit, coroutine, moonstack; the string
//   metatable (getmetatable("") is a read-only { __index = string }, so the
//   table LuaJIT reads string methods from is out of reach); package in a
//   chunk's globals (package.loaded and package.preload through it).
//   require hands out views of modules (sandbox.cc).
#pragma once

struct lua_State;

namespace ms::lua {

// Makes the shared tables read-only and snapshots the globals chunks start
// from. Runs once, after the sandbox and every global the host adds
// (moonstack), before any module loads.
void SealSharedTables(lua_State* L);

// Pushes a new globals table for one chunk: a copy of the sealed globals,
// with _G itself. A copy rather than an __index to them: a global read stays
// one plain table lookup.
void PushChunkGlobals(lua_State* L);

}  // namespace ms::lua
