#include "stack/change_set_imports.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "base/strings.h"
#include "catalog/resource_schemas.h"
#include "stack/op_common.h"
#include "store/resource_owner.h"
#include "template/parse.h"

namespace ms {
namespace {

// "[A, B]" in the order given (AWS's lists of logical IDs in these messages).
std::string Bracketed(const std::vector<std::string>& names) { return "[" + Join(names, ", ") + "]"; }

bool SameKeys(const ResourceToImport& r, const std::vector<std::string>& keys) {
  if (r.identifier.size() != keys.size()) return false;
  for (const auto& [key, value] : r.identifier) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) return false;
  }
  return true;
}

// The identifier's values in the primary identifier's order, joined with
// "|" (CloudFormation's physical ID of a compound identifier).
std::string PhysicalIdOf(const ResourceToImport& r, const std::vector<std::string>& keys) {
  std::vector<std::string> values;
  for (const std::string& key : keys) {
    for (const auto& [k, v] : r.identifier) {
      if (k == key) values.push_back(v);
    }
  }
  return Join(values, "|");
}

}  // namespace

std::vector<std::string> PrimaryIdentifierKeys(const std::string& type, ProviderSession& session) {
  if (const TypeSchema* schema = session.Schema(type); schema != nullptr && !schema->primary_identifiers.empty()) {
    return schema->primary_identifiers;
  }
  std::vector<std::string> keys;
  const std::string_view json = ResourceSchemas::Json(type);
  Value schema;
  if (json.empty() || !ParseJson(json, &schema).ok()) return keys;
  const Value* pid = schema.find("primaryIdentifier");
  if (pid == nullptr || !pid->is_list()) return keys;
  constexpr std::string_view kPrefix = "/properties/";
  for (const Value& p : pid->list()) {
    if (p.is_string() && p.str().rfind(kPrefix, 0) == 0) keys.push_back(p.str().substr(kPrefix.size()));
  }
  return keys;
}

Status CheckResourcesToImport(const std::vector<ResourceToImport>& in, const Template& tmpl,
                              const std::vector<ResourceRecord>& deployed, ProviderSession& session) {
  if (in.empty()) return Status::Validation("Must Provide at least one resource to import");
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].identifier.empty()) {
      return Status::Validation("1 validation error detected: Value null at 'resourcesToImport." +
                                std::to_string(i + 1) +
                                ".member.resourceIdentifier' failed to satisfy constraint: Member must not be null");
    }
  }
  std::unordered_set<std::string> listed;
  for (const ResourceToImport& r : in) {
    if (!listed.insert(r.logical_id).second) {
      return Status::Validation("Every resource to import must have unique LogicalResourceId");
    }
  }
  std::vector<std::string> undeclared;
  for (const ResourceToImport& r : in) {
    if (tmpl.FindResource(r.logical_id) == nullptr) undeclared.push_back(r.logical_id);
  }
  if (!undeclared.empty()) {
    return Status::Validation("The logical resource ids " + Bracketed(undeclared) +
                              " provided in ResourceToImport do not exist in the template.");
  }
  // A type whose provider has no `read` hook cannot be looked at, so it
  // cannot be imported: AWS's refusal of a type without import support.
  std::vector<std::string> unsupported;
  for (const ResourceToImport& r : in) {
    const TypeSchema* schema = session.Schema(r.resource_type);
    if (schema != nullptr && !schema->has_read &&
        std::find(unsupported.begin(), unsupported.end(), r.resource_type) == unsupported.end()) {
      unsupported.push_back(r.resource_type);
    }
  }
  if (!unsupported.empty()) {
    return Status::Validation("ResourceTypes " + Bracketed(unsupported) + " are not supported for Import");
  }
  for (const ResourceToImport& r : in) {
    const std::vector<std::string> keys = PrimaryIdentifierKeys(r.resource_type, session);
    if (!SameKeys(r, keys)) {
      return Status::Validation("Invalid resource identifier for resource type " + r.resource_type + ". Expected " +
                                Bracketed(keys));
    }
    const ResourceDecl* decl = tmpl.FindResource(r.logical_id);
    if (decl->type != r.resource_type) {
      return Status::Validation("Resource type of [" + r.logical_id +
                                "] passed in ResourceToImport does not match with resource type defined in the "
                                "template. Resource type in ResourceToImport: " + r.resource_type +
                                "; Resource type in Template: " + decl->type + ".");
    }
  }
  std::unordered_set<std::string> in_stack;
  for (const ResourceRecord& d : deployed) in_stack.insert(d.logical_id);
  const bool adds_any = std::any_of(tmpl.resources.begin(), tmpl.resources.end(),
                                    [&](const ResourceDecl& d) { return in_stack.count(d.logical_id) == 0; });
  if (!adds_any) return Status::Validation("The template should contain at least one new resource to import.");
  std::vector<std::string> held;
  for (const ResourceToImport& r : in) {
    if (in_stack.count(r.logical_id) > 0) held.push_back(r.logical_id);
  }
  if (!held.empty()) {
    return Status::Validation("Resources " + Bracketed(held) +
                              " passed in ResourceToImport are already in a stack and cannot be imported.");
  }
  std::vector<std::string> unprotected;
  for (const ResourceToImport& r : in) {
    if (tmpl.FindResource(r.logical_id)->deletion_policy.is_null()) unprotected.push_back(r.logical_id);
  }
  if (!unprotected.empty()) {
    return Status::Validation("The following resources to import " + Bracketed(unprotected) +
                              " must have DeletionPolicy attribute specified in the template.");
  }
  return Status::OK();
}

Status CheckImportPlan(const Plan& plan, const std::vector<ResourceToImport>& in) {
  std::unordered_set<std::string> listed;
  for (const ResourceToImport& r : in) listed.insert(r.logical_id);
  std::vector<std::string> unlisted, modified;
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.action == ChangeAction::kAdd && listed.count(rp.logical_id) == 0) unlisted.push_back(rp.logical_id);
    if (rp.action == ChangeAction::kModify || rp.action == ChangeAction::kRemove) modified.push_back(rp.logical_id);
  }
  // AWS names an unlisted addition before a modification.
  if (!unlisted.empty()) {
    return Status::Validation("Resources " + Bracketed(unlisted) + " is missing from ResourceToImport list");
  }
  if (!modified.empty()) {
    return Status::Validation("You have modified resources " + Bracketed(modified) +
                              " in your template that are not being imported. Update, create or delete operations "
                              "cannot be executed during import operations.");
  }
  return Status::OK();
}

Status CheckImportOutputs(const std::string& deployed_template, const std::string& new_template) {
  Value before, after;
  MS_RETURN_IF_ERROR(ParseTemplateText(deployed_template, &before));
  MS_RETURN_IF_ERROR(ParseTemplateText(new_template, &after));
  const Value* old_outputs = before.is_map() ? before.find("Outputs") : nullptr;
  const Value* new_outputs = after.is_map() ? after.find("Outputs") : nullptr;
  const std::string old_text = old_outputs != nullptr ? old_outputs->ToJson() : "";
  const std::string new_text = new_outputs != nullptr ? new_outputs->ToJson() : "";
  if (old_text != new_text) {
    return Status::Validation("As part of the import operation, you cannot modify or add [Outputs]");
  }
  return Status::OK();
}

HookContext ReadContext(const StackRecord& stack, const std::string& logical_id, const std::string& region,
                        const std::string& account_id, int64_t now_ms) {
  HookContext c;
  c.stack_name = stack.name;
  c.stack_id = stack.id;
  c.logical_id = logical_id;
  c.region = region;
  c.account_id = account_id;
  c.now_ms = now_ms;
  return c;
}

HookOutcome ReadResource(ProviderSession& session, const std::string& type, const std::string& physical_id,
                         const Value& properties, HookContext ctx) {
  HookCall call;
  call.hook = Hook::kRead;
  call.type = type;
  call.physical_id = physical_id;
  call.properties = properties;
  call.ctx = std::move(ctx);
  return session.Call(call);
}

Status LookUpImports(Database* db, ProviderSession& session, const HookContext& ctx, const Plan& plan,
                     const std::vector<ResourceToImport>& in, std::vector<ChangeSetImport>* out,
                     std::string* failure) {
  std::unordered_map<std::string, const ResourcePlan*> planned;
  for (const ResourcePlan& rp : plan.resources) planned[rp.logical_id] = &rp;
  failure->clear();
  for (const ResourceToImport& r : in) {
    ChangeSetImport i;
    i.logical_id = r.logical_id;
    i.resource_type = r.resource_type;
    i.identifier = r.identifier;
    i.physical_id = PhysicalIdOf(r, PrimaryIdentifierKeys(r.resource_type, session));
    auto p = planned.find(r.logical_id);
    if (p != planned.end()) i.properties = p->second->properties;
    HookContext c = ctx;
    c.logical_id = r.logical_id;
    const HookOutcome o = ReadResource(session, r.resource_type, i.physical_id, i.properties, c);
    if (o.kind == HookOutcome::Kind::kFailed) {
      *failure = o.reason;
      return Status::OK();
    }
    // A read hook that answers no properties cannot tell whether the
    // resource exists (a type without one is refused up front).
    if (o.kind != HookOutcome::Kind::kDone || o.properties.is_null()) {
      *failure = "ResourceTypes [" + r.resource_type + "] are not supported for Import";
      return Status::OK();
    }
    ResourceOwner owner;
    bool owned = false;
    MS_RETURN_IF_ERROR(FindResourceOwner(db, r.resource_type, i.physical_id, &owner, &owned));
    if (owned) {
      *failure = i.physical_id + " already exists in stack " + owner.stack_id;
      return Status::OK();
    }
    out->push_back(std::move(i));
  }
  return Status::OK();
}

std::vector<ChangeSetResourceChange> ImportChanges(const std::vector<ChangeSetImport>& imports) {
  std::vector<ChangeSetResourceChange> out;
  for (const ChangeSetImport& i : imports) {
    ChangeSetResourceChange c;
    c.action = "Import";
    c.logical_id = i.logical_id;
    c.physical_id = i.physical_id;
    c.resource_type = i.resource_type;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ms
