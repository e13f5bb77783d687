// Sandbox: the global environment provider code runs in.
//
// Kept from the standard libraries (everything else is removed, not hidden):
//   base: assert error ipairs next pairs pcall rawequal rawget rawset select
//         getmetatable setmetatable tonumber tostring type unpack xpcall _G
//         _VERSION
//   string (without dump), table, math, bit, coroutine,
//   os.time os.clock os.date os.difftime.
// Replaced by the host's versions:
//   load / loadstring   text chunks only; a binary chunk (bytecode can break
//                       out of any sandbox) gets nil + "attempt to load a
//                       binary chunk (mode is 't')". load's env argument works;
//                       without one the chunk gets globals of its own.
//   require / package   Lua modules only, from the configured roots (see
//                       ModuleSearch); package.loaded, package.preload work
//                       (read-only outside Eval code, see below);
//                       package.cpath is empty and there is no loadlib.
//   print               goes to the host's print callback (dropped if none).
//   collectgarbage      "collect", "count" and "step" only: provider code
//                       cannot stop the collector for the next call.
//   string.find / match / gmatch / gsub
//                       the host's pattern matcher (string_lib.h): same
//                       results, but a runaway pattern meets the deadline.
// Isolation (one state serves every provider, handler and stack of a worker;
// isolation.h seals the state once the host's globals are in): each chunk
// has its own globals, and every table chunks share is read-only to all of
// them (readonly.h):
//   globals         a module, a provider file (lua-sdk/moonstack/host.lua)
//                   and a chunk load() makes without an env argument each
//                   start from a copy of the sealed globals; what one sets
//                   only it sees. The state's own globals are the host's:
//                   only Runtime::Eval code runs in them.
//   libraries       string, table, math, os, bit, coroutine, moonstack:
//                   read-only views; `string.format = f` raises "attempt to
//                   modify read-only table string (field 'format')".
//   string methods  getmetatable("") is a read-only { __index = string }:
//                   the metatable LuaJIT reads methods from is out of reach.
//   modules         require returns a read-only view of a module's table
//                   (nested plain tables too); the module's own code keeps
//                   its table. package, package.loaded and package.preload
//                   are read-only outside Eval code; require("_G") is gone.
// Not available: io, debug, ffi, jit, dofile, loadfile, getfenv, setfenv,
// newproxy, module, gcinfo, string.dump, os.execute/exit/remove/rename/
// tmpname/getenv/setlocale.
// The C functions that call back into Lua (string.gsub, string.format,
// table.sort, coroutine.resume / wrap, load, require, print) check the C stack
// budget first (see limits.h).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lua/modules.h"

struct lua_State;

namespace ms::lua {

class Sandbox {
 public:
  Sandbox(std::vector<std::string> module_roots, std::function<void(std::string_view)> print);

  // Opens the safe libraries into L's globals and installs the replacements.
  // Runs once per state, in protected mode. `this` must outlive L.
  void Install(lua_State* L);


  // Forgets which modules were being loaded: a call that failed while loading
  // a module leaves it marked, and the next call may try it again.
  void ResetLoading() { loading_.clear(); }

  const ModuleSearch& modules() const { return modules_; }

 private:
  static int Require(lua_State* L);
  static int Print(lua_State* L);

  ModuleSearch modules_;
  std::function<void(std::string_view)> print_;
  std::vector<std::string> loading_;  // modules whose loader is running
};

}  // namespace ms::lua
