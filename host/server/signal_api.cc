// SignalResource, in the service model's shape (botocore cloudformation
// 2010-05-15: SignalResourceInput {StackName, LogicalResourceId, UniqueId,
// Status}, no output). The checks and the record are the engine's
// (stack/signal_resource.h), shared with the CLI; the signal goes into the
// runner's world, where the operation waiting on the resource's
// CreationPolicy finds it on its next look.
#include "server/cfn_api.h"
#include "stack/signal_resource.h"

namespace ms::server {

Status CfnApi::SignalResource(Call& c) {
  SignalResourceInput in;
  in.stack_name = c.q.Get("StackName");
  in.logical_resource_id = c.q.Get("LogicalResourceId");
  in.unique_id = c.q.Get("UniqueId");
  in.status = c.q.Get("Status");
  return ms::SignalResource(c.service, signal_world_, ctx_.clock->NowMs(), in);
}

}  // namespace ms::server
