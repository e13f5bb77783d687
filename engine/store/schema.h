// The store's schema, as a list of migrations applied in order. The
// database's PRAGMA user_version is the number of migrations applied, so
// opening an older state file brings it up to date and a newer one is refused.
#pragma once

#include "base/status.h"
#include "store/database.h"

namespace ms {

// Applies the migrations `db` has not seen yet, in one transaction.
Status MigrateSchema(Database* db);

// SQL for the key (schema 6) by which events and resources name the stack
// whose ID is bound to ?1; NULL, so no rows, when that stack is not stored.
inline constexpr const char* kStackKeyOfId = "(SELECT stack_key FROM stacks WHERE id = ?1)";

// Opens the state file at `path` (creating it) with the current schema.
Status OpenStore(const std::string& path, std::unique_ptr<Database>* out);

}  // namespace ms
