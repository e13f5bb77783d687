#include "stack/template_stage.h"

#include "base/constraint_errors.h"

namespace ms {

namespace {

// True for Original, false for Processed (or none given).
Status WantsOriginal(std::string_view stage, bool* original) {
  *original = stage == "Original";
  if (stage.empty() || stage == "Original" || stage == "Processed") return Status::OK();
  ConstraintErrors errors;
  errors.Add(stage, "templateStage", "Member must satisfy enum value set: [Original, Processed]");
  return errors.ToStatus();
}

}  // namespace

Status TemplateAtStage(const StackRecord& stack, std::string_view stage, std::string* body) {
  bool original = false;
  MS_RETURN_IF_ERROR(WantsOriginal(stage, &original));
  *body = original ? stack.shown_original_template_body() : stack.shown_template_body();
  return Status::OK();
}

Status TemplateAtStage(const ChangeSetRecord& change_set, std::string_view stage, std::string* body) {
  bool original = false;
  MS_RETURN_IF_ERROR(WantsOriginal(stage, &original));
  const bool changed = original && !change_set.original_template_body.empty();
  *body = changed ? change_set.original_template_body : change_set.template_body;
  return Status::OK();
}

}  // namespace ms
