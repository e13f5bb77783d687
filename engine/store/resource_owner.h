// Which stack holds a physical resource: an IMPORT change set refuses a
// resource that belongs to another stack (or to the same stack under another
// logical ID). One lookup through schema 12's index of resources by physical
// ID; a deleted stack's resources and a resource deleted or skipped by its
// stack (DELETE_COMPLETE, DELETE_SKIPPED: left in the world, no longer the
// stack's) belong to no one.
#pragma once

#include <string>

#include "base/status.h"
#include "store/database.h"

namespace ms {

struct ResourceOwner {
  std::string stack_id;
  std::string logical_id;
};

// *found false when no live stack holds `physical_id` as a resource of `type`.
Status FindResourceOwner(Database* db, const std::string& type, const std::string& physical_id, ResourceOwner* out,
                         bool* found);

}  // namespace ms
