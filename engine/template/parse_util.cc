#include "template/parse_util.h"

#include <cstdint>

namespace ms::parse_internal {

bool DuplicateKeys::Seen(const Value::Map& members, const std::string& key) {
  if (index_.empty()) {
    for (const Member& m : members) {
      if (m.key == key) return true;
    }
    if (members.size() < kLinearLimit) return false;
    for (const Member& m : members) index_.insert(m.key);
  }
  return !index_.insert(key).second;
}

size_t Utf8SequenceLength(const unsigned char* p, const unsigned char* end) {
  unsigned char c = p[0];
  size_t len;
  uint32_t min;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2, min = 0x80, cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3, min = 0x800, cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (static_cast<size_t>(end - p) < len) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace ms::parse_internal
