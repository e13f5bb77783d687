#include "stack/op_common.h"

#include <algorithm>

namespace ms {

std::string JoinNames(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string ScalarText(const Value& v) {
  if (v.is_list()) {
    std::string out;
    for (const Value& item : v.list()) out += (out.empty() ? "" : ",") + item.str();
    return out;
  }
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  if (v.is_map()) return v.ToJson();
  return v.str();
}

std::string NewEventId(std::mt19937_64* rng) {
  // A version-4 UUID's 32 hex digits from two draws (an operation makes
  // thousands of event IDs; a draw per digit showed in its profile).
  static const char* kHex = "0123456789abcdef";
  uint64_t bits[2] = {(*rng)(), (*rng)()};
  char out[36];
  int pos = 0;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out[pos++] = '-';
    unsigned digit = static_cast<unsigned>(bits[i / 16] >> (4 * (i % 16))) & 15u;
    if (i == 12) digit = 4;
    if (i == 16) digit = 8 | (digit & 3);
    out[pos++] = kHex[digit];
  }
  return std::string(out, sizeof out);
}

std::string NewUuid() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  return NewEventId(&rng);
}

StackEvent StackStatusEvent(const StackRecord& s, int64_t now, const std::string& reason) {
  StackEvent e;
  e.event_id = NewUuid();
  e.stack_id = s.id;
  e.stack_name = s.name;
  e.logical_id = s.name;
  e.physical_id = s.id;
  e.type = kStackResourceType;
  e.timestamp_ms = now;
  e.status = StackStatusName(s.status);
  e.reason = reason;
  e.client_request_token = s.client_request_token;
  e.operation_id = s.operation_id;
  return e;
}

}  // namespace ms

namespace ms {

Value StackTagsValue(const std::vector<StackTag>& tags) {
  if (tags.empty()) return Value();
  Value::List list;
  list.reserve(tags.size());
  for (const StackTag& t : tags) {
    list.push_back(Value::MakeMap({{"Key", Value::String(t.key)}, {"Value", Value::String(t.value)}}));
  }
  return Value::MakeList(std::move(list));
}

}  // namespace ms
