// DescribeEvents: a stack's events by operation, the pre-deployment
// validation findings among them. The grouping and the event types are the
// engine's (stack/operation_events.h); this writes them in the model's
// member order (OperationEvent).
#include <string>
#include <vector>

#include "run/clock.h"
#include "server/cfn_api.h"
#include "server/stack_xml.h"
#include "stack/operation_events.h"

namespace ms::server {
namespace {

void Timestamp(XmlWriter& w, const char* tag, int64_t ms) { w.Text(tag, FormatTimestamp(ms)); }

void WriteOperationEvent(XmlWriter& w, const OperationEvent& o) {
  const StackEvent& e = o.event;
  w.Open("member");
  w.Text("EventId", e.event_id);
  w.Text("StackId", e.stack_id);
  w.Optional("OperationId", e.operation_id);
  w.Optional("OperationType", o.operation_type);
  w.Optional("OperationStatus", o.operation_status);
  w.Text("EventType", o.event_type);
  w.Optional("LogicalResourceId", e.logical_id);
  if (o.event_type != "STACK_EVENT" || !e.physical_id.empty()) w.Text("PhysicalResourceId", e.physical_id);
  w.Optional("ResourceType", e.type);
  Timestamp(w, "Timestamp", e.timestamp_ms);
  if (o.start_ms != 0) Timestamp(w, "StartTime", o.start_ms);
  if (o.end_ms != 0) Timestamp(w, "EndTime", o.end_ms);
  w.Optional("ResourceStatus", e.status);
  if (!e.is_validation_error()) w.Optional("ResourceStatusReason", e.reason);
  w.Optional("ResourceProperties", e.properties);
  w.Optional("ClientRequestToken", e.client_request_token);
  w.Optional("DetailedStatus", e.detailed_status);
  if (e.is_validation_error()) {
    w.Text("ValidationFailureMode", e.validation_mode);
    w.Text("ValidationName", e.validation_name);
    w.Text("ValidationStatus", "FAILED");
    w.Text("ValidationStatusReason", e.reason);
    w.Text("ValidationPath", e.validation_path);
  }
  w.Close();
}

}  // namespace

Status CfnApi::DescribeEvents(Call& c) {
  OperationEventQuery q;
  q.stack_name = c.q.Get("StackName");
  q.change_set_name = c.q.Get("ChangeSetName");
  q.operation_id = c.q.Get("OperationId");
  q.failed_only = c.q.Get("Filters.FailedEvents") == "true";
  ChangeSetService change_sets(c.service.context());
  std::vector<OperationEvent> events;
  MS_RETURN_IF_ERROR(DescribeOperationEvents(c.service, change_sets, q, &events));
  std::vector<std::string> ids;
  ids.reserve(events.size());
  for (const OperationEvent& o : events) ids.push_back(o.event.event_id);
  size_t begin = 0, end = 0;
  MS_RETURN_IF_ERROR(PageOf(c.q, ids, &begin, &end));
  if (begin == end) {
    c.w.Empty("OperationEvents");
  } else {
    c.w.Open("OperationEvents");
    for (size_t i = begin; i < end; ++i) WriteOperationEvent(c.w, events[i]);
    c.w.Close();
  }
  if (end < ids.size()) c.w.Text("NextToken", ids[end]);
  return Status::OK();
}

}  // namespace ms::server
