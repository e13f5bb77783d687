#include "stack/operation_events.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "stack/op_common.h"

namespace ms {
namespace {

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsStackLevel(const StackEvent& e) { return e.type == kStackResourceType && e.physical_id == e.stack_id; }

// Each operation's type, from the stack-level event that began it (events
// oldest first): the status it entered and the one before. An operation
// with no stack-level event is a change set's.
std::unordered_map<std::string, std::string> OperationTypes(const std::vector<StackEvent>& oldest_first) {
  std::unordered_map<std::string, std::string> types;
  std::optional<StackStatus> previous;
  for (const StackEvent& e : oldest_first) {
    if (!IsStackLevel(e) || e.is_validation_error()) continue;
    StackStatus status;
    if (!ParseStackStatus(e.status, &status)) continue;
    if (!e.operation_id.empty() && types.count(e.operation_id) == 0) {
      const char* type = OperationStartedBy(previous, status);
      types[e.operation_id] = type != nullptr ? type : "";
    }
    previous = status;
  }
  return types;
}

OperationEvent Classify(const StackEvent& e, const std::string& operation_type) {
  OperationEvent o;
  o.event = e;
  o.operation_type = operation_type;
  if (e.is_validation_error()) {
    o.event_type = "VALIDATION_ERROR";
  } else if (EndsWith(e.status, "_FAILED")) {
    o.event_type = "PROVISIONING_ERROR";
  } else if (IsStackLevel(e)) {
    o.event_type = "STACK_EVENT";
  } else {
    o.event_type = "PROGRESS";
  }
  if (IsStackLevel(e) && !e.is_validation_error()) {
    o.operation_status = EndsWith(e.status, "_IN_PROGRESS") ? "IN_PROGRESS"
                         : EndsWith(e.status, "_FAILED")     ? "FAILED"
                                                             : "SUCCEEDED";
  }
  return o;
}

// A change set's operation as AWS shows it: one STACK_EVENT with the
// outcome, from its creation to the end of its validation.
OperationEvent ChangeSetSummary(const StackRecord& stack, const ChangeSetRecord& cs) {
  OperationEvent o;
  o.event.event_id = cs.operation_id;
  o.event.stack_id = stack.id;
  o.event.stack_name = stack.name;
  o.event.operation_id = cs.operation_id;
  o.event.timestamp_ms = cs.created_ms;
  o.operation_type = "CREATE_CHANGESET";
  o.event_type = "STACK_EVENT";
  o.operation_status = cs.status == "FAILED" ? "FAILED" : cs.status == "CREATE_PENDING" ? "IN_PROGRESS" : "SUCCEEDED";
  o.start_ms = cs.created_ms;
  o.end_ms = cs.created_ms;
  return o;
}

bool IsFailure(const OperationEvent& o) {
  return o.event_type == "VALIDATION_ERROR" || o.event_type == "PROVISIONING_ERROR" || o.operation_status == "FAILED";
}

Status FindStackOfOperation(StackService& stacks, const std::string& operation_id, StackRecord* out) {
  std::string stack_id;
  bool found = false;
  MS_RETURN_IF_ERROR(FindOperationStack(stacks.context().db, operation_id, &stack_id, &found));
  if (!found) return Status::Validation("Operation ID does not exist");  // as a user quoted it (unconfirmed)
  return stacks.FindStack(stack_id, out, StackRowParts::kRecordOnly);
}

}  // namespace

Status DescribeOperationEvents(StackService& stacks, ChangeSetService& change_sets, const OperationEventQuery& q,
                               std::vector<OperationEvent>* out) {
  out->clear();
  StackRecord stack;
  std::string operation = q.operation_id;
  if (!q.change_set_name.empty()) {
    ChangeSetRecord cs;
    MS_RETURN_IF_ERROR(change_sets.Describe(q.change_set_name, q.stack_name, &cs));
    MS_RETURN_IF_ERROR(stacks.FindStack(cs.stack_id, &stack, StackRowParts::kRecordOnly));
    operation = cs.operation_id;
  } else if (!q.stack_name.empty()) {
    MS_RETURN_IF_ERROR(stacks.FindStack(q.stack_name, &stack, StackRowParts::kRecordOnly));
  } else if (!q.operation_id.empty()) {
    MS_RETURN_IF_ERROR(FindStackOfOperation(stacks, q.operation_id, &stack));
  } else {
    return Status::Validation("One of ChangeSetName, OperationId or StackName must be specified");
  }

  std::vector<StackEvent> events;  // newest first
  MS_RETURN_IF_ERROR(stacks.OperationEvents(stack.id, &events));
  const std::unordered_map<std::string, std::string> types =
      OperationTypes(std::vector<StackEvent>(events.rbegin(), events.rend()));
  std::unordered_map<std::string, const ChangeSetRecord*> by_operation;
  std::vector<ChangeSetRecord> sets;
  MS_RETURN_IF_ERROR(LoadChangeSets(stacks.context().db, stack.id, &sets));  // read only: no status settled
  for (const ChangeSetRecord& cs : sets) {
    if (!cs.operation_id.empty()) by_operation[cs.operation_id] = &cs;
  }

  std::unordered_set<std::string> summarized;  // change set operations whose STACK_EVENT is out
  for (const StackEvent& e : events) {
    if (!operation.empty() && e.operation_id != operation) continue;
    if (e.operation_id.empty()) {  // recorded before operations had IDs
      out->push_back(Classify(e, ""));
      continue;
    }
    auto t = types.find(e.operation_id);
    const auto cs = by_operation.find(e.operation_id);
    const bool change_set_op = cs != by_operation.end() || t == types.end();
    if (change_set_op) {
      // Its stack event (a new stack's REVIEW_IN_PROGRESS) shows as the
      // change set's summary, ahead of its findings.
      if (cs != by_operation.end() && summarized.insert(e.operation_id).second) {
        out->push_back(ChangeSetSummary(stack, *cs->second));
      }
      if (!e.is_validation_error()) continue;
    }
    out->push_back(Classify(e, change_set_op ? "CREATE_CHANGESET" : t->second));
  }
  // A change set that found nothing recorded no event: its summary alone.
  if (!operation.empty() && out->empty()) {
    if (auto cs = by_operation.find(operation); cs != by_operation.end()) {
      out->push_back(ChangeSetSummary(stack, *cs->second));
    } else if (std::none_of(events.begin(), events.end(),
                            [&](const StackEvent& e) { return e.operation_id == operation; })) {
      return Status::Validation("Operation ID does not exist");
    }
  }
  if (q.failed_only) {
    out->erase(std::remove_if(out->begin(), out->end(), [](const OperationEvent& o) { return !IsFailure(o); }),
               out->end());
  }
  return Status::OK();
}

}  // namespace ms
