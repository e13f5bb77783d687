// StackEnvironment: what a running operation's expressions see — the
// resources created so far (Ref, Fn::GetAtt), other stacks' exports
// (Fn::ImportValue), and the world's answers for AWS-specific parameters.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <unordered_map>

#include "eval/environment.h"
#include "records/stack.h"

namespace ms {

class StackEnvironment : public EvalEnvironment {
 public:
  using ExportLookup = std::function<bool(const std::string& name, std::string* value)>;
  using ExistsCheck = std::function<bool(std::string_view type, std::string_view value)>;
  using SsmLookup = std::function<bool(std::string_view name, std::string* value)>;

  StackEnvironment(ExportLookup exports, ExistsCheck exists, SsmLookup ssm)
      : exports_(std::move(exports)), exists_(std::move(exists)), ssm_(std::move(ssm)) {}

  // The resource as it is now (a physical ID and attributes once created).
  void SetResource(const ResourceRecord* r) { resources_[r->logical_id] = r; }
  void ClearResource(const std::string& logical_id) { resources_.erase(logical_id); }

  Value ResourceRef(std::string_view logical_id) const override;
  Status ResourceAttribute(std::string_view logical_id, std::string_view attribute, Value* out) const override;
  Status ImportValue(std::string_view export_name, Value* out) const override;
  bool AwsValueExists(std::string_view type, std::string_view value) const override;
  bool SsmParameter(std::string_view name, std::string* value) const override;

  // Export names Fn::ImportValue asked for (the stack's imports).
  const std::set<std::string>& imports() const { return imports_; }

 private:
  ExportLookup exports_;
  ExistsCheck exists_;
  SsmLookup ssm_;
  std::unordered_map<std::string, const ResourceRecord*> resources_;
  mutable std::set<std::string> imports_;
};

}  // namespace ms
