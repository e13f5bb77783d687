// Blobs: byte strings too large for a world record (an S3 object's body, a
// multipart upload's part), kept in the state file beside the world.
//
// Why tables in the state file rather than files beside it: one file holds
// the whole state (a copy of state.db is a copy of everything), and a blob's
// owner changes in the same SQLite transaction as the world record naming it,
// so a crash can never leave a record pointing at a missing body nor a body
// that nothing can free. The cost is writing each byte twice (the log, then
// the database), which at local disk speed is still some hundreds of MB/s.
//
// Tables: `blobs` (id, size, md5) and `blob_chunks` (blob, seq, data),
// schema 11 — a body is cut into chunks of kBlobChunkBytes, written one
// transaction each as it arrives, so neither the writer nor SQLite ever
// holds more than a chunk of it, and a range is read from the chunks it
// covers — and `blob_owners` (owner, blob), schema 17: the records naming
// each blob.
//
// Lifecycle:
//   - BlobWriter makes a blob with no owner ("pending") and fills it.
//   - A world record owns the blobs its data's top-level "Blobs" list names
//     (world/world.h), and several records may own one blob (a Lambda
//     function keeps the S3 object its code came from: Lambda's own copy,
//     without copying). SaveWorldChanges adds an owner for each blob a saved
//     record names and, in the same transaction, drops the owners a saved
//     record no longer names (a deleted object, an overwritten one, a reset
//     world); a blob whose last owner drops it is deleted. Claims come
//     first, drops second, so a blob that moved (a multipart upload's parts
//     becoming its object's) is kept.
//   - A pending blob is the writer's to discard (DiscardPendingBlob) when
//     the call that was to own it fails; whatever a crash left pending is
//     deleted when the next writer opens the state (DeletePendingBlobs).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/md5.h"
#include "base/status.h"
#include "store/database.h"
#include "world/world.h"

namespace ms {

inline constexpr size_t kBlobChunkBytes = size_t{1} << 20;

// What a finished blob is.
struct BlobInfo {
  int64_t id = 0;
  uint64_t size = 0;
  std::string md5;  // 32 hex digits
};

// Fills one new blob, a chunk per transaction (never holding SQLite's write
// lock while its caller waits for more bytes).
class BlobWriter {
 public:
  // Makes the (pending) blob.
  static Status Create(Database* db, std::unique_ptr<BlobWriter>* out);
  Status Append(std::string_view bytes);
  // Writes what is buffered and the blob's size and digest.
  Status Finish(BlobInfo* out);
  int64_t id() const { return id_; }

 private:
  BlobWriter(Database* db, int64_t id) : db_(db), id_(id) {}
  Status Flush();
  Database* db_;
  int64_t id_;
  int64_t seq_ = 0;
  uint64_t size_ = 0;
  std::string buffer_;
  Md5 md5_;
};

// Calls sink with the bytes [offset, offset + length) of blob `id`, a chunk
// at a time, from one read transaction (a concurrent delete does not cut
// it short); a false from sink stops early. NotFound when the blob is gone.
Status ReadBlob(Database* db, int64_t id, uint64_t offset, uint64_t length,
                const std::function<bool(std::string_view)>& sink);

// Deletes blob `id` if it still has no owner (the call that was to own it failed).
Status DiscardPendingBlob(Database* db, int64_t id);
// Deletes every blob without an owner: only when no writer is filling one
// (a writing process opening the state: what a crash left).
Status DeletePendingBlobs(Database* db);
// Inside SaveWorldChanges' transaction: ownership as the changed records say.
Status SaveBlobOwners(Database* db, const std::vector<WorldChange>& changes);

// World's BlobSource over a state file: each read on a connection of its
// own (the callers are Lua workers on many threads).
class StoreBlobSource : public BlobSource {
 public:
  explicit StoreBlobSource(std::string state_path) : path_(std::move(state_path)) {}
  Status Read(int64_t id, uint64_t offset, uint64_t length, std::string* out) override;

 private:
  std::string path_;
};

}  // namespace ms
