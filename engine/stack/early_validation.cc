#include "stack/early_validation.h"

#include <string_view>

#include "plan/property_diff.h"
#include "stack/change_set_imports.h"
#include "stack/dynamic_references.h"
#include "stack/op_common.h"

namespace ms {
namespace {

constexpr const char* kNameConflict = "NAME_CONFLICT_VALIDATION";
constexpr const char* kProperties = "PROPERTY_VALIDATION";
constexpr const char* kBucketEmptiness = "BUCKET_EMPTINESS_VALIDATION";
constexpr const char* kBucketType = "AWS::S3::Bucket";

// Whether a deployed resource's policy keeps it: Retain or
// RetainExceptOnCreate (a policy written as a function is not evaluated:
// taken as keeping it, so nothing is warned of wrongly).
bool Retains(const Value& policy) {
  if (policy.is_null()) return false;
  return !policy.is_string() || policy.str() == "Retain" || policy.str() == "RetainExceptOnCreate";
}

// Each type's primary identifier keys, looked up once per type (a type
// without a hand-written provider's parses its registry schema).
using KeysByType = std::unordered_map<std::string, std::vector<std::string>>;

// The identifier a create would give the resource, when the template names
// it: the type's primary identifier is one property, given as a string.
std::string GivenIdentifier(ProviderSession& session, KeysByType* cache, const ResourcePlan& rp) {
  auto it = cache->find(rp.type);
  if (it == cache->end()) it = cache->emplace(rp.type, PrimaryIdentifierKeys(rp.type, session)).first;
  const std::vector<std::string>& keys = it->second;
  if (keys.size() != 1 || !rp.properties.is_map()) return "";
  const Value* v = rp.properties.find(keys[0]);
  return v != nullptr && v->is_string() ? v->str() : "";
}

void CheckName(ProviderSession& session, KeysByType* cache, const HookContext& ctx, const ResourcePlan& rp,
               std::vector<ValidationFinding>* out) {
  const TypeSchema* schema = session.Schema(rp.type);
  if (schema == nullptr || !schema->has_read) return;
  const std::string id = GivenIdentifier(session, cache, rp);
  if (id.empty()) return;
  const HookOutcome o = ReadResource(session, rp.type, id, rp.properties, ctx);
  if (o.kind != HookOutcome::Kind::kDone || o.properties.is_null()) return;  // not there (or cannot tell)
  out->push_back({kNameConflict, rp.logical_id, rp.type,
                  "Resource of type '" + rp.type + "' with identifier '" + id + "' already exists.",
                  "/Resources/" + rp.logical_id});
}

// One finding per line of a "Properties validation failed for resource X
// with message: ..." (a line "#/A/B: text" points at /Properties/A/B), or
// the whole message at /Properties.
void AddPropertyFindings(const ResourcePlan& rp, const std::string& message, std::vector<ValidationFinding>* out) {
  const std::string base = "/Resources/" + rp.logical_id + "/Properties";
  const std::string prefix = "Properties validation failed for resource " + rp.logical_id + " with message: ";
  if (message.rfind(prefix, 0) != 0) {
    out->push_back({kProperties, rp.logical_id, rp.type, message, base});
    return;
  }
  std::string_view rest = std::string_view(message).substr(prefix.size());
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (line.empty()) continue;
    std::string path = base;
    const size_t colon = line.find(':');
    if (line[0] == '#' && colon != std::string_view::npos) path += std::string(line.substr(1, colon - 1));
    out->push_back({kProperties, rp.logical_id, rp.type, std::string(line), path});
  }
}

void CheckProperties(ProviderSession& session, const HookContext& ctx, const ResourcePlan& rp,
                     std::vector<ValidationFinding>* out, std::unordered_map<std::string, Value>* validated) {
  // An update's properties went through validation when it was planned.
  if (rp.action == ChangeAction::kModify) {
    if (rp.error.rfind("Properties validation failed for resource ", 0) == 0) AddPropertyFindings(rp, rp.error, out);
    return;
  }
  if (!rp.error.empty() || !rp.properties.is_map() || HasUnknown(rp.properties)) return;
  if (HasDynamicReference(rp.properties)) return;
  if (session.Schema(rp.type) == nullptr) return;  // no provider: the create reports it
  Value coerced;
  Status s = session.Validate(rp.type, ctx, rp.properties, &coerced);
  if (!s.ok()) {
    AddPropertyFindings(rp, s.message(), out);
  } else if (validated != nullptr) {
    (*validated)[rp.logical_id] = coerced.is_null() ? rp.properties : std::move(coerced);
  }
}

}  // namespace

Status ValidateBeforeDeployment(ProviderSession& session, const HookContext& stack_ctx, const Plan& plan,
                                std::vector<ValidationFinding>* out,
                                std::unordered_map<std::string, Value>* validated) {
  KeysByType keys;
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.action != ChangeAction::kAdd && rp.action != ChangeAction::kModify) continue;
    if (rp.type.rfind("AWS::", 0) != 0) continue;  // AWS's types: see the header
    HookContext ctx = stack_ctx;
    ctx.logical_id = rp.logical_id;
    if (rp.action == ChangeAction::kAdd) CheckName(session, &keys, ctx, rp, out);
    CheckProperties(session, ctx, rp, out, validated);
  }
  return Status::OK();
}

std::string StackValidationFailure(size_t errors) {
  return "Validation failed with " + std::to_string(errors) +
         " error(s). Call DescribeEvents to retrieve the full list of issues with resource and property details, "
         "resolve each error, then retry the operation.";
}

Status WarnBeforeDeployment(ProviderSession& session, const HookContext& stack_ctx, const Plan& plan,
                            const Template& deployed, std::vector<ValidationFinding>* out) {
  for (const ResourcePlan& rp : plan.resources) {
    const bool removed = rp.action == ChangeAction::kRemove;
    const bool replaced = rp.action == ChangeAction::kModify && rp.replacement == Replacement::kTrue;
    const std::string& type = removed ? rp.type : rp.old_type;
    if ((!removed && !replaced) || type != kBucketType || rp.physical_id.empty()) continue;
    const ResourceDecl* decl = deployed.FindResource(rp.logical_id);
    if (decl != nullptr && Retains(removed ? decl->deletion_policy : decl->update_replace_policy)) continue;
    if (!session.S3BucketHasObjects(rp.physical_id, stack_ctx.account_id)) continue;
    ValidationFinding f{kBucketEmptiness, rp.logical_id, type,
                        "The bucket '" + rp.physical_id + "' is not empty. You must either delete all objects and "
                        "versions or use the deletion policy to retain it, otherwise the delete operation will fail.",
                        "/Resources/" + rp.logical_id};
    f.warning = true;
    out->push_back(std::move(f));
  }
  return Status::OK();
}

bool AnyFailing(const std::vector<ValidationFinding>& findings) {
  for (const ValidationFinding& f : findings) {
    if (!f.warning) return true;
  }
  return false;
}

std::string ChangeSetValidationFailure(const std::vector<ValidationFinding>& findings) {
  bool names = false, properties = false;
  for (const ValidationFinding& f : findings) {
    if (f.warning) continue;
    names = names || f.name == kNameConflict;
    properties = properties || f.name == kProperties;
  }
  // The order and separator of a log that had both (aws-sam-cli's waiter).
  std::string failed;
  if (names) failed = "AWS::EarlyValidation::ResourceExistenceCheck";
  if (properties) failed += std::string(failed.empty() ? "" : ", ") + "AWS::EarlyValidation::PropertyValidation";
  return "The following hook(s)/validation failed: [" + failed +
         "]. To troubleshoot Early Validation errors, use the DescribeEvents API for detailed failure information.";
}

StackEvent ValidationErrorEvent(const StackRecord& stack, const std::string& operation_id, int64_t now_ms,
                                const ValidationFinding& f) {
  StackEvent e = StackStatusEvent(stack, now_ms, f.reason);
  e.operation_id = operation_id;
  e.logical_id = f.logical_id;
  e.physical_id.clear();
  e.type = f.type;
  e.status.clear();
  e.validation_name = f.name;
  e.validation_path = f.path;
  e.validation_mode = f.warning ? "WARN" : "FAIL";
  return e;
}

}  // namespace ms
