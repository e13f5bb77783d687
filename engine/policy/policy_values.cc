#include "policy/policy_values.h"

#include <cctype>
#include <optional>

namespace ms {

bool ReadPolicyBool(const Value& v, bool* out) {
  if (v.is_bool()) {
    *out = v.as_bool();
    return true;
  }
  if (!v.is_string()) return false;
  std::string s = v.str();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s != "true" && s != "false") return false;
  *out = s == "true";
  return true;
}

bool ReadPolicyInteger(const Value& v, int64_t* out) {
  const std::optional<int64_t> n = v.as_integer();
  if (!n) return false;
  *out = *n;
  return true;
}

bool ParseSignalDuration(const std::string& text, int64_t* seconds) {
  if (text.size() < 3 || text[0] != 'P' || text[1] != 'T') return false;
  int64_t total = 0;
  size_t i = 2;
  const std::string units = "HMS";
  size_t next_unit = 0;  // H, M, S in that order, each at most once
  while (i < text.size()) {
    size_t start = i;
    int64_t n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      n = n * 10 + (text[i] - '0');
      if (n > 1000000000) return false;
      ++i;
    }
    if (i == start || i == text.size()) return false;
    const size_t unit = units.find(text[i], next_unit);
    if (unit == std::string::npos) return false;
    total += n * (unit == 0 ? 3600 : unit == 1 ? 60 : 1);
    next_unit = unit + 1;
    ++i;
  }
  *seconds = total;
  return true;
}

}  // namespace ms
