// LogBinding: the `moonstack.host_log` module, through which lua-sdk's host
// logger (moonstack/host.lua, the `ctx.log` every hook gets) hands a line to
// the session that runs the hook:
//
//   write(level, text)   level: "DEBUG", "INFO", "WARN" or "ERROR"
//
// `print` reaches the same session through RuntimeOptions::print (INFO).
// Provider code uses ctx.log (or P.log(ctx)), never this module.
#pragma once

#include <functional>
#include <memory>
#include <string_view>

#include "base/status.h"
#include "provider/provider.h"

namespace ms::lua {

class Runtime;

class LogBinding {
 public:
  using Sink = std::function<void(LogLevel, std::string_view)>;
  // Installs package.loaded["moonstack.host_log"] into `rt`. The binding
  // must outlive the Runtime's use of the module.
  static Status Install(Runtime* rt, Sink sink, std::unique_ptr<LogBinding>* out);

  void Write(LogLevel level, std::string_view text) const { sink_(level, text); }

 private:
  explicit LogBinding(Sink sink) : sink_(std::move(sink)) {}
  Sink sink_;
};

}  // namespace ms::lua
