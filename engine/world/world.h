// World: the state of the simulated cloud, shared by every worker.
//
// The world is a set of records, each named by a kind ("ec2.instance") and an
// id ("i-0b22a22ee7a1b9c2f"), holding plain data (a Value map) and the ids of
// the records it depends on (`refs`). What the records mean is the Lua sims'
// business (providers/sim/); the engine only stores, indexes and persists.
//
// Invariants:
//   - referrers_[x] holds (kind, id) of every record whose refs contain x.
//   - a record that is not live (a terminated instance, still describable)
//     never counts as a referrer.
//   - dirty_ names every record put or removed since the last TakeChanges().
//   - blob_owners_ names every record that has held a "Blobs" list since the
//     world was loaded (so its change is the one that frees them).
//
// Blobs: a record's data may name, in a top-level "Blobs" list of integers,
// byte strings kept outside the record (store/blob_store.h: an S3 object's
// body). The records naming a blob own it: the store frees it when the last
// of them stops naming it. The bytes are read through blob_source() (the
// store's, once a state is open).
//
// Thread-safety: every method takes the world's lock. Several operations that
// must be one step (a sim action: check, then write) hold it across them with
// Lock(); the lock is re-entrant, so methods may be called while holding it.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/status.h"
#include "template/value.h"

namespace ms {

struct WorldRecord {
  WorldRecord() = default;
  explicit WorldRecord(Value map, std::vector<std::string> refs = {}, bool live = true)
      : data(std::make_shared<const Value>(std::move(map))), refs(std::move(refs)), live(live) {}

  const Value& value() const {
    static const Value kNull;
    return data ? *data : kNull;
  }

  // A map, never changed in place: a reader may keep it past the world's
  // lock (the Lua binding converts it after unlocking) without a copy.
  std::shared_ptr<const Value> data;
  std::vector<std::string> refs;  // ids this record depends on
  bool live = true;
};

// (kind, id)
using WorldKey = std::pair<std::string, std::string>;

struct WorldKeyHash {
  size_t operator()(const WorldKey& k) const noexcept {
    const size_t h = std::hash<std::string>{}(k.first);
    return h ^ (std::hash<std::string>{}(k.second) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  }
};

// A record put or removed, as the store writes it. It shares the record's
// data (never changed in place), so taking the changes under the world's
// lock copies no record: the JSON is made by whoever writes it.
struct WorldChange {
  WorldKey key;
  bool removed = false;
  std::shared_ptr<const Value> data;  // the record's data (not removed)
  std::vector<std::string> refs;
  bool live = true;
  std::string DataJson() const;  // the data as the store keeps it
  std::string RefsJson() const;  // the refs as a JSON list of strings
  // The blobs the record owns now (its data's "Blobs"), and whether it may
  // have owned some before: only then does the store look at its blobs.
  std::vector<int64_t> blobs;
  bool touches_blobs = false;
};

// Where the bytes of a blob are read (store/blob_store.h implements it over
// the state file).
class BlobSource {
 public:
  virtual ~BlobSource() = default;
  // The bytes [offset, offset + length) of blob `id`; NotFound when it is gone.
  virtual Status Read(int64_t id, uint64_t offset, uint64_t length, std::string* out) = 0;
  // Calls sink with the bytes of each of `blobs` ({id, size}) in order, a
  // chunk of at most 8 MiB at a time (a package of many MB is digested or
  // copied without ever being whole in memory twice).
  Status ReadInOrder(const std::vector<std::pair<int64_t, uint64_t>>& blobs,
                     const std::function<void(std::string_view)>& sink);
};

class World {
 public:
  // Holds the world still across several calls (re-entrant).
  std::unique_lock<std::recursive_mutex> Lock() const { return std::unique_lock(mu_); }

  // The record, or nullptr. The pointer is valid while the caller holds
  // Lock() and does not change that record.
  const WorldRecord* Find(const std::string& kind, const std::string& id) const;
  void Put(const std::string& kind, const std::string& id, WorldRecord record);
  bool Remove(const std::string& kind, const std::string& id);

  // Sorted ids of a kind (only live ones when live_only) that start with
  // `prefix` and sort after `after` (empty: from the first), at most `limit`
  // of them (0: all): O(log n + the ids returned), the records of a kind
  // being ordered by id (a log group's streams, "<group key>:<stream>"; a
  // bucket's objects listed a page at a time, "<bucket>/<key>").
  std::vector<std::string> Ids(const std::string& kind, bool live_only = false, std::string_view prefix = {},
                               std::string_view after = {}, size_t limit = 0) const;
  // Kinds that hold at least one record, sorted.
  std::vector<std::string> Kinds() const;
  // Live records whose refs name `id`, sorted by kind then id.
  std::vector<WorldKey> Referrers(const std::string& id) const;
  size_t size() const;

  // Records put or removed since the last call, for the store to persist,
  // in the order they were first changed; clears the set. Load-time Put()s
  // are followed by one TakeChanges() to start clean.
  std::vector<WorldChange> TakeChanges();
  // Marks records changed again (a save that failed keeps them for the next).
  void MarkChanged(const std::vector<WorldChange>& changes);
  // Forgets everything (a reset endpoint, tests). Every record counts as removed.
  void Clear();

  // The reader of the blobs records name (nullptr: none, as in a test's
  // world); set once, before the world is shared.
  void set_blob_source(BlobSource* source) { blob_source_ = source; }
  BlobSource* blob_source() const { return blob_source_; }

 private:
  void Unindex(const WorldKey& key, const WorldRecord& r);
  void MarkDirty(WorldKey key) { dirty_.try_emplace(std::move(key), next_dirty_++); }

  // Hashed where order is not asked for: a sim action puts several records,
  // and ordered keys sharing long prefixes ("ec2.security_group_rule") were
  // a tenth of a worker's time in memcmp.
  mutable std::recursive_mutex mu_;
  std::unordered_map<std::string, std::map<std::string, WorldRecord>> kinds_;
  std::unordered_map<std::string, std::set<WorldKey>> referrers_;
  std::unordered_map<WorldKey, uint64_t, WorldKeyHash> dirty_;  // -> when first marked
  uint64_t next_dirty_ = 0;
  std::unordered_set<WorldKey, WorldKeyHash> blob_owners_;
  BlobSource* blob_source_ = nullptr;
};

}  // namespace ms
