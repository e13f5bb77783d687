#include "world/world.h"

#include <algorithm>

namespace ms {
namespace {

// The blob ids a record's data names ("Blobs": a list of integers).
std::vector<int64_t> BlobsOf(const Value& data) {
  std::vector<int64_t> out;
  const Value* blobs = data.is_map() ? data.find("Blobs") : nullptr;
  if (blobs == nullptr || !blobs->is_list()) return out;
  for (const Value& b : blobs->list()) {
    if (std::optional<int64_t> id = b.as_integer()) out.push_back(*id);
  }
  return out;
}

}  // namespace

Status BlobSource::ReadInOrder(const std::vector<std::pair<int64_t, uint64_t>>& blobs,
                               const std::function<void(std::string_view)>& sink) {
  constexpr uint64_t kChunk = uint64_t{8} << 20;
  std::string chunk;
  for (const auto& [id, size] : blobs) {
    for (uint64_t at = 0; at < size; at += kChunk) {
      MS_RETURN_IF_ERROR(Read(id, at, std::min(kChunk, size - at), &chunk));
      sink(chunk);
    }
  }
  return Status::OK();
}

const WorldRecord* World::Find(const std::string& kind, const std::string& id) const {
  auto lock = Lock();
  auto k = kinds_.find(kind);
  if (k == kinds_.end()) return nullptr;
  auto r = k->second.find(id);
  return r == k->second.end() ? nullptr : &r->second;
}

void World::Unindex(const WorldKey& key, const WorldRecord& r) {
  for (const std::string& ref : r.refs) {
    auto it = referrers_.find(ref);
    if (it == referrers_.end()) continue;
    it->second.erase(key);
    if (it->second.empty()) referrers_.erase(it);
  }
}

void World::Put(const std::string& kind, const std::string& id, WorldRecord record) {
  auto lock = Lock();
  WorldKey key{kind, id};
  auto [it, added] = kinds_[kind].try_emplace(id);
  // A record put again with the refs it had (most rewrites) keeps its
  // entries in the referrers index: each is a lookup in a set that may hold
  // every record of a VPC.
  if (added || it->second.refs != record.refs) {
    if (!added) Unindex(key, it->second);
    for (const std::string& ref : record.refs) referrers_[ref].insert(key);
  }
  const Value* blobs = record.value().is_map() ? record.value().find("Blobs") : nullptr;
  if (blobs != nullptr) blob_owners_.insert(key);
  it->second = std::move(record);
  MarkDirty(std::move(key));
}

bool World::Remove(const std::string& kind, const std::string& id) {
  auto lock = Lock();
  auto k = kinds_.find(kind);
  if (k == kinds_.end()) return false;
  auto it = k->second.find(id);
  if (it == k->second.end()) return false;
  WorldKey key{kind, id};
  Unindex(key, it->second);
  k->second.erase(it);
  if (k->second.empty()) kinds_.erase(k);
  MarkDirty(std::move(key));
  return true;
}

std::vector<std::string> World::Ids(const std::string& kind, bool live_only, std::string_view prefix,
                                    std::string_view after, size_t limit) const {
  auto lock = Lock();
  std::vector<std::string> out;
  auto k = kinds_.find(kind);
  if (k == kinds_.end()) return out;
  const auto& records = k->second;
  auto it = records.lower_bound(std::string(std::max(prefix, after)));
  if (it != records.end() && !after.empty() && it->first == after) ++it;  // strictly after it
  for (; it != records.end() && (limit == 0 || out.size() < limit); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;  // past the ids with the prefix
    if (it->second.live || !live_only) out.push_back(it->first);
  }
  return out;
}

std::vector<std::string> World::Kinds() const {
  auto lock = Lock();
  std::vector<std::string> out;
  for (const auto& [kind, _] : kinds_) out.push_back(kind);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<WorldKey> World::Referrers(const std::string& id) const {
  auto lock = Lock();
  std::vector<WorldKey> out;
  auto it = referrers_.find(id);
  if (it == referrers_.end()) return out;
  for (const WorldKey& key : it->second) {  // a std::set: already sorted
    const WorldRecord* r = Find(key.first, key.second);
    if (r != nullptr && r->live) out.push_back(key);
  }
  return out;
}

size_t World::size() const {
  auto lock = Lock();
  size_t n = 0;
  for (const auto& [_, records] : kinds_) n += records.size();
  return n;
}

std::vector<WorldChange> World::TakeChanges() {
  auto lock = Lock();
  std::vector<std::pair<uint64_t, const WorldKey*>> order;
  order.reserve(dirty_.size());
  for (const auto& [key, seq] : dirty_) order.emplace_back(seq, &key);
  std::sort(order.begin(), order.end());
  std::vector<WorldChange> out;
  out.reserve(order.size());
  for (const auto& [_, k] : order) {
    const WorldKey& key = *k;
    WorldChange& c = out.emplace_back();
    c.key = key;
    const WorldRecord* r = Find(key.first, key.second);
    c.touches_blobs = blob_owners_.count(key) != 0;
    if (r == nullptr) {
      c.removed = true;
      continue;
    }
    if (c.touches_blobs) c.blobs = BlobsOf(r->value());
    c.data = r->data;
    c.refs = r->refs;
    c.live = r->live;
  }
  dirty_.clear();
  return out;
}

std::string WorldChange::DataJson() const { return data ? data->ToJson() : "null"; }

std::string WorldChange::RefsJson() const { return Value::StringList(refs).ToJson(); }

void World::MarkChanged(const std::vector<WorldChange>& changes) {
  auto lock = Lock();
  for (const WorldChange& c : changes) MarkDirty(c.key);
}

void World::Clear() {
  auto lock = Lock();
  for (const auto& [kind, records] : kinds_) {
    for (const auto& [id, _] : records) MarkDirty({kind, id});
  }
  kinds_.clear();
  referrers_.clear();
}

}  // namespace ms
