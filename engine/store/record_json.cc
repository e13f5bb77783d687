#include "store/record_json.h"

#include "template/parse.h"

namespace ms::record_json {

std::string GetStr(const Value& m, std::string_view key) {
  const Value* v = m.find(key);
  return v != nullptr ? v->str() : std::string();
}

int64_t GetInt(const Value& m, std::string_view key) {
  const Value* v = m.find(key);
  return v != nullptr ? v->as_integer().value_or(0) : 0;
}

bool GetBool(const Value& m, std::string_view key) {
  const Value* v = m.find(key);
  return v != nullptr && v->is_bool() && v->as_bool();
}

const Value& GetList(const Value& m, std::string_view key) {
  static const Value kEmpty = Value::MakeList();
  const Value* v = m.find(key);
  return v != nullptr && v->is_list() ? *v : kEmpty;
}

std::vector<std::string> GetStrings(const Value& m, std::string_view key) {
  std::vector<std::string> out;
  for (const Value& s : GetList(m, key).list()) out.push_back(s.str());
  return out;
}

Value TakeValue(Value* m, std::string_view key) {
  Value* v = m->find(key);
  return v != nullptr ? std::move(*v) : Value();
}

Status ParseRow(const std::string& json, const char* what, Value* out) {
  Status s = ParseJson(json, out);
  if (!s.ok() || !out->is_map()) return Status::Internal(std::string("store: corrupt ") + what + ": " + s.message());
  return Status::OK();
}

Status ForEachRow(Statement* st, int data_column, const char* what, const std::function<void(Value)>& each) {
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) return Status::OK();
    Value v;
    MS_RETURN_IF_ERROR(ParseRow(st->Text(data_column), what, &v));
    each(std::move(v));
  }
}

Value ParametersToValue(const std::vector<StackParameterValue>& params) {
  Value::List out;
  for (const StackParameterValue& p : params) {
    Value pv = Value::MakeMap();
    pv.set("key", Str(p.key));
    pv.set("value", Str(p.value));
    pv.set("no_echo", Value::Bool(p.no_echo));
    pv.set("resolved_value", Str(p.resolved_value));
    out.push_back(std::move(pv));
  }
  return Value::MakeList(std::move(out));
}

std::vector<StackParameterValue> ParametersFromValue(const Value& list) {
  std::vector<StackParameterValue> out;
  for (const Value& p : list.list()) {
    out.push_back({GetStr(p, "key"), GetStr(p, "value"), GetBool(p, "no_echo"), GetStr(p, "resolved_value")});
  }
  return out;
}

Value TagsToValue(const std::vector<StackTag>& tags) {
  Value::List out;
  for (const StackTag& t : tags) {
    Value tv = Value::MakeMap();
    tv.set("key", Str(t.key));
    tv.set("value", Str(t.value));
    out.push_back(std::move(tv));
  }
  return Value::MakeList(std::move(out));
}

std::vector<StackTag> TagsFromValue(const Value& list) {
  std::vector<StackTag> out;
  for (const Value& t : list.list()) out.push_back({GetStr(t, "key"), GetStr(t, "value")});
  return out;
}

}  // namespace ms::record_json
