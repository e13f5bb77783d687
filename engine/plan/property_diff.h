// PropertyDiff: which properties of a resource differ between its deployed
// and its new properties, and how each change is carried out.
//
// Shared by the planner (new values may hold Unknown parts) and by the update
// executor (at run time, when every value is known), so both decide alike.
//
// Equality, as CloudFormation decides "did this change": deep, map keys in
// any order, and scalars by their text — CloudFormation hands providers every
// scalar as a string, so 80 and "80", true and "true" are the same request,
// while 1.10 and 1.1 are different strings and so a change. A missing
// property and a null one are the same (AWS::NoValue removes a property).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "plan/plan.h"
#include "provider/provider.h"
#include "template/value.h"

namespace ms {

// Deep equality as above. Unknown equals nothing (not even Unknown).
bool SameValue(const Value& a, const Value& b);
// Whether `after` (which may hold Unknown parts) differs from `before` in a
// part that is known: an Unknown stands for any value.
bool KnownPartsDiffer(const Value& before, const Value& after);
bool HasUnknown(const Value& v);
// The references that made parts of `v` Unknown, sorted, unique.
std::vector<std::string> UnknownRefs(const Value& v);

// One changed property.
struct PropertyChange {
  std::string name;
  AttributeChange change = AttributeChange::kModify;
  bool known_change = false;            // a known part differs: a Static change
  std::vector<std::string> dynamic_refs;  // Unknown parts: a Dynamic change for each
  UpdateBehavior behavior = UpdateBehavior::kNone;
  bool decided = true;  // false: a conditional property with an Unknown value
  Value before, after;
};

struct DiffInput {
  std::string_view type;
  const TypeSchema* schema = nullptr;  // null: no provider (changes are replacements)
  ProviderSession* session = nullptr;  // DecideUpdate; null: conditional stays undecided
  const HookContext* ctx = nullptr;    // for DecideUpdate
};

// The changed properties of `before` -> `after` (maps; null reads as empty),
// sorted by name, each with its update behaviour: the schema's, or for a
// conditional property the provider's DecideUpdate when both values are
// known. An undeclared property is an update without interruption (a custom
// resource's; elsewhere Validate rejects it before it matters).
Status DiffProperties(const DiffInput& in, const Value& before, const Value& after,
                      std::vector<PropertyChange>* out);

// RequiresRecreation of a change with this behaviour.
Recreation RecreationOf(UpdateBehavior b, bool decided);

}  // namespace ms
