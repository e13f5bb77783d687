#include "server/request_tokens.h"

#include <vector>

namespace ms::server {
namespace {

// The action whose operation a "User Initiated" stack event starts, or "".
std::string ActionOf(const StackEvent& e) {
  if (e.reason != "User Initiated" || e.type != "AWS::CloudFormation::Stack") return "";
  if (e.status == "CREATE_IN_PROGRESS") return "CreateStack";
  if (e.status == "UPDATE_IN_PROGRESS") return "UpdateStack";
  if (e.status == "DELETE_IN_PROGRESS") return "DeleteStack";
  return "";
}

}  // namespace

bool RequestTokens::Covers(const std::string& action) {
  return action == "CreateStack" || action == "UpdateStack" || action == "DeleteStack";
}

Status RequestTokens::Load(StackService& service) {
  std::vector<StackRecord> stacks;
  MS_RETURN_IF_ERROR(service.ListStacks(&stacks, StackRowParts::kRecordOnly));
  for (const StackRecord& s : stacks) {
    std::vector<StackEvent> events;
    MS_RETURN_IF_ERROR(service.Events(s.id, &events));
    // Oldest first: a later operation without a token of its own carries the
    // stack's last token on its events; the first use is the one that counts.
    for (auto e = events.rbegin(); e != events.rend(); ++e) {
      const std::string action = ActionOf(*e);
      if (!action.empty() && !e->client_request_token.empty()) {
        uses_.emplace(e->client_request_token, Use{action, s.id});
      }
    }
  }
  loaded_ = true;
  return Status::OK();
}

Status RequestTokens::Check(StackService& service, const std::string& action, const std::string& token,
                            const std::string& stack, Verdict* verdict, std::string* stack_id) {
  if (!loaded_) MS_RETURN_IF_ERROR(Load(service));
  *verdict = Verdict::kNew;
  auto it = uses_.find(token);
  if (it == uses_.end()) return Status::OK();
  StackRecord used;
  // Not found: forgotten since (POST /moonstack/reset).
  if (!service.FindStack(it->second.stack_id, &used, StackRowParts::kRecordOnly).ok()) {
    uses_.erase(it);
    return Status::OK();
  }
  if (it->second.action == action && (stack == used.name || stack == used.id)) {
    *verdict = Verdict::kRetry;
    *stack_id = used.id;
  } else {
    *verdict = Verdict::kConflict;
  }
  return Status::OK();
}

void RequestTokens::Record(StackService& service, const std::string& action, const std::string& token,
                           const std::string& stack) {
  std::string id;
  if (stack.rfind("arn:", 0) == 0) {
    id = stack;
  } else {
    // The newest stack of that name, deleted or not: the operation may already
    // have ended in DELETE_COMPLETE (a delete, a create with OnFailure DELETE).
    std::vector<StackRecord> stacks;
    if (!service.ListStacks(&stacks, StackRowParts::kRecordOnly).ok()) return;  // the store fails: the next request reports it
    for (const StackRecord& s : stacks) {
      if (s.name == stack) id = s.id;
    }
  }
  if (!id.empty()) uses_.emplace(token, Use{action, id});
}

}  // namespace ms::server
