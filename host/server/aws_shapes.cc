#include "server/aws_shapes.h"

#include <cstdlib>

#include "server/aws_wire.h"

namespace ms::server {

const ModelJson& ShapeOf(const ServiceModel& m, const ShapeRef& ref) {
  static const ModelJson kEmpty = ModelJson::object();
  auto it = ref.find("shape");
  if (it == ref.end() || !it->is_string()) return kEmpty;
  const ModelJson* s = m.Shape(it->get<std::string>());
  return s != nullptr ? *s : kEmpty;
}

std::string RefString(const ShapeRef& ref, const char* key) {
  auto it = ref.find(key);
  return it != ref.end() && it->is_string() ? it->get<std::string>() : std::string();
}

namespace {

bool IsNumber(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return *end == '\0' && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
}

bool Flag(const ModelJson& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::string TypeOf(const ModelJson& shape) { return RefString(shape, "type"); }

// A member's or element's XML name: its locationName, else `fallback`.
std::string XmlName(const ShapeRef& ref, const std::string& fallback) {
  std::string name = RefString(ref, "locationName");
  return name.empty() ? fallback : name;
}

}  // namespace

Value ScalarFromText(const std::string& type, const std::string& text, bool base64_blobs) {
  if (type == "boolean") return Value::Bool(text == "true");
  if (type == "integer" || type == "long" || type == "double" || type == "float") {
    return IsNumber(text) ? Value::Number(text) : Value::String(text);
  }
  if (type == "blob" && base64_blobs) {
    std::optional<std::string> bytes = Base64Decode(text);
    return Value::String(bytes ? *bytes : text);
  }
  if (type == "timestamp") {
    std::optional<double> t = ParseTimestamp(text);
    return Value::String(t ? IsoTimestamp(*t) : text);
  }
  return Value::String(text);
}

std::string ScalarToText(const std::string& type, const Value& v, bool base64_blobs,
                         const std::string& timestamp_format) {
  if (v.is_bool()) return v.as_bool() ? "true" : "false";
  const std::string text = v.scalar_text();
  if (type == "blob" && base64_blobs) return Base64Encode(text);
  if (type == "timestamp") return FormatTimestamp(text, timestamp_format.empty() ? "iso8601" : timestamp_format);
  return text;
}

// Query forms --------------------------------------------------------------------------------

namespace {

struct FormReader {
  const ServiceModel& m;
  const std::map<std::string, std::string>& form;
  bool ec2;

  bool HasPrefix(const std::string& prefix) const {
    auto it = form.lower_bound(prefix);
    return it != form.end() && it->first.compare(0, prefix.size(), prefix) == 0;
  }
  // Anything at `key` itself or under "key.".
  bool Present(const std::string& key) const { return form.count(key) != 0 || HasPrefix(key + "."); }

  std::string MemberName(const ShapeRef& ref, const std::string& name) const {
    if (ec2) {
      std::string q = RefString(ref, "queryName");
      if (!q.empty()) return q;
      std::string l = RefString(ref, "locationName");
      if (!l.empty()) {
        l[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(l[0])));
        return l;
      }
      return name;
    }
    return XmlName(ref, name);
  }

  Value Struct(const ModelJson& shape, const std::string& prefix) const {
    Value out = Value::MakeMap();
    auto members = shape.find("members");
    if (members == shape.end()) return out;
    for (auto& [name, ref] : members->items()) {
      const std::string key = (prefix.empty() ? "" : prefix + ".") + MemberName(ref, name);
      if (!Present(key)) continue;
      out.mutable_map().push_back(Member{name, Read(ref, key)});
    }
    return out;
  }

  Value Read(const ShapeRef& ref, const std::string& key) const {
    const ModelJson& shape = ShapeOf(m, ref);
    const std::string type = TypeOf(shape);
    if (type == "structure") return Struct(shape, key);
    if (type == "list") {
      const ShapeRef& member = shape["member"];
      std::string items = key;
      if (!ec2 && !(Flag(ref, "flattened") || Flag(shape, "flattened"))) items += "." + XmlName(member, "member");
      Value list = Value::MakeList();
      for (int i = 1;; ++i) {
        const std::string item = items + "." + std::to_string(i);
        if (!Present(item)) break;
        list.mutable_list().push_back(Read(member, item));
      }
      return list;
    }
    if (type == "map") {
      const bool flat = Flag(ref, "flattened") || Flag(shape, "flattened");
      const std::string entries = flat ? key : key + ".entry";
      const std::string k = XmlName(shape["key"], "key"), v = XmlName(shape["value"], "value");
      Value map = Value::MakeMap();
      for (int i = 1;; ++i) {
        const std::string entry = entries + "." + std::to_string(i);
        auto found = form.find(entry + "." + k);
        if (found == form.end()) break;
        map.mutable_map().push_back(Member{found->second, Read(shape["value"], entry + "." + v)});
      }
      return map;
    }
    auto it = form.find(key);
    return ScalarFromText(type, it == form.end() ? "" : it->second, true);
  }
};

}  // namespace

Value ReadQueryForm(const ServiceModel& m, const ModelJson& shape, const std::map<std::string, std::string>& form,
                    bool ec2) {
  return FormReader{m, form, ec2}.Struct(shape, "");
}

// XML ----------------------------------------------------------------------------------------

namespace {

void WriteXmlValue(const ServiceModel& m, const ShapeRef& ref, const std::string& tag, const Value& v, XmlWriter* w);

// The items of a list, each as `item_tag`.
void WriteXmlItems(const ServiceModel& m, const ShapeRef& member, const std::string& item_tag, const Value& v,
                   XmlWriter* w) {
  for (const Value& item : v.list()) WriteXmlValue(m, member, item_tag, item, w);
}

void WriteXmlValue(const ServiceModel& m, const ShapeRef& ref, const std::string& tag, const Value& v, XmlWriter* w) {
  const ModelJson& shape = ShapeOf(m, ref);
  const std::string type = TypeOf(shape);
  if (type == "structure") {
    w->Open(tag);
    WriteXmlMembers(m, shape, v, w);
    w->Close();
  } else if (type == "list") {
    const ShapeRef& member = shape["member"];
    if (Flag(ref, "flattened") || Flag(shape, "flattened")) {
      WriteXmlItems(m, member, XmlName(member, tag), v, w);
    } else if (v.list().empty()) {
      w->Empty(tag);
    } else {
      w->Open(tag);
      WriteXmlItems(m, member, XmlName(member, "member"), v, w);
      w->Close();
    }
  } else if (type == "map") {
    const bool flat = Flag(ref, "flattened") || Flag(shape, "flattened");
    const std::string k = XmlName(shape["key"], "key"), val = XmlName(shape["value"], "value");
    if (!flat) w->Open(tag);
    for (const Member& e : v.map()) {
      w->Open(flat ? tag : "entry");
      w->Text(k, e.key);
      WriteXmlValue(m, shape["value"], val, e.value, w);
      w->Close();
    }
    if (!flat) w->Close();
  } else {
    const std::string format = RefString(ref, "timestampFormat").empty() ? RefString(shape, "timestampFormat")
                                                                         : RefString(ref, "timestampFormat");
    w->Text(tag, ScalarToText(type, v, true, format));
  }
}

}  // namespace

void WriteXmlMembers(const ServiceModel& m, const ModelJson& shape, const Value& value, XmlWriter* w) {
  auto members = shape.find("members");
  if (members == shape.end() || !value.is_map()) return;
  for (auto& [name, ref] : members->items()) {
    const Value* v = value.find(name);
    if (v == nullptr || v->is_null()) continue;
    const std::string location = RefString(ref, "location");
    if (!location.empty()) continue;  // a header or status code: the REST codec's
    WriteXmlValue(m, ref, XmlName(ref, name), *v, w);
  }
}

namespace {

Value ReadXmlValue(const ServiceModel& m, const ShapeRef& ref, const XmlElement& e);

Value ReadXmlList(const ServiceModel& m, const ShapeRef& member, const std::vector<const XmlElement*>& items) {
  Value list = Value::MakeList();
  for (const XmlElement* item : items) list.mutable_list().push_back(ReadXmlValue(m, member, *item));
  return list;
}

Value ReadXmlValue(const ServiceModel& m, const ShapeRef& ref, const XmlElement& e) {
  const ModelJson& shape = ShapeOf(m, ref);
  const std::string type = TypeOf(shape);
  if (type == "structure") return ReadXmlMembers(m, shape, e);
  if (type == "list") {
    std::vector<const XmlElement*> items;
    for (const XmlElement& c : e.children) items.push_back(&c);
    return ReadXmlList(m, shape["member"], items);
  }
  if (type == "map") {
    const std::string k = XmlName(shape["key"], "key"), v = XmlName(shape["value"], "value");
    Value map = Value::MakeMap();
    for (const XmlElement& entry : e.children) {
      const XmlElement* key = entry.Child(k);
      const XmlElement* value = entry.Child(v);
      if (key != nullptr && value != nullptr) map.mutable_map().push_back(Member{key->text, ReadXmlValue(m, shape["value"], *value)});
    }
    return map;
  }
  return ScalarFromText(type, e.text, true);
}

}  // namespace

Value ReadXmlMembers(const ServiceModel& m, const ModelJson& shape, const XmlElement& element) {
  Value out = Value::MakeMap();
  auto members = shape.find("members");
  if (members == shape.end()) return out;
  for (auto& [name, ref] : members->items()) {
    if (!RefString(ref, "location").empty()) continue;
    const ModelJson& member_shape = ShapeOf(m, ref);
    if (TypeOf(member_shape) == "list" && (Flag(ref, "flattened") || Flag(member_shape, "flattened"))) {
      const std::string tag = XmlName(member_shape["member"], XmlName(ref, name));
      std::vector<const XmlElement*> items;
      for (const XmlElement& c : element.children) {
        if (c.name == tag) items.push_back(&c);
      }
      if (!items.empty()) out.mutable_map().push_back(Member{name, ReadXmlList(m, member_shape["member"], items)});
      continue;
    }
    if (const XmlElement* child = element.Child(XmlName(ref, name))) {
      out.mutable_map().push_back(Member{name, ReadXmlValue(m, ref, *child)});
    }
  }
  return out;
}

// JSON ---------------------------------------------------------------------------------------

namespace {

void WriteJsonValue(const ServiceModel& m, const ShapeRef& ref, const Value& v, std::string* out) {
  const ModelJson& shape = ShapeOf(m, ref);
  const std::string type = TypeOf(shape);
  if (type == "structure") {
    WriteJson(m, shape, v, out);
  } else if (type == "list") {
    *out += '[';
    bool first = true;
    for (const Value& item : v.list()) {
      if (!first) *out += ',';
      first = false;
      WriteJsonValue(m, shape["member"], item, out);
    }
    *out += ']';
  } else if (type == "map") {
    *out += '{';
    bool first = true;
    for (const Member& e : v.map()) {
      if (!first) *out += ',';
      first = false;
      AppendJsonQuoted(out, e.key);
      *out += ':';
      WriteJsonValue(m, shape["value"], e.value, out);
    }
    *out += '}';
  } else if (type == "boolean") {
    *out += (v.is_bool() ? v.as_bool() : v.scalar_text() == "true") ? "true" : "false";
  } else if (type == "integer" || type == "long" || type == "double" || type == "float") {
    const std::string text = v.scalar_text();
    if (IsNumber(text)) {
      *out += text;
    } else {
      AppendJsonQuoted(out, text);
    }
  } else if (type == "timestamp") {
    const std::string epoch = FormatTimestamp(v.scalar_text(), "unixTimestamp");
    if (IsNumber(epoch)) {
      *out += epoch;
    } else {
      AppendJsonQuoted(out, epoch);
    }
  } else if (type == "blob") {
    AppendJsonQuoted(out, Base64Encode(v.scalar_text()));
  } else if (v.is_map() || v.is_list()) {
    v.AppendJsonTo(out);  // a document type
  } else {
    AppendJsonQuoted(out, v.scalar_text());
  }
}

Value ReadJsonValue(const ServiceModel& m, const ShapeRef& ref, const Value& wire) {
  const ModelJson& shape = ShapeOf(m, ref);
  const std::string type = TypeOf(shape);
  if (type == "structure") return ReadJson(m, shape, wire);
  if (type == "list") {
    Value list = Value::MakeList();
    for (const Value& item : wire.list()) list.mutable_list().push_back(ReadJsonValue(m, shape["member"], item));
    return list;
  }
  if (type == "map") {
    Value map = Value::MakeMap();
    // The parser refused duplicate keys: appended, not set (set is a linear search).
    for (const Member& e : wire.map()) map.mutable_map().push_back(Member{e.key, ReadJsonValue(m, shape["value"], e.value)});
    return map;
  }
  if (type == "blob" && wire.is_string()) return ScalarFromText(type, wire.str(), true);
  if (type == "timestamp" && (wire.is_number() || wire.is_string())) return ScalarFromText(type, wire.scalar_text(), true);
  return wire;
}

}  // namespace

void WriteJson(const ServiceModel& m, const ModelJson& shape, const Value& value, std::string* out) {
  *out += '{';
  bool first = true;
  auto members = shape.find("members");
  if (members != shape.end() && value.is_map()) {
    for (auto& [name, ref] : members->items()) {
      if (!RefString(ref, "location").empty()) continue;  // a header, status code or URI part
      const Value* v = value.find(name);
      if (v == nullptr || v->is_null()) continue;
      if (!first) *out += ',';
      first = false;
      AppendJsonQuoted(out, XmlName(ref, name));
      *out += ':';
      WriteJsonValue(m, ref, *v, out);
    }
  }
  *out += '}';
}

Value ReadJson(const ServiceModel& m, const ModelJson& shape, const Value& wire) {
  Value out = Value::MakeMap();
  auto members = shape.find("members");
  if (members == shape.end() || !wire.is_map()) return out;
  // The document's keys, each looked up among the members (JSON members are
  // named as in the model: locationName is a header's or URI's).
  for (const Member& e : wire.map()) {
    auto ref = members->find(e.key);
    if (ref == members->end() || !RefString(*ref, "location").empty() || e.value.is_null()) continue;
    out.mutable_map().push_back(Member{e.key, ReadJsonValue(m, *ref, e.value)});
  }
  return out;
}

Value ListsByShape(const ServiceModel& m, const ModelJson& shape, const Value& value) {
  const std::string type = TypeOf(shape);
  if (type == "list") {
    if (value.is_map() && value.map().empty()) return Value::MakeList();
    auto member = shape.find("member");
    if (!value.is_list() || member == shape.end()) return value;
    Value out = Value::MakeList();
    const ModelJson& item = ShapeOf(m, *member);
    for (const Value& v : value.list()) out.mutable_list().push_back(ListsByShape(m, item, v));
    return out;
  }
  if (!value.is_map() || (type != "structure" && type != "map")) return value;
  // A map's values share one shape; a structure's members each have theirs.
  auto values = shape.find(type == "map" ? "value" : "members");
  if (values == shape.end()) return value;
  Value out = Value::MakeMap();
  for (const Member& e : value.map()) {
    auto ref = type == "map" ? values : values->find(e.key);
    const bool known = type == "map" || ref != values->end();
    out.mutable_map().push_back(Member{e.key, known ? ListsByShape(m, ShapeOf(m, *ref), e.value) : e.value});
  }
  return out;
}

}  // namespace ms::server
