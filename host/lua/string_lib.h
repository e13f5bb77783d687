// string.find, string.match, string.gmatch and string.gsub on the host's
// pattern matcher (lua_pattern.h), which checks the call's deadline every
// kPatternStepsPerCheck steps: LuaJIT's own versions match in C, where the
// count hook never fires, so one pathological pattern could hold a worker
// for as long as it backtracks.
//
// Same results and errors as LuaJIT 2.1's (init clamping, plain find, empty
// matches in gsub/gmatch, replacement strings, "invalid capture index"...).
// Differences: a match past the deadline raises the deadline abort (see
// limits.h CheckDeadline); gsub checks the C-stack budget first, since its
// function and table replacements call back into Lua.
#pragma once

struct lua_State;

namespace ms::lua {

// Sets find, match, gmatch and gsub in the table at `string_table`. Strings'
// methods (s:find) see them too: the string metatable's __index is that
// table. Works in any state; the deadline applies inside a Runtime call.
void InstallPatternFunctions(lua_State* L, int string_table);

// moonstack.utf8_len(s): the number of characters of a UTF-8 string (its
// bytes that are not continuation bytes 0x80-0xBF), as AWS counts length
// limits. lua-sdk's values.utf8_len uses it when present: counting with
// gsub went through the matcher byte by byte, and tag checks count every
// tag (the aws:cloudformation:stack-id value is ~100 bytes) for every
// resource.
int Utf8Len(lua_State* L);

}  // namespace ms::lua
