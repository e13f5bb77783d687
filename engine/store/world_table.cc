#include "store/world_table.h"

#include "store/blob_store.h"
#include "template/parse.h"

namespace ms {

Status LoadWorld(Database* db, World* world) {
  auto lock = world->Lock();
  world->Clear();
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT kind, id, data, refs, live FROM world", &st));
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    if (!row) break;
    Value data, refs;
    const std::string kind = st->Text(0), id = st->Text(1);
    Status s = ParseJson(st->Text(2), &data);
    if (s.ok()) s = ParseJson(st->Text(3), &refs);
    if (!s.ok() || !refs.is_list()) {
      return Status::Internal("store: world record " + kind + "/" + id + " is corrupt: " + s.message());
    }
    WorldRecord r(std::move(data));
    for (const Value& ref : refs.list()) r.refs.push_back(ref.str());
    r.live = st->Int(4) != 0;
    world->Put(kind, id, std::move(r));
  }
  world->TakeChanges();  // what was just loaded is not a change
  return Status::OK();
}

Status SaveWorldChanges(Database* db, const std::vector<WorldChange>& changes) {
  Statement *upsert, *remove;
  MS_RETURN_IF_ERROR(db->Cached(
      "INSERT INTO world (kind, id, data, refs, live) VALUES (?1, ?2, ?3, ?4, ?5) "
      "ON CONFLICT (kind, id) DO UPDATE SET data = ?3, refs = ?4, live = ?5",
      &upsert));
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM world WHERE kind = ?1 AND id = ?2", &remove));
  for (const WorldChange& c : changes) {
    if (!c.removed) {
      upsert->Bind(1, c.key.first).Bind(2, c.key.second).Bind(3, c.DataJson());
      upsert->Bind(4, c.RefsJson()).Bind(5, int64_t{c.live ? 1 : 0});
      MS_RETURN_IF_ERROR(upsert->Step());
      upsert->Reset();
    } else {
      remove->Bind(1, c.key.first).Bind(2, c.key.second);
      MS_RETURN_IF_ERROR(remove->Step());
      remove->Reset();
    }
  }
  return SaveBlobOwners(db, changes);
}

Status SaveWorld(Database* db, World* world, size_t* written) {
  std::vector<WorldChange> changes;
  // Taken under SQLite's write lock (as CommitBatch does): a save racing an
  // operation's commit never writes an older record over a newer one, and
  // the blobs a record stopped naming are freed in the order it changed.
  Status saved = db->Transaction([&]() {
    changes = world->TakeChanges();
    return changes.empty() ? Status::OK() : SaveWorldChanges(db, changes);
  });
  if (written) *written = changes.size();
  if (!saved.ok()) world->MarkChanged(changes);  // nothing is lost: try again next time
  return saved;
}

}  // namespace ms
