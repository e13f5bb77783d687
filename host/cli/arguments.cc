#include "cli/arguments.h"

#include "cli/io.h"

namespace ms::cli {
namespace {

// "A=1,B=x\,y" -> {{"A","1"},{"B","x,y"}}
Status SplitShorthand(const std::string& arg, std::vector<std::pair<std::string, std::string>>* out) {
  std::string key, value, *cur = &key;
  auto flush = [&]() -> Status {
    if (key.empty()) return Status::Validation("Error parsing parameter: Expected: '=', received: ',' for input: " + arg);
    out->emplace_back(key, value);
    key.clear();
    value.clear();
    cur = &key;
    return Status::OK();
  };
  for (size_t i = 0; i < arg.size(); ++i) {
    const char c = arg[i];
    if (c == '\\' && i + 1 < arg.size()) {
      *cur += arg[++i];
    } else if (c == '=' && cur == &key) {
      cur = &value;
    } else if (c == ',' && cur == &value) {
      MS_RETURN_IF_ERROR(flush());
    } else {
      *cur += c;
    }
  }
  if (cur != &value) return Status::Validation("Error parsing parameter: Expected: '=', received: EOF for input: " + arg);
  return flush();
}

Status ReadArg(const std::string& arg, std::string* text) {
  if (arg.rfind("file://", 0) == 0) return ReadFile(arg.substr(7), text);
  *text = arg;
  return Status::OK();
}

bool LooksJson(const std::string& s) {
  size_t i = s.find_first_not_of(" \t\r\n");
  return i != std::string::npos && (s[i] == '[' || s[i] == '{');
}

Status ParseJsonList(const std::string& text, Json* out) {
  try {
    *out = Json::parse(text);
  } catch (const std::exception& e) {
    return Status::Validation(std::string("Error parsing parameter: Invalid JSON: ") + e.what());
  }
  if (out->is_object()) *out = Json::array({*out});
  if (!out->is_array()) return Status::Validation("Error parsing parameter: expected a JSON list");
  return Status::OK();
}

Status ParameterFromJson(const Json& j, std::vector<ParameterInput>* out) {
  if (!j.is_object() || !j.contains("ParameterKey") || !j["ParameterKey"].is_string()) {
    return Status::Validation("Error parsing parameter: each parameter needs a ParameterKey");
  }
  ParameterInput p;
  p.key = j["ParameterKey"].get<std::string>();
  if (j.contains("ParameterValue")) {
    const Json& v = j["ParameterValue"];
    p.value = v.is_string() ? v.get<std::string>() : v.dump();
  }
  if (j.contains("UsePreviousValue")) {
    const Json& u = j["UsePreviousValue"];
    p.use_previous_value = u.is_boolean() ? u.get<bool>() : (u.is_string() && u.get<std::string>() == "true");
  }
  out->push_back(std::move(p));
  return Status::OK();
}

}  // namespace

Status ParseParameters(const std::vector<std::string>& args, std::vector<ParameterInput>* out) {
  for (const std::string& arg : args) {
    std::string text;
    MS_RETURN_IF_ERROR(ReadArg(arg, &text));
    if (LooksJson(text)) {
      Json list;
      MS_RETURN_IF_ERROR(ParseJsonList(text, &list));
      for (const Json& j : list) MS_RETURN_IF_ERROR(ParameterFromJson(j, out));
      continue;
    }
    std::vector<std::pair<std::string, std::string>> fields;
    MS_RETURN_IF_ERROR(SplitShorthand(text, &fields));
    Json j = Json::object();
    for (const auto& [k, v] : fields) {
      if (k != "ParameterKey" && k != "ParameterValue" && k != "UsePreviousValue" && k != "ResolvedValue") {
        return Status::Validation("Parameter validation failed:\nUnknown parameter in Parameters[0]: \"" + k +
                                  "\", must be one of: ParameterKey, ParameterValue, UsePreviousValue, ResolvedValue");
      }
      j[k] = v;
    }
    MS_RETURN_IF_ERROR(ParameterFromJson(j, out));
  }
  return Status::OK();
}

Status ParseParameterOverrides(const std::vector<std::string>& args, std::vector<ParameterInput>* out) {
  for (const std::string& arg : args) {
    std::string text;
    MS_RETURN_IF_ERROR(ReadArg(arg, &text));
    if (LooksJson(text)) {
      Json list;
      MS_RETURN_IF_ERROR(ParseJsonList(text, &list));
      for (const Json& j : list) MS_RETURN_IF_ERROR(ParameterFromJson(j, out));
      continue;
    }
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::Validation("['" + text + "'] value passed to --parameter-overrides must be of format Key=Value");
    }
    ParameterInput p;
    p.key = text.substr(0, eq);
    p.value = text.substr(eq + 1);
    out->push_back(std::move(p));
  }
  return Status::OK();
}

Status ParseTags(const std::vector<std::string>& args, std::vector<StackTag>* out) {
  for (const std::string& arg : args) {
    std::string text;
    MS_RETURN_IF_ERROR(ReadArg(arg, &text));
    if (LooksJson(text)) {
      Json list;
      MS_RETURN_IF_ERROR(ParseJsonList(text, &list));
      for (const Json& j : list) {
        if (!j.is_object() || !j.contains("Key")) return Status::Validation("Error parsing parameter: each tag needs a Key");
        out->push_back({j["Key"].get<std::string>(), j.value("Value", std::string())});
      }
      continue;
    }
    std::vector<std::pair<std::string, std::string>> fields;
    MS_RETURN_IF_ERROR(SplitShorthand(text, &fields));
    StackTag t;
    for (const auto& [k, v] : fields) {
      if (k == "Key") t.key = v;
      else if (k == "Value") t.value = v;
      else return Status::Validation("Parameter validation failed:\nUnknown parameter in Tags[0]: \"" + k +
                                     "\", must be one of: Key, Value");
    }
    out->push_back(std::move(t));
  }
  return Status::OK();
}

Status ParseResourcesToImport(const std::string& arg, std::vector<ResourceToImport>* out) {
  std::string text;
  MS_RETURN_IF_ERROR(ReadArg(arg, &text));
  Json list;
  MS_RETURN_IF_ERROR(ParseJsonList(text, &list));
  for (size_t i = 0; i < list.size(); ++i) {
    const Json& j = list[i];
    const std::string where = "ResourcesToImport[" + std::to_string(i) + "]";
    for (const char* key : {"ResourceType", "LogicalResourceId", "ResourceIdentifier"}) {
      if (!j.is_object() || !j.contains(key)) {
        return Status::Validation("Parameter validation failed:\nMissing required parameter in " + where + ": \"" +
                                  key + "\"");
      }
    }
    ResourceToImport r;
    if (!j["ResourceType"].is_string() || !j["LogicalResourceId"].is_string() ||
        !j["ResourceIdentifier"].is_object()) {
      return Status::Validation("Parameter validation failed:\nInvalid type for parameter " + where +
                                ": ResourceType and LogicalResourceId are strings, ResourceIdentifier a map");
    }
    r.resource_type = j["ResourceType"].get<std::string>();
    r.logical_id = j["LogicalResourceId"].get<std::string>();
    for (const auto& [key, value] : j["ResourceIdentifier"].items()) {
      if (!value.is_string()) {
        return Status::Validation("Parameter validation failed:\nInvalid type for parameter " + where +
                                  ".ResourceIdentifier." + key + ", value: " + value.dump() +
                                  ", valid types: <class 'str'>");
      }
      r.identifier.emplace_back(key, value.get<std::string>());
    }
    out->push_back(std::move(r));
  }
  return Status::OK();
}

}  // namespace ms::cli
