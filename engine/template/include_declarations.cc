#include "template/include_declarations.h"

#include <utility>
#include <vector>

namespace ms {

namespace {

bool DeclaresIncludeAt(const Value& v, int depth) {
  if (depth > kMaxIncludeDepth) return false;
  if (v.is_list()) {
    for (const Value& item : v.list()) {
      if (DeclaresIncludeAt(item, depth + 1)) return true;
    }
  }
  if (!v.is_map()) return false;
  for (const Member& m : v.map()) {
    if ((m.key == "Fn::Transform" || m.key == "Transform") && IsIncludeDeclaration(m.value)) return true;
    if (m.key == "Transform" && m.value.is_list()) {
      for (const Value& item : m.value.list()) {
        if (IsIncludeDeclaration(item)) return true;
      }
    }
    if (DeclaresIncludeAt(m.value, depth + 1)) return true;
  }
  return false;
}

}  // namespace

bool IsIncludeDeclaration(const Value& v) {
  const Value* name = v.is_map() ? v.find("Name") : nullptr;
  return name != nullptr && name->is_string() && name->str() == "AWS::Include";
}

void SplitTransforms(Value* section, std::vector<Value>* includes, std::vector<Value>* others) {
  if (!section->is_list()) {
    (IsIncludeDeclaration(*section) ? includes : others)->push_back(std::move(*section));
    return;
  }
  for (Value& item : section->mutable_list()) {
    (IsIncludeDeclaration(item) ? includes : others)->push_back(std::move(item));
  }
}

bool DeclaresInclude(const Value& v) { return DeclaresIncludeAt(v, 0); }

Status LoadTemplateDeclarations(Value root, Template* out) {
  // The head loads as usual from a copy without the transforms and the
  // sections that may name what a snippet holds (Mappings, Conditions,
  // Rules, Outputs).
  if (!root.is_map()) return LoadTemplateFromValue(std::move(root), out);
  Value::Map kept;
  Value resources;
  for (Member& m : root.mutable_map()) {
    if (m.key == "Resources") {
      resources = std::move(m.value);
    } else if (m.key == "Transform") {  // the other transforms are checked as always
      std::vector<Value> includes, others;
      SplitTransforms(&m.value, &includes, &others);
      if (!others.empty()) kept.push_back({m.key, Value::MakeList(std::move(others))});
    } else if (m.key != "Mappings" && m.key != "Conditions" && m.key != "Rules" && m.key != "Outputs") {
      kept.push_back(std::move(m));  // an unknown section is refused, as always
    }
  }
  MS_RETURN_IF_ERROR(LoadTemplateHead(Value::MakeMap(std::move(kept)), out));
  out->transforms.push_back("AWS::Include");

  if (!resources.is_map()) return Status::OK();
  for (Member& m : resources.mutable_map()) {
    const Value* type = m.value.is_map() ? m.value.find("Type") : nullptr;
    if (m.key == "Fn::Transform" || type == nullptr || !type->is_string()) continue;
    ResourceDecl r;
    r.logical_id = m.key;
    r.type = type->str();
    r.pos = m.value.pos();
    if (const Value* p = m.value.find("Properties"); p != nullptr && p->is_map()) r.properties = *p;
    if (const Value* md = m.value.find("Metadata"); md != nullptr && md->is_map()) r.metadata = *md;
    out->resource_index[r.logical_id] = out->resources.size();
    out->resources.push_back(std::move(r));
  }
  return Status::OK();
}

}  // namespace ms
