// A log line's level: the provider log's (ctx.log.debug/info/warn/error,
// store/provider_log_table.h), low enough that a hook's answer
// (provider/provider.h) and the stored record (records/provider_log.h) share it.
#pragma once

#include <string_view>

namespace ms {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };
const char* LogLevelName(LogLevel level);  // "DEBUG", "INFO", "WARN", "ERROR"
bool ParseLogLevel(std::string_view name, LogLevel* out);

}  // namespace ms
