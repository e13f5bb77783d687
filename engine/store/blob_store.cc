#include "store/blob_store.h"

#include <algorithm>


namespace ms {
namespace {

// A record's key as the owner column holds it (only ever compared, never split).
std::string OwnerOf(const WorldKey& key) { return key.first + "\n" + key.second; }

// Frees blob `id` (its bytes and its row); its owner rows are already gone.
Status DeleteBlob(Database* db, int64_t id) {
  Statement *chunks, *blob;
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM blob_chunks WHERE blob = ?1", &chunks));
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM blobs WHERE id = ?1", &blob));
  chunks->Bind(1, id);
  MS_RETURN_IF_ERROR(chunks->Step());
  chunks->Reset();
  blob->Bind(1, id);
  MS_RETURN_IF_ERROR(blob->Step());
  blob->Reset();
  return Status::OK();
}

// The ids a query selects, its parameters bound by `bind`.
Status SelectIds(Database* db, const char* sql, const std::function<void(Statement*)>& bind,
                 std::vector<int64_t>* out) {
  Statement* st;
  MS_RETURN_IF_ERROR(db->Cached(sql, &st));
  bind(st);
  for (;;) {
    bool row = false;
    Status s = st->Step(&row);
    if (!s.ok() || !row) {
      st->Reset();
      return s;
    }
    out->push_back(st->Int(0));
  }
}

}  // namespace

Status BlobWriter::Create(Database* db, std::unique_ptr<BlobWriter>* out) {
  Statement* insert;
  MS_RETURN_IF_ERROR(db->Cached("INSERT INTO blobs (size, md5) VALUES (0, '') RETURNING id", &insert));
  int64_t id = 0;
  MS_RETURN_IF_ERROR(db->Transaction([&]() -> Status {
    bool row = false;
    Status s = insert->Step(&row);
    if (s.ok() && row) id = insert->Int(0);
    insert->Reset();
    return s;
  }));
  out->reset(new BlobWriter(db, id));
  (*out)->buffer_.reserve(kBlobChunkBytes);
  return Status::OK();
}

Status BlobWriter::Flush() {
  if (buffer_.empty()) return Status::OK();
  Statement* insert;
  MS_RETURN_IF_ERROR(db_->Cached("INSERT INTO blob_chunks (blob, seq, data) VALUES (?1, ?2, ?3)", &insert));
  MS_RETURN_IF_ERROR(db_->Transaction([&]() -> Status {
    insert->Bind(1, id_).Bind(2, seq_).BindBlob(3, buffer_);
    Status s = insert->Step();
    insert->Reset();
    return s;
  }));
  ++seq_;
  buffer_.clear();
  return Status::OK();
}

Status BlobWriter::Append(std::string_view bytes) {
  md5_.Update(bytes);
  size_ += bytes.size();
  while (!bytes.empty()) {
    const size_t take = std::min(bytes.size(), kBlobChunkBytes - buffer_.size());
    buffer_.append(bytes.data(), take);
    bytes.remove_prefix(take);
    if (buffer_.size() == kBlobChunkBytes) MS_RETURN_IF_ERROR(Flush());
  }
  return Status::OK();
}

Status BlobWriter::Finish(BlobInfo* out) {
  MS_RETURN_IF_ERROR(Flush());
  out->id = id_;
  out->size = size_;
  out->md5 = md5_.FinalHex();
  Statement* update;
  MS_RETURN_IF_ERROR(db_->Cached("UPDATE blobs SET size = ?2, md5 = ?3 WHERE id = ?1", &update));
  return db_->Transaction([&]() -> Status {
    update->Bind(1, id_).Bind(2, static_cast<int64_t>(size_)).Bind(3, out->md5);
    Status s = update->Step();
    update->Reset();
    return s;
  });
}

Status ReadBlob(Database* db, int64_t id, uint64_t offset, uint64_t length,
                const std::function<bool(std::string_view)>& sink) {
  if (length == 0) return Status::OK();
  std::unique_ptr<Statement> st;
  // One statement: its read transaction lasts until the last chunk is read.
  MS_RETURN_IF_ERROR(db->Prepare("SELECT seq, data FROM blob_chunks WHERE blob = ?1 AND seq >= ?2 ORDER BY seq", &st));
  st->Bind(1, id).Bind(2, static_cast<int64_t>(offset / kBlobChunkBytes));
  uint64_t at = offset, end = offset + length;
  while (at < end) {
    bool row = false;
    MS_RETURN_IF_ERROR(st->Step(&row));
    const uint64_t start = row ? static_cast<uint64_t>(st->Int(0)) * kBlobChunkBytes : 0;
    if (!row || start > at) return Status::NotFound("blob " + std::to_string(id) + " has no bytes at " + std::to_string(at));
    std::string_view chunk = st->Blob(1);
    if (start + chunk.size() <= at) continue;
    chunk = chunk.substr(at - start, std::min<uint64_t>(chunk.size() - (at - start), end - at));
    at += chunk.size();
    if (!sink(chunk)) break;
  }
  return Status::OK();
}

Status DiscardPendingBlob(Database* db, int64_t id) {
  return db->Transaction([&]() -> Status {
    std::vector<int64_t> ids;
    MS_RETURN_IF_ERROR(SelectIds(db, "SELECT id FROM blobs WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM blob_owners WHERE blob = ?1)",
                                 [&](Statement* st) { st->Bind(1, id); }, &ids));
    for (int64_t pending : ids) MS_RETURN_IF_ERROR(DeleteBlob(db, pending));
    return Status::OK();
  });
}

Status DeletePendingBlobs(Database* db) {
  return db->Transaction([&]() -> Status {
    std::vector<int64_t> ids;
    MS_RETURN_IF_ERROR(SelectIds(db, "SELECT id FROM blobs WHERE id NOT IN (SELECT blob FROM blob_owners)", [](Statement*) {}, &ids));
    for (int64_t id : ids) MS_RETURN_IF_ERROR(DeleteBlob(db, id));
    return Status::OK();
  });
}

Status SaveBlobOwners(Database* db, const std::vector<WorldChange>& changes) {
  Statement *claim, *drop, *owned_still;
  // A blob already freed (a record naming a stale id) is not claimed back.
  MS_RETURN_IF_ERROR(db->Cached("INSERT OR IGNORE INTO blob_owners (owner, blob) "
                                "SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM blobs WHERE id = ?2)", &claim));
  MS_RETURN_IF_ERROR(db->Cached("DELETE FROM blob_owners WHERE owner = ?1 AND blob = ?2", &drop));
  MS_RETURN_IF_ERROR(db->Cached("SELECT 1 FROM blob_owners WHERE blob = ?1 LIMIT 1", &owned_still));
  // Claims first: a blob another record names since this save (a multipart
  // upload's parts becoming its object's, an object's code a function's)
  // still has an owner when its earlier owner's drop is looked at.
  for (const WorldChange& c : changes) {
    if (!c.touches_blobs) continue;
    const std::string owner = OwnerOf(c.key);
    for (int64_t id : c.blobs) {
      claim->Bind(1, owner).Bind(2, id);
      MS_RETURN_IF_ERROR(claim->Step());
      claim->Reset();
    }
  }
  for (const WorldChange& c : changes) {
    if (!c.touches_blobs) continue;
    const std::string owner = OwnerOf(c.key);
    std::vector<int64_t> owned;
    MS_RETURN_IF_ERROR(SelectIds(db, "SELECT blob FROM blob_owners WHERE owner = ?1",
                                 [&](Statement* st) { st->Bind(1, owner); }, &owned));
    for (int64_t id : owned) {
      if (std::find(c.blobs.begin(), c.blobs.end(), id) != c.blobs.end()) continue;
      drop->Bind(1, owner).Bind(2, id);
      MS_RETURN_IF_ERROR(drop->Step());
      drop->Reset();
      bool row = false;
      owned_still->Bind(1, id);
      Status s = owned_still->Step(&row);
      owned_still->Reset();
      MS_RETURN_IF_ERROR(s);
      if (!row) MS_RETURN_IF_ERROR(DeleteBlob(db, id));  // its last owner let it go
    }
  }
  return Status::OK();
}

Status StoreBlobSource::Read(int64_t id, uint64_t offset, uint64_t length, std::string* out) {
  std::unique_ptr<Database> db;
  MS_RETURN_IF_ERROR(Database::Open(path_, &db));
  out->clear();
  return ReadBlob(db.get(), id, offset, length, [&](std::string_view chunk) {
    out->append(chunk);
    return true;
  });
}

}  // namespace ms
