// HookLog: the log of one provider hook call, as the session running it
// collects it — ctx.log's lines (lua/log_binding.h) and print's (INFO) —
// and the line a failed hook adds: its error at the provider's file:line,
// the Lua traceback as the line's detail (shown with --debug). The engine
// stamps the lines and stores them with the stack (store/provider_log_table.h).
//
// Bounded: kProviderLogMaxLines lines per call (the rest only counted, the
// engine says "... N lines dropped"), a line's text cut past
// kProviderLogMaxLineBytes (the engine cuts it at a character).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lua/error.h"
#include "lua/provider_host.h"
#include "provider/provider.h"

namespace ms::lua {

class HookLog {
 public:
  explicit HookLog(ProviderPaths paths) : paths_(std::move(paths)) {}

  // Forgets every line.
  void Clear();
  // The lines from now on are written by `function` ("validate",
  // "decide_update") about `logical_id`; Begin("", "") for a hook's own.
  // Lines kept from before stay: a hook's outcome carries what Validate and
  // DecideUpdate wrote before it, each line naming its function.
  void Begin(std::string function, std::string logical_id);
  // A line the running hook (or function) wrote.
  void Append(LogLevel level, std::string_view text);
  // The hook failed with `e`: a runtime error (a bug: ERROR) or P.fail's
  // deliberate failure (WARN), "<file>:<line>: <message> (<code>)". Kept past
  // the cap: it says why the hook failed.
  void AppendError(const LuaError& e);
  // Hands the lines (and the dropped count) to the hook's outcome; clears.
  void MoveInto(HookOutcome* o);
  // Appends the lines to *lines, adds the dropped count to *dropped; clears.
  void MoveInto(std::vector<ProviderLogLine>* lines, int64_t* dropped);

 private:
  // The provider's position of an error: where it was raised when that is a
  // provider's file, else (raised inside the lua-sdk, P.fail's error()) the
  // innermost provider frame of the traceback; relative to its directory.
  std::string ProviderPosition(const LuaError& e) const;
  // "providers/aws/x.lua:42" -> "aws/x.lua:42": relative to the provider
  // directory (or the lua-sdk) holding the file, as a provider's author names it.
  std::string Relative(const std::string& position) const;
  bool InSdk(const std::string& position) const;

  ProviderPaths paths_;
  std::vector<ProviderLogLine> lines_;
  int64_t dropped_ = 0;
  std::string function_, logical_id_;  // Begin's: what the next lines are stamped with
};

}  // namespace ms::lua
