// Defaults of the evaluation environment: "nothing is deployed yet".
#include "eval/environment.h"

#include <string>

namespace ms {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Partitions other than "aws", by region prefix. Order matters: "us-isob-"
// must be tested before "us-iso-".
struct PartitionInfo {
  const char* region_prefix;
  const char* partition;
  const char* url_suffix;
};
constexpr PartitionInfo kPartitions[] = {
    {"cn-", "aws-cn", "amazonaws.com.cn"},
    {"us-gov-", "aws-us-gov", "amazonaws.com"},
    {"us-isob-", "aws-iso-b", "sc2s.sgov.gov"},
    {"us-isof-", "aws-iso-f", "csp.hci.ic.gov"},
    {"us-iso-", "aws-iso", "c2s.ic.gov"},
    {"eu-isoe-", "aws-iso-e", "cloud.adc-e.uk"},
    {"eusc-", "aws-eusc", "amazonaws.eu"},
};

const PartitionInfo* FindPartition(std::string_view region) {
  for (const PartitionInfo& p : kPartitions) {
    if (StartsWith(region, p.region_prefix)) return &p;
  }
  return nullptr;
}

}  // namespace

std::string PseudoParameters::partition() const {
  const PartitionInfo* p = FindPartition(region);
  return p ? p->partition : "aws";
}

std::string PseudoParameters::url_suffix() const {
  const PartitionInfo* p = FindPartition(region);
  return p ? p->url_suffix : "amazonaws.com";
}

Value EvalEnvironment::ResourceRef(std::string_view logical_id) const {
  return Value::Unknown({std::string(logical_id)});
}

Status EvalEnvironment::ResourceAttribute(std::string_view logical_id, std::string_view attribute,
                                          Value* out) const {
  // Without resource types nothing can be rejected: every attribute is
  // simply not known yet.
  std::string ref(logical_id);
  ref += '.';
  ref += attribute;
  *out = Value::Unknown({std::move(ref)});
  return Status::OK();
}

Status EvalEnvironment::StackOutput(std::string_view stack_name, std::string_view output_name,
                                    std::string_view region, Value* out) const {
  if (!stack_outputs_) {
    *out = Value::Unknown({"StackOutput:" + std::string(stack_name) + "." + std::string(output_name)});
    return Status::OK();
  }
  std::string value;
  MS_RETURN_IF_ERROR(stack_outputs_(std::string(stack_name), std::string(output_name), std::string(region), &value));
  *out = Value::String(std::move(value));
  return Status::OK();
}

Status EvalEnvironment::ImportValue(std::string_view export_name, Value* out) const {
  *out = Value::Unknown({"Export:" + std::string(export_name)});
  return Status::OK();
}

std::vector<std::string> EvalEnvironment::AvailabilityZones(std::string_view region) const {
  // The evaluator resolves "" to the stack's region before asking; an empty
  // region here has no zones.
  if (region.empty()) return {};
  std::string r(region);
  return {r + "a", r + "b", r + "c"};
}

bool EvalEnvironment::AwsValueExists(std::string_view, std::string_view) const { return true; }

bool EvalEnvironment::SsmParameter(std::string_view, std::string*) const { return false; }

}  // namespace ms
