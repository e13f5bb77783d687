// Read-only views: how one lua_State's shared tables (the libraries, the
// modules `require` hands out, package.loaded) are shared between providers
// without one of them being able to change what the others see.
//
// A view is an empty table whose metatable reads through to the viewed
// table and refuses every write:
//   view.x            the table's x; a plain table (one without a metatable)
//                     comes back as a view of it, so a module's nested data
//                     is read-only too
//   view.x = v        "attempt to modify read-only table <name> (field 'x')"
//   getmetatable(v)   false; setmetatable(v, mt) "cannot change a protected
//                     metatable"
// One table has one view while the view is alive (views compare equal).
// Reads cost no C call: a view's first read builds its read table (the
// views of the table's plain-table fields, falling through to the table
// itself), and later reads are LuaJIT's __index chain. Fields that are not
// tables are read live; a plain-table field the table gains or replaces
// after that first read is not seen as a view (modules set their tables'
// fields when they load, not later).
// The functions that read or write tables raw are replaced by ones that
// know views (InstallViewAwareFunctions): next, pairs, ipairs, rawget,
// unpack, table.concat/maxn/getn/foreach/foreachi/move read through a view;
// rawset, table.insert/remove/sort and a move into a view refuse it.
// `#view` is 0 (LuaJIT ignores __len on tables): iterate with ipairs.
//
// C code that reads tables raw (marshal, world.put) calls ReadThroughView.
#pragma once

struct lua_State;

namespace ms::lua {

// Pushes the read-only view of the table at `idx`, named `name` in errors.
// Any table: a table with a metatable keeps its behaviour for reads (its
// __index applies), not for calls or operators.
void PushView(lua_State* L, int idx, const char* name);

// Pushes the view of the value at `idx` when it is a plain table (no
// metatable), else the value itself: what code reading through a view, or
// `require`, hands out.
void PushViewIfPlain(lua_State* L, int idx, const char* name);

// True when the value at `idx` is a view.
bool IsView(lua_State* L, int idx);

// When the value at `idx` is a view, replaces it in place by the table it
// views. For C code that reads tables raw.
void ReadThroughView(lua_State* L, int idx);

// Raises "attempt to modify read-only table <name>" when the value at `idx`
// is a view: for C functions that write into a table argument.
void RefuseView(lua_State* L, int idx);

// Replaces next, pairs, ipairs, rawget, rawset, unpack (globals) and the
// table library's functions by their view-aware versions, and adds
// moonstack.freeze(t [, name]) -> view. Runs once, before the globals and
// libraries are viewed (sandbox.cc).
void InstallViewAwareFunctions(lua_State* L);

}  // namespace ms::lua
