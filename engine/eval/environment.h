// What evaluating a template needs from outside it.
//
// The stack workflows (resources' physical IDs and attributes, other stacks'
// exports) and the simulated world (availability zones, AWS-specific parameter
// values, SSM parameters) implement this. The defaults describe "nothing is
// deployed yet": every resource reference and import is Unknown, which is what
// validate-template, graph and the planner need.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "template/value.h"

namespace ms {

struct PseudoParameters {
  std::string account_id = "123456789012";
  std::string region = "us-east-1";
  std::string stack_name = "stack";
  std::string stack_id =
      "arn:aws:cloudformation:us-east-1:123456789012:stack/stack/"
      "00000000-0000-0000-0000-000000000000";
  std::vector<std::string> notification_arns;

  // Derived from the region: aws, aws-cn, aws-us-gov.
  std::string partition() const;
  // amazonaws.com, or amazonaws.com.cn in China regions.
  std::string url_suffix() const;
};

// Another stack's output for Fn::GetStackOutput, from whoever knows the
// stacks (stack/stack_outputs.h); an error when the stack or output is missing.
// `region`: the referenced stack's (Fn::GetStackOutput's Region), "" for the
// stack's own.
using StackOutputLookup = std::function<Status(const std::string& stack_name, const std::string& output_name,
                                               const std::string& region, std::string* value)>;

class EvalEnvironment {
 public:
  virtual ~EvalEnvironment() = default;

  // Ref of a resource: its physical ID, or Unknown({logical_id}) before it
  // exists.
  virtual Value ResourceRef(std::string_view logical_id) const;
  // Fn::GetAtt: the attribute's value, or Unknown({"Logical.Attr"}). An error
  // when the resource type has no such attribute.
  virtual Status ResourceAttribute(std::string_view logical_id, std::string_view attribute,
                                   Value* out) const;
  // Fn::ImportValue: the exported value, Unknown({"Export:Name"}) by default.
  virtual Status ImportValue(std::string_view export_name, Value* out) const;
  // Fn::GetStackOutput: another stack's output, through the lookup a running
  // operation or the planner sets; Unknown without one (validate-template).
  // An empty region means the stack's own.
  void set_stack_outputs(StackOutputLookup lookup) { stack_outputs_ = std::move(lookup); }
  Status StackOutput(std::string_view stack_name, std::string_view output_name, std::string_view region,
                     Value* out) const;
  // Fn::GetAZs: the region's availability zones (default: <region>a, b, c).
  // An empty region means the stack's own region.
  virtual std::vector<std::string> AvailabilityZones(std::string_view region) const;
  // Whether an AWS-specific parameter value (type "AWS::EC2::VPC::Id", ...)
  // exists. Checked when a workflow starts, not synchronously (seed 000,
  // test 31). Default: everything exists.
  virtual bool AwsValueExists(std::string_view type, std::string_view value) const;
  // The value of an SSM parameter, for AWS::SSM::Parameter::Value<...>
  // parameters. Returns false when there is no such parameter.
  virtual bool SsmParameter(std::string_view name, std::string* value) const;

 private:
  StackOutputLookup stack_outputs_;
};

}  // namespace ms
