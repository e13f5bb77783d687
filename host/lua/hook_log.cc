#include "lua/hook_log.h"

#include <algorithm>
#include <cctype>

namespace ms::lua {
namespace {

bool StartsWithDir(const std::string& path, std::string dir) {
  if (dir.empty()) return false;
  if (dir.back() != '/') dir.push_back('/');
  return path.compare(0, dir.size(), dir) == 0;
}

// "file:42" from a traceback frame "\tfile:42: in function 'fn'"; empty for
// a frame without a Lua position ("[C]: in function 'error'", "...") or
// in the host's own chunks ("[moonstack]:3").
std::string FramePosition(std::string_view frame) {
  const size_t in = frame.find(": in ");
  std::string_view pos = frame.substr(0, in);
  if (pos.empty() || pos[0] == '[') return "";
  const size_t colon = pos.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == pos.size()) return "";
  for (size_t i = colon + 1; i < pos.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(pos[i]))) return "";
  }
  return std::string(pos);
}

// How much of `position` names `dir`: its length with the '/', 0 when the
// file is not under it. Lua cuts a long path to its last 60 or so characters
// ("...viders/aws/x.lua:3"): then at least 8 characters of the end of `dir`.
size_t DirPrefix(const std::string& position, std::string dir) {
  if (dir.empty()) return 0;
  if (dir.back() != '/') dir.push_back('/');
  if (position.rfind("...", 0) != 0) return StartsWithDir(position, dir) ? dir.size() : 0;
  const size_t text = 3;  // after "..."
  for (size_t n = std::min(dir.size(), position.size() - text); n >= 8; --n) {
    if (position.compare(text, n, dir, dir.size() - n, n) == 0) return text + n;
  }
  return 0;
}

}  // namespace

void HookLog::Clear() {
  lines_.clear();
  dropped_ = 0;
}

void HookLog::Begin(std::string function, std::string logical_id) {
  function_ = std::move(function);
  logical_id_ = std::move(logical_id);
}

void HookLog::Append(LogLevel level, std::string_view text) {
  if (lines_.size() >= kProviderLogMaxLines) {
    ++dropped_;
    return;
  }
  ProviderLogLine line;
  line.level = level;
  line.function = function_;
  line.logical_id = logical_id_;
  line.message.assign(text.substr(0, kProviderLogMaxLineBytes + 1));
  lines_.push_back(std::move(line));
}

void HookLog::AppendError(const LuaError& e) {
  ProviderLogLine line;
  const bool deliberate = e.kind == LuaErrorKind::kError && e.raised_table;
  line.level = deliberate ? LogLevel::kWarn : LogLevel::kError;
  const std::string where = ProviderPosition(e);
  line.message = where.empty() ? e.message : where + ": " + e.message;
  if (!e.code.empty()) line.message += " (" + e.code + ")";
  line.detail = e.traceback;
  line.failure = true;
  lines_.push_back(std::move(line));
}

void HookLog::MoveInto(HookOutcome* o) {
  o->log = std::move(lines_);
  o->log_dropped = dropped_;
  Clear();
}

void HookLog::MoveInto(std::vector<ProviderLogLine>* lines, int64_t* dropped) {
  for (ProviderLogLine& line : lines_) lines->push_back(std::move(line));
  *dropped += dropped_;
  Clear();
}

std::string HookLog::ProviderPosition(const LuaError& e) const {
  if (!e.location.empty() && !InSdk(e.location)) return Relative(e.location);
  size_t at = 0;
  while ((at = e.traceback.find("\n\t", at)) != std::string::npos) {
    at += 2;
    const size_t end = e.traceback.find('\n', at);
    const std::string pos = FramePosition(std::string_view(e.traceback).substr(at, end - at));
    if (!pos.empty() && !InSdk(pos)) return Relative(pos);
  }
  return Relative(e.location);
}

bool HookLog::InSdk(const std::string& position) const { return DirPrefix(position, paths_.sdk_dir) > 0; }

std::string HookLog::Relative(const std::string& position) const {
  size_t best = 0;
  for (const std::string& d : paths_.dirs) best = std::max(best, DirPrefix(position, d));
  best = std::max(best, DirPrefix(position, paths_.sdk_dir));
  return best == 0 ? position : position.substr(best);
}

}  // namespace ms::lua
