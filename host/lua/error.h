// LuaError: why a call into Lua failed, split the way its readers need it.
//
// `message` is what AWS shows (it becomes a ResourceStatusReason): the
// provider's text without a "file:line:" prefix. Providers raise AWS's
// messages as tables `{ message = "...", code = "..." }` (the SDK's P.fail);
// plain strings work too. `location` and `traceback` are diagnostics for logs.
// The model is Redis's script_lua.c, which turns a Lua error (string or table
// with an `err` field) into a host error plus the script's position.
#pragma once

#include <string>

#include "base/status.h"

struct lua_State;

namespace ms::lua {

// Chunk name of the host's own Lua code (the sandbox's wrappers). Error
// positions never point there: CaptureError skips its frames when it looks
// for the provider's file:line.
inline constexpr const char* kHostChunkName = "=[moonstack]";

enum class LuaErrorKind {
  kError,          // the provider raised an error (or a runtime error happened)
  kDeadline,       // the call ran past its deadline
  kMemory,         // the state reached its memory cap
  kStackOverflow,  // Lua or C stack exhausted
  kMarshal,        // a value could not cross between Lua and the engine
  kInternal,       // a moonstack bug (e.g. error in the error handler)
};

const char* LuaErrorKindName(LuaErrorKind k);

struct LuaError {
  LuaErrorKind kind = LuaErrorKind::kError;
  std::string message;    // AWS-facing text, no position
  std::string code;       // the error table's `code`, or empty
  std::string location;   // "providers/aws/ec2/subnet.lua:42", or empty
  std::string traceback;  // "stack traceback:\n\t...", or empty
  bool raised_table = false;  // the error object was a table: P.fail's deliberate failure, not a bug

  // "location: message (code)\nstack traceback:..." for logs.
  std::string Diagnostic() const;
  // A Status whose message is Diagnostic(). Provider failures are
  // Validation (the provider's/user's fault), kInternal stays Internal.
  Status ToStatus() const;
};

// The message handler lua_pcall runs when an error unwinds: records the error
// object's message and code, the innermost Lua position and a traceback into
// the LuaError whose address is the closure's upvalue 1, and returns the error
// object unchanged. Reads tables raw: no provider code runs in the handler.
int CaptureError(lua_State* L);

}  // namespace ms::lua
