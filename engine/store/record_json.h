// How the store's tables write records as JSON `data` columns and read them
// back: field accessors that tolerate absent members (records written by an
// older moonstack), and the parts stacks and change sets share (parameters,
// tags).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "records/stack.h"
#include "store/database.h"
#include "template/value.h"

namespace ms::record_json {

inline Value Str(const std::string& s) { return Value::String(s); }

// A member's value, or "" / 0 / false / an empty list when absent.
std::string GetStr(const Value& m, std::string_view key);
int64_t GetInt(const Value& m, std::string_view key);
bool GetBool(const Value& m, std::string_view key);
const Value& GetList(const Value& m, std::string_view key);
std::vector<std::string> GetStrings(const Value& m, std::string_view key);
// Moves the member out (for a row's parsed JSON that is not used again).
Value TakeValue(Value* m, std::string_view key);

// A row's `data` column: a JSON object, else "store: corrupt <what>".
Status ParseRow(const std::string& json, const char* what, Value* out);

// Steps `st` to its end, handing each row's parsed `data` (column
// `data_column`) to `each`, which may read the row's other columns.
Status ForEachRow(Statement* st, int data_column, const char* what, const std::function<void(Value)>& each);

// Writes a row's JSON object straight into `out`, with no Value built on
// the way (checkpoints write thousands of rows). The *IfAny members leave
// out an empty string or a null: the readers above take an absent member as
// exactly that, so rows stay small.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string* out) : out_(out) { out_->push_back('{'); }
  ~ObjectWriter() { out_->push_back('}'); }
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;

  void Str(const char* name, std::string_view v) {
    Name(name);
    AppendJsonQuoted(out_, v);
  }
  void StrIfAny(const char* name, std::string_view v) {
    if (!v.empty()) Str(name, v);
  }
  void Int(const char* name, int64_t v) {
    Name(name);
    *out_ += std::to_string(v);
  }
  void Json(const char* name, const Value& v) {
    Name(name);
    v.AppendJsonTo(out_);
  }
  void JsonIfAny(const char* name, const Value& v) {
    if (!v.is_null()) Json(name, v);
  }

 private:
  void Name(const char* name) {
    if (!first_) out_->push_back(',');
    first_ = false;
    out_->push_back('"');
    *out_ += name;
    *out_ += "\":";
  }
  std::string* out_;
  bool first_ = true;
};

Value ParametersToValue(const std::vector<StackParameterValue>& params);
std::vector<StackParameterValue> ParametersFromValue(const Value& list);
Value TagsToValue(const std::vector<StackTag>& tags);
std::vector<StackTag> TagsFromValue(const Value& list);

}  // namespace ms::record_json
