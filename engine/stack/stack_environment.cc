#include "stack/stack_environment.h"

namespace ms {

Value StackEnvironment::ResourceRef(std::string_view logical_id) const {
  auto it = resources_.find(std::string(logical_id));
  if (it == resources_.end() || it->second->physical_id.empty()) {
    return Value::Unknown({std::string(logical_id)});
  }
  return Value::String(it->second->physical_id);
}

Status StackEnvironment::ResourceAttribute(std::string_view logical_id, std::string_view attribute,
                                           Value* out) const {
  auto it = resources_.find(std::string(logical_id));
  if (it == resources_.end() || it->second->physical_id.empty()) {
    *out = Value::Unknown({std::string(logical_id) + "." + std::string(attribute)});
    return Status::OK();
  }
  const Value* v = it->second->attributes.is_map() ? it->second->attributes.find(attribute) : nullptr;
  if (v == nullptr) {
    return Status::Validation("Template error: resource " + std::string(logical_id) +
                              " does not support attribute type " + std::string(attribute) + " in Fn::GetAtt");
  }
  *out = *v;
  return Status::OK();
}

Status StackEnvironment::ImportValue(std::string_view export_name, Value* out) const {
  const std::string name(export_name);
  imports_.insert(name);
  std::string value;
  if (!exports_ || !exports_(name, &value)) {
    return Status::Validation("No export named " + name + " found. Rollback requested by user.");
  }
  *out = Value::String(value);
  return Status::OK();
}

bool StackEnvironment::AwsValueExists(std::string_view type, std::string_view value) const {
  return !exists_ || exists_(type, value);
}

bool StackEnvironment::SsmParameter(std::string_view name, std::string* value) const {
  return ssm_ && ssm_(name, value);
}

}  // namespace ms
