// ContinueUpdateRollback, RollbackStack and CancelUpdateStack, in the
// service model's shapes (botocore cloudformation 2010-05-15:
// ContinueUpdateRollbackOutput is empty, RollbackStackOutput {StackId},
// CancelUpdateStack has no output). The rollbacks run on the
// OperationRunner as UpdateStack does; a cancel is handed to the operation
// running through the context's CancelRequests.
#include "server/cfn_api.h"

namespace ms::server {
namespace {

Status StackNameOf(const QueryRequest& q, std::string* name) {
  *name = q.Get("StackName");
  if (name->empty()) {
    return Status::Validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: "
                              "Member must not be null");
  }
  return Status::OK();
}

}  // namespace

Status CfnApi::ContinueUpdateRollback(Call& c) {
  ContinueUpdateRollbackInput in;
  MS_RETURN_IF_ERROR(StackNameOf(c.q, &in.stack_name));
  in.resources_to_skip = c.q.List("ResourcesToSkip");
  in.client_request_token = c.q.Get("ClientRequestToken");
  return StartRollback(c, in.stack_name, [&](std::string* id) {
    return c.service.StartContinueUpdateRollback(in, id);
  }, /*write_stack_id=*/false);
}

Status CfnApi::RollbackStack(Call& c) {
  RollbackStackInput in;
  MS_RETURN_IF_ERROR(StackNameOf(c.q, &in.stack_name));
  in.client_request_token = c.q.Get("ClientRequestToken");
  return StartRollback(c, in.stack_name, [&](std::string* id) { return c.service.StartRollbackStack(in, id); },
                       /*write_stack_id=*/true);
}

Status CfnApi::StartRollback(Call& c, const std::string& name, const std::function<Status(std::string*)>& start,
                             bool write_stack_id) {
  StackRecord existing;
  if (!c.service.FindStack(name, &existing).ok()) {
    std::string ignored;
    return start(&ignored);  // AWS's "Stack [x] does not exist"
  }
  MS_RETURN_IF_ERROR(runner_->Reserve(c.region, existing.name));
  std::string id;
  Status s = start(&id);
  if (!s.ok()) {
    runner_->Release(c.region, existing.name);
    return s;
  }
  runner_->Enqueue(existing.name, id, c.region);
  if (write_stack_id) c.w.Text("StackId", id);
  return Status::OK();
}

Status CfnApi::CancelUpdateStack(Call& c) {
  CancelUpdateStackInput in;
  MS_RETURN_IF_ERROR(StackNameOf(c.q, &in.stack_name));
  in.client_request_token = c.q.Get("ClientRequestToken");
  return c.service.CancelUpdate(in);
}

}  // namespace ms::server
