#include "policy/stack_policy.h"

#include <algorithm>

#include "base/constraint_errors.h"
#include "template/parse.h"
#include "template/value.h"

namespace ms {
namespace {

constexpr std::string_view kResourcePrefix = "LogicalResourceId/";
constexpr size_t kMaxStackPolicyBody = 16384;

Status Invalid() { return Status::Validation(StackPolicy::kValidationMessage); }

// A string, or a non-empty list of strings (IAM's "string or array").
Status StringOrList(const Value& v, std::vector<std::string>* out) {
  out->clear();
  if (v.is_string()) {
    out->push_back(v.str());
    return Status::OK();
  }
  if (!v.is_list() || v.list().empty()) return Invalid();
  for (const Value& item : v.list()) {
    if (!item.is_string()) return Invalid();
    out->push_back(item.str());
  }
  return Status::OK();
}

bool KnownAction(const std::string& a) {
  return a == "Update:Modify" || a == "Update:Replace" || a == "Update:Delete" || a == "Update:*";
}

// "*" or LogicalResourceId/<something>.
bool KnownResource(const std::string& r) {
  return r == "*" || (r.size() > kResourcePrefix.size() && r.compare(0, kResourcePrefix.size(), kResourcePrefix) == 0);
}

}  // namespace

const char* PolicyActionName(PolicyAction a) {
  switch (a) {
    case PolicyAction::kModify: return "Update:Modify";
    case PolicyAction::kReplace: return "Update:Replace";
    case PolicyAction::kDelete: return "Update:Delete";
  }
  return "";
}

bool PolicyGlobMatch(std::string_view pattern, std::string_view text) {
  // Iterative wildcard matching with one backtrack point: linear in practice.
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Status StackPolicy::Parse(std::string_view body, StackPolicy* out) {
  *out = StackPolicy();
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return Status::OK();
  Value doc;
  if (!ParseJson(body, &doc).ok() || !doc.is_map()) return Invalid();
  for (const Member& m : doc.map()) {
    if (m.key != "Statement" && m.key != "Version") return Invalid();
  }
  const Value* statements = doc.find("Statement");
  if (statements == nullptr) return Status::OK();  // `{}`: accepted, no policy
  std::vector<const Value*> items;
  if (statements->is_map()) {
    items.push_back(statements);
  } else if (statements->is_list() && !statements->list().empty()) {
    for (const Value& s : statements->list()) items.push_back(&s);
  } else {
    return Invalid();  // AWS refuses an empty Statement list
  }

  StackPolicy policy;
  policy.present_ = true;
  for (const Value* item : items) {
    if (!item->is_map()) return Invalid();
    for (const Member& m : item->map()) {
      static const char* kKeys[] = {"Sid", "Effect", "Action", "NotAction", "Principal",
                                    "Resource", "NotResource", "Condition"};
      if (std::none_of(std::begin(kKeys), std::end(kKeys), [&](const char* k) { return m.key == k; })) {
        return Invalid();
      }
    }
    Statement st;
    const Value* effect = item->find("Effect");
    if (effect == nullptr || !effect->is_string() || (effect->str() != "Allow" && effect->str() != "Deny")) {
      return Invalid();
    }
    st.allow = effect->str() == "Allow";

    const Value* action = item->find("Action");
    const Value* not_action = item->find("NotAction");
    if ((action == nullptr) == (not_action == nullptr)) return Invalid();  // exactly one
    st.not_action = not_action != nullptr;
    MS_RETURN_IF_ERROR(StringOrList(action != nullptr ? *action : *not_action, &st.actions));
    if (!std::all_of(st.actions.begin(), st.actions.end(), KnownAction)) return Invalid();

    // Stack policies apply to everyone who updates the stack: only "*".
    const Value* principal = item->find("Principal");
    if (principal == nullptr || !principal->is_string() || principal->str() != "*") return Invalid();

    const Value* resource = item->find("Resource");
    const Value* not_resource = item->find("NotResource");
    if ((resource == nullptr) == (not_resource == nullptr)) return Invalid();
    st.not_resource = not_resource != nullptr;
    MS_RETURN_IF_ERROR(StringOrList(resource != nullptr ? *resource : *not_resource, &st.resources));
    if (!std::all_of(st.resources.begin(), st.resources.end(), KnownResource)) return Invalid();

    if (const Value* cond = item->find("Condition"); cond != nullptr) {
      if (!cond->is_map() || cond->map().empty()) return Invalid();
      for (const Member& op : cond->map()) {
        std::vector<std::string>* into = op.key == "StringEquals" ? &st.type_equals
                                         : op.key == "StringLike" ? &st.type_like
                                                                  : nullptr;
        if (into == nullptr || !op.value.is_map() || op.value.map().size() != 1) return Invalid();
        const Value* types = op.value.find("ResourceType");
        if (types == nullptr) return Invalid();
        MS_RETURN_IF_ERROR(StringOrList(*types, into));
      }
    }
    policy.statements_.push_back(std::move(st));
  }
  *out = std::move(policy);
  return Status::OK();
}

bool StackPolicy::Statement::Matches(PolicyAction action, std::string_view logical_id, std::string_view type) const {
  const std::string name = PolicyActionName(action);
  bool action_listed = false;
  for (const std::string& a : actions) {
    if (a == "Update:*" || a == name) action_listed = true;
  }
  if (action_listed == not_action) return false;

  const std::string arn = std::string(kResourcePrefix) + std::string(logical_id);
  bool resource_listed = false;
  for (const std::string& r : resources) {
    if (r == "*" || PolicyGlobMatch(r, arn)) resource_listed = true;
  }
  if (resource_listed == not_resource) return false;

  // Condition operators are ANDed; the values of one operator are ORed.
  if (!type_equals.empty() &&
      std::find(type_equals.begin(), type_equals.end(), type) == type_equals.end()) {
    return false;
  }
  if (!type_like.empty() &&
      std::none_of(type_like.begin(), type_like.end(),
                   [&](const std::string& pattern) { return PolicyGlobMatch(pattern, type); })) {
    return false;
  }
  return true;
}

bool StackPolicy::Allows(PolicyAction action, std::string_view logical_id, std::string_view type) const {
  if (!present_) return true;
  bool allowed = false;
  for (const Statement& st : statements_) {
    if (!st.Matches(action, logical_id, type)) continue;
    if (!st.allow) return false;  // an explicit Deny wins over any Allow
    allowed = true;
  }
  return allowed;  // not explicitly allowed: denied
}

Status ValidateStackPolicy(std::string_view body) {
  StackPolicy ignored;
  return StackPolicy::Parse(body, &ignored);
}

Status CheckStackPolicyInput(const std::string& body, const std::string& url, const std::string& member) {
  if (!body.empty() && !url.empty()) {
    return Status::Validation("You cannot specify both " + member + "URL and " + member + "Body");
  }
  // The service model: StackPolicyBody (and StackPolicyDuringUpdateBody)
  // is 1 to 16,384 bytes.
  if (body.size() > kMaxStackPolicyBody) {
    ConstraintErrors errors;
    errors.Add(body, "s" + member.substr(1) + "Body", MaxLengthConstraint(kMaxStackPolicyBody));
    return errors.ToStatus();
  }
  if (!url.empty()) {
    return Status::Validation("moonstack does not fetch " + member + "URL: pass the policy as " + member +
                              "Body (the aws CLI: --" + (member == "StackPolicy" ? std::string("stack-policy-body")
                                                                                 : std::string("stack-policy-during-update-body")) +
                              " file://PATH)");
  }
  return ValidateStackPolicy(body);
}

}  // namespace ms
