// PlanEnvironment: what a template's expressions see while an update is
// planned. A deployed resource resolves to its physical ID and attributes,
// unless the planner has marked it as changing:
//   - added or (possibly) replaced: its Ref and its attributes are Unknown;
//   - updated in place (a provider call): its Ref stays (an in-place update
//     keeps the physical ID) but its attributes are Unknown, since the update
//     may change them.
// An Unknown value is what makes a dependent's change Dynamic. With nothing
// marked, it is the deployed stack as it is (for the old template's Metadata).
#pragma once

#include <functional>
#include <string>
#include <unordered_map>

#include "eval/environment.h"
#include "records/stack.h"

namespace ms {

class PlanEnvironment : public EvalEnvironment {
 public:
  // An export's value; false when there is no such export.
  using ExportLookup = std::function<bool(const std::string& name, std::string* value)>;

  explicit PlanEnvironment(ExportLookup exports) : exports_(std::move(exports)) {}

  // A deployed resource (the record must outlive the environment).
  void AddDeployed(const ResourceRecord* r) { entries_[r->logical_id].record = r; }
  // See the header comment. A resource without a deployed record is Unknown.
  void MarkReplaced(const std::string& logical_id) { entries_[logical_id].ref_unknown = true; }
  void MarkUpdated(const std::string& logical_id) { entries_[logical_id].attributes_unknown = true; }

  Value ResourceRef(std::string_view logical_id) const override;
  Status ResourceAttribute(std::string_view logical_id, std::string_view attribute, Value* out) const override;
  Status ImportValue(std::string_view export_name, Value* out) const override;

 private:
  struct Entry {
    const ResourceRecord* record = nullptr;
    bool ref_unknown = false;         // added or replaced: a new physical ID
    bool attributes_unknown = false;  // updated in place
  };
  const Entry* Find(std::string_view logical_id) const;

  ExportLookup exports_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace ms
