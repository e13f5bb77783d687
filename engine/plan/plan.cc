#include "plan/plan.h"

namespace ms {

const char* ChangeActionName(ChangeAction a) {
  switch (a) {
    case ChangeAction::kNone: return "";
    case ChangeAction::kAdd: return "Add";
    case ChangeAction::kModify: return "Modify";
    case ChangeAction::kRemove: return "Remove";
  }
  return "";
}

const char* ReplacementName(Replacement r) {
  switch (r) {
    case Replacement::kFalse: return "False";
    case Replacement::kConditional: return "Conditional";
    case Replacement::kTrue: return "True";
  }
  return "";
}

const char* RecreationName(Recreation r) {
  switch (r) {
    case Recreation::kNever: return "Never";
    case Recreation::kConditionally: return "Conditionally";
    case Recreation::kAlways: return "Always";
  }
  return "";
}

const char* EvaluationName(Evaluation e) { return e == Evaluation::kStatic ? "Static" : "Dynamic"; }

const char* ChangeSourceName(ChangeSource s) {
  switch (s) {
    case ChangeSource::kDirectModification: return "DirectModification";
    case ChangeSource::kParameterReference: return "ParameterReference";
    case ChangeSource::kResourceReference: return "ResourceReference";
    case ChangeSource::kResourceAttribute: return "ResourceAttribute";
  }
  return "";
}

const char* TargetAttributeName(TargetAttribute a) {
  switch (a) {
    case TargetAttribute::kProperties: return "Properties";
    case TargetAttribute::kMetadata: return "Metadata";
    case TargetAttribute::kTags: return "Tags";
  }
  return "";
}

const char* AttributeChangeName(AttributeChange c) {
  switch (c) {
    case AttributeChange::kAdd: return "Add";
    case AttributeChange::kRemove: return "Remove";
    case AttributeChange::kModify: return "Modify";
  }
  return "";
}

bool Plan::empty() const {
  for (const ResourcePlan& r : resources) {
    if (r.action != ChangeAction::kNone) return false;
  }
  return true;
}

const ResourcePlan* Plan::Find(std::string_view logical_id) const {
  auto it = index.find(std::string(logical_id));
  return it == index.end() ? nullptr : &resources[it->second];
}

size_t Plan::Count(ChangeAction a) const {
  size_t n = 0;
  for (const ResourcePlan& r : resources) n += r.action == a ? 1 : 0;
  return n;
}

}  // namespace ms
