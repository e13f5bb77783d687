// SetStackPolicy and GetStackPolicy, in the service model's shapes
// (botocore cloudformation 2010-05-15: SetStackPolicyInput {StackName,
// StackPolicyBody, StackPolicyURL} with no output; GetStackPolicyOutput
// {StackPolicyBody}, a string, absent when the stack has no policy).
#include "server/cfn_api.h"

namespace ms::server {

Status CfnApi::SetStackPolicy(Call& c) {
  const std::string name = c.q.Get("StackName");
  if (name.empty()) {
    return Status::Validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: "
                              "Member must not be null");
  }
  StackRecord stack;
  MS_RETURN_IF_ERROR(c.service.FindStack(name, &stack));
  // The runner's thread saves its stack record whole at each checkpoint: a
  // change made meanwhile would be lost. StackService refuses a stack in
  // progress (a queued operation's stack is already saved in progress); a
  // stack whose operation has committed its terminal status is not written
  // again by it, even while its thread winds down (runner_->Busy).
  if (IsInProgress(stack.status)) {
    return Status::Validation("moonstack cannot change the stack policy while an operation is in progress on stack [" +
                              stack.name + "]");
  }
  return c.service.SetStackPolicy(stack.id, c.q.Get("StackPolicyBody"), c.q.Get("StackPolicyURL"));
}

Status CfnApi::GetStackPolicy(Call& c) {
  const std::string name = c.q.Get("StackName");
  if (name.empty()) {
    return Status::Validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: "
                              "Member must not be null");
  }
  std::string body;
  MS_RETURN_IF_ERROR(c.service.GetStackPolicy(name, &body));
  if (!body.empty()) c.w.Text("StackPolicyBody", body);
  return Status::OK();
}

}  // namespace ms::server
