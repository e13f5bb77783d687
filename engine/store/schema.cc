#include "store/schema.h"

#include <iterator>

namespace ms {
namespace {

// Append only: a released migration never changes.
const char* const kMigrations[] = {
    // 1: the simulated cloud (engine/world). data and refs are JSON.
    "CREATE TABLE world ("
    "  kind TEXT NOT NULL,"
    "  id TEXT NOT NULL,"
    "  data TEXT NOT NULL,"
    "  refs TEXT NOT NULL,"
    "  live INTEGER NOT NULL,"
    "  PRIMARY KEY (kind, id)) WITHOUT ROWID;",
};

}  // namespace

Status MigrateSchema(Database* db) {
  const int latest = static_cast<int>(std::size(kMigrations));
  return db->Transaction([&]() -> Status {
    int version = 0;
    MS_RETURN_IF_ERROR(db->UserVersion(&version));
    if (version > latest) {
      return Status::Validation("state file " + db->path() + " was written by a newer moonstack (schema " +
                                std::to_string(version) + ", this one knows " + std::to_string(latest) + ")");
    }
    for (int v = version; v < latest; ++v) MS_RETURN_IF_ERROR(db->Exec(kMigrations[v]));
    if (version != latest) MS_RETURN_IF_ERROR(db->SetUserVersion(latest));
    return Status::OK();
  });
}

Status OpenStore(const std::string& path, std::unique_ptr<Database>* out) {
  std::unique_ptr<Database> db;
  MS_RETURN_IF_ERROR(Database::Open(path, &db));
  MS_RETURN_IF_ERROR(MigrateSchema(db.get()));
  *out = std::move(db);
  return Status::OK();
}

}  // namespace ms
