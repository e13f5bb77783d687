// Internal to engine/template: checks shared by the JSON and YAML parsers, so
// both reject the same duplicate keys and the same malformed UTF-8.
#pragma once

#include <cstddef>
#include <string>
#include <unordered_set>

#include "template/value.h"

namespace ms::parse_internal {

// Finds duplicate keys while a map is built: a linear scan for the small maps
// templates are made of, a hash set once a map grows large (a Resources section
// can hold thousands of members, and a linear scan would be quadratic).
// One per map under construction.
class DuplicateKeys {
 public:
  // True if `key` is already a key of `members` (which must not hold it yet).
  // Records `key` either way.
  bool Seen(const Value::Map& members, const std::string& key);

 private:
  static constexpr size_t kLinearLimit = 16;
  std::unordered_set<std::string> index_;
};

// Length of the well-formed UTF-8 sequence at p (p < end, *p >= 0x80), or 0.
// Rejects overlong forms, surrogates and code points above U+10FFFF.
size_t Utf8SequenceLength(const unsigned char* p, const unsigned char* end);

}  // namespace ms::parse_internal
