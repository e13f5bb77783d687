#include "stack/stack_outputs.h"

#include <memory>
#include <unordered_map>
#include <vector>

#include "records/stack.h"
#include "store/stack_tables.h"

namespace ms {

StackOutputLookup StoreStackOutputs(Database* db, const StackScope& own) {
  // Stacks read so far, by the region and name or ID they were asked by; a
  // missing one is cached as missing too.
  auto read = std::make_shared<std::unordered_map<std::string, std::unique_ptr<StackRecord>>>();
  return [db, read, own](const std::string& stack_name, const std::string& output_name, const std::string& region,
                         std::string* value) -> Status {
    StackScope scope = own;
    if (!region.empty()) scope.region = region;
    const std::string key = scope.region + "/" + stack_name;
    auto it = read->find(key);
    if (it == read->end()) {
      auto s = std::make_unique<StackRecord>();
      bool found = false;
      MS_RETURN_IF_ERROR(stack_name.rfind("arn:", 0) == 0 ? LoadStack(db, stack_name, s.get(), &found)
                                                         : FindActiveStack(db, scope, stack_name, s.get(), &found));
      if (found && s->status == StackStatus::kDeleteComplete) found = false;
      it = read->emplace(key, found ? std::move(s) : nullptr).first;
    }
    if (it->second == nullptr) {
      return Status::Validation("Stack with id " + stack_name + " does not exist. Rollback requested by user.");
    }
    for (const StackOutputValue& o : it->second->outputs) {
      if (o.key == output_name) {
        *value = o.value;
        return Status::OK();
      }
    }
    return Status::Validation("Output " + output_name + " does not exist in stack " + stack_name +
                              ". Rollback requested by user.");
  };
}

}  // namespace ms
