#include "stack/provider_log_format.h"

#include "run/clock.h"

namespace ms {

std::string FormatProviderLogLine(const ProviderLogRecord& l, bool with_detail) {
  std::string out = FormatTimestamp(l.timestamp_ms);
  out += ' ';
  out += l.stack_name;
  out += ' ';
  out += l.logical_id.empty() ? "-" : l.logical_id;
  out += ' ';
  out += l.hook.empty() ? "-" : l.hook;
  out += ' ';
  out += LogLevelName(l.level);
  out += ' ';
  out += l.message;
  if (with_detail && !l.detail.empty()) {
    out += '\n';
    out += l.detail;
  }
  return out;
}

}  // namespace ms
