#include "stack/signal_resource.h"

#include "stack/resource_signals.h"

namespace ms {
namespace {

// The Query API's request validation wording (as botocore shows it for every
// CloudFormation action; the members are SignalResourceInput's, in
// camelCase: stackName, logicalResourceId, uniqueId, status).
Status NotNull(const std::string& value, const char* member) {
  if (!value.empty()) return Status::OK();
  return Status::Validation(std::string("1 validation error detected: Value null at '") + member +
                            "' failed to satisfy constraint: Member must not be null");
}

}  // namespace

Status SignalResource(StackService& service, World* world, int64_t now_ms, const SignalResourceInput& in) {
  MS_RETURN_IF_ERROR(NotNull(in.stack_name, "stackName"));
  MS_RETURN_IF_ERROR(NotNull(in.logical_resource_id, "logicalResourceId"));
  MS_RETURN_IF_ERROR(NotNull(in.unique_id, "uniqueId"));
  MS_RETURN_IF_ERROR(NotNull(in.status, "status"));
  if (in.unique_id.size() > 64) {
    return Status::Validation("1 validation error detected: Value '" + in.unique_id +
                              "' at 'uniqueId' failed to satisfy constraint: Member must have length less than or "
                              "equal to 64");
  }
  if (in.status != "SUCCESS" && in.status != "FAILURE") {
    return Status::Validation("1 validation error detected: Value '" + in.status +
                              "' at 'status' failed to satisfy constraint: Member must satisfy enum value set: "
                              "[SUCCESS, FAILURE]");
  }
  StackRecord stack;
  MS_RETURN_IF_ERROR(service.FindStack(in.stack_name, &stack));  // "Stack with id X does not exist"
  // "ValidationError: Stack arn:aws:cloudformation:us-east-1:861450004289:stack/RedHat7Cfn/7d2e3dd0-...
  // is in CREATE_COMPLETE state and cannot be signaled" (cfn-signal run after
  // the create completed; aws-cloudformation/aws-cloudformation-templates#34).
  // An update rollback takes signals too: a rolling update rolled back waits
  // on the old configuration's instances (seed 004: "a short PauseTime can
  // cause the rollback to fail").
  if (stack.status != StackStatus::kCreateInProgress && stack.status != StackStatus::kUpdateInProgress &&
      stack.status != StackStatus::kUpdateRollbackInProgress) {
    return Status::Validation("Stack " + stack.id + " is in " + StackStatusName(stack.status) +
                              " state and cannot be signaled");
  }
  std::vector<ResourceRecord> records;
  MS_RETURN_IF_ERROR(service.Resources(stack.id, &records));
  bool found = false;
  for (const ResourceRecord& r : records) found = found || r.logical_id == in.logical_resource_id;
  if (!found) {
    // DescribeStackResource's wording for the same check ("Resource
    // SiteBuilderFunction does not exist for stack AWSPics", jpsim/AWSPics#14).
    return Status::Validation("Resource " + in.logical_resource_id + " does not exist for stack " + in.stack_name);
  }
  if (world == nullptr) return Status::Internal("SignalResource: no world to record the signal in");
  PutResourceSignal(world, stack.name, in.logical_resource_id, {in.unique_id, in.status, stack.id, now_ms});
  return Status::OK();
}

}  // namespace ms
