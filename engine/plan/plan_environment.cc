#include "plan/plan_environment.h"

namespace ms {

const PlanEnvironment::Entry* PlanEnvironment::Find(std::string_view logical_id) const {
  auto it = entries_.find(std::string(logical_id));
  if (it == entries_.end() || it->second.record == nullptr || it->second.record->physical_id.empty()) {
    return nullptr;
  }
  return &it->second;
}

Value PlanEnvironment::ResourceRef(std::string_view logical_id) const {
  const Entry* e = Find(logical_id);
  if (e == nullptr || e->ref_unknown) return Value::Unknown({std::string(logical_id)});
  return Value::String(e->record->physical_id);
}

Status PlanEnvironment::ResourceAttribute(std::string_view logical_id, std::string_view attribute,
                                          Value* out) const {
  const Entry* e = Find(logical_id);
  if (e == nullptr || e->ref_unknown || e->attributes_unknown) {
    *out = Value::Unknown({std::string(logical_id) + "." + std::string(attribute)});
    return Status::OK();
  }
  const Value* v = e->record->attributes.is_map() ? e->record->attributes.find(attribute) : nullptr;
  if (v == nullptr) {
    // Same text as a running stack gives (stack/stack_environment.cc).
    return Status::Validation("Template error: resource " + std::string(logical_id) +
                              " does not support attribute type " + std::string(attribute) + " in Fn::GetAtt");
  }
  *out = *v;
  return Status::OK();
}

Status PlanEnvironment::ImportValue(std::string_view export_name, Value* out) const {
  const std::string name(export_name);
  std::string value;
  if (!exports_ || !exports_(name, &value)) {
    // Same text as a running stack gives (stack/stack_environment.cc).
    return Status::Validation("No export named " + name + " found. Rollback requested by user.");
  }
  *out = Value::String(value);
  return Status::OK();
}

}  // namespace ms
