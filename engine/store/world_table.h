// Persistence of the World (engine/world) in the store's `world` table.
#pragma once

#include "base/status.h"
#include "store/database.h"
#include "world/world.h"

namespace ms {

// Replaces the world's contents with what the store holds.
Status LoadWorld(Database* db, World* world);

// Writes every record changed since the last save, in one transaction;
// *written (optional) counts them.
Status SaveWorld(Database* db, World* world, size_t* written = nullptr);

// Writes `changes` (from World::TakeChanges) inside the caller's transaction.
Status SaveWorldChanges(Database* db, const std::vector<WorldChange>& changes);

}  // namespace ms
