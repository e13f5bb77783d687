#include "server/aws_wire.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace ms::server {
namespace {

const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

std::tm Utc(double epoch_seconds) {
  std::time_t t = static_cast<std::time_t>(std::floor(epoch_seconds));
  std::tm tm{};
  gmtime_r(&t, &tm);
  return tm;
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t n = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += kAlphabet[(n >> 6) & 63];
    out += kAlphabet[n & 63];
  }
  if (i < bytes.size()) {
    uint32_t n = uint8_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= uint8_t(bytes[i + 1]) << 8;
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  size_t padding = 0;
  for (char c : text) {
    if (c == '=') {
      ++padding;
      continue;
    }
    if (c == '\n' || c == '\r') continue;
    const int v = Sextet(c);
    if (v < 0 || padding > 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  if (padding > 2) return std::nullopt;
  return out;
}

std::optional<double> ParseTimestamp(std::string_view text) {
  const std::string s(text);
  int y, mo, d, h, mi;
  double sec;
  char tail[8] = {0};
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%7s", &y, &mo, &d, &h, &mi, &sec, tail) >= 6) {
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    return static_cast<double>(timegm(&tm)) + sec;
  }
  char* end = nullptr;
  const double n = std::strtod(s.c_str(), &end);
  if (!s.empty() && end != nullptr && *end == '\0') return n;
  char day[4], month[4];
  if (std::sscanf(s.c_str(), "%3s, %2d %3s %4d %2d:%2d:%lf", day, &d, month, &y, &h, &mi, &sec) == 7) {
    for (int m = 0; m < 12; ++m) {
      if (std::strcmp(month, kMonths[m]) != 0) continue;
      std::tm tm{};
      tm.tm_year = y - 1900;
      tm.tm_mon = m;
      tm.tm_mday = d;
      tm.tm_hour = h;
      tm.tm_min = mi;
      return static_cast<double>(timegm(&tm)) + sec;
    }
  }
  return std::nullopt;
}

std::string IsoTimestamp(double epoch_seconds) {
  std::tm tm = Utc(epoch_seconds);
  const int ms = static_cast<int>(std::lround((epoch_seconds - std::floor(epoch_seconds)) * 1000)) % 1000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

std::string HttpDateTimestamp(double epoch_seconds) {
  std::tm tm = Utc(epoch_seconds);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s, %02d %s %04d %02d:%02d:%02d GMT", kDays[tm.tm_wday], tm.tm_mday,
                kMonths[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string FormatTimestamp(std::string_view text, const std::string& format) {
  std::optional<double> t = ParseTimestamp(text);
  if (!t) return std::string(text);
  if (format == "unixTimestamp") {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", *t);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
  }
  if (format == "rfc822") return HttpDateTimestamp(*t);
  return IsoTimestamp(*t);
}

std::string PercentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '+' && plus_is_space) {
      out += ' ';
    } else if (c == '%' && i + 2 < s.size() && Hex(s[i + 1]) >= 0 && Hex(s[i + 2]) >= 0) {
      out += static_cast<char>(Hex(s[i + 1]) * 16 + Hex(s[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace ms::server
