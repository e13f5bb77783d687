#include "stack/custom_names.h"

#include "catalog/resource_catalog.h"

namespace ms {

std::string CustomNamedReplacementMessage(const std::string& name) {
  return "CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename " + name +
         " and update the stack again.";
}

std::string CustomNamedReplacementRefusal(const std::string& type, const Value& old_props, const Value& new_props) {
  const ResourceTypeInfo* info = ResourceCatalog::Aws().Find(type);
  if (info == nullptr || info->name_property.empty()) return "";
  const Value* before = old_props.find(info->name_property);
  const Value* after = new_props.find(info->name_property);
  if (before == nullptr || after == nullptr || before->is_null() || !(*before == *after)) return "";
  return CustomNamedReplacementMessage(after->is_string() ? after->str() : after->ToJson());
}

}  // namespace ms
