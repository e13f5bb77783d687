#include "store/deleted_stacks.h"

#include <string>
#include <utility>
#include <vector>

namespace ms {

bool DeletedStackExpired(const StackRecord& s, int64_t now_ms) {
  return s.status == StackStatus::kDeleteComplete && s.deleted_ms + kDeletedStackRetentionMs <= now_ms;
}

Status PruneDeletedStacks(Database* db, int64_t now_ms, size_t max_stacks) {
  Statement* expired;
  // stacks_by_deleted_ms (schema 8) holds the deleted stacks alone, by deletion time.
  MS_RETURN_IF_ERROR(db->Cached(
      "SELECT id, stack_key FROM stacks WHERE deleted = 1 AND deleted_ms <= ?1 ORDER BY deleted_ms LIMIT ?2",
      &expired));
  expired->Bind(1, now_ms - kDeletedStackRetentionMs).Bind(2, static_cast<int64_t>(max_stacks));
  std::vector<std::pair<std::string, int64_t>> stacks;  // (id, key)
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(expired->Step(&row));
    if (!row) break;
    stacks.emplace_back(expired->Text(0), expired->Int(1));
  }
  expired->Reset();
  // Rows keyed by the stack's integer key (schema 6), then those by its ID.
  static const char* const kByKey[] = {"DELETE FROM events WHERE stack = ?1", "DELETE FROM resources WHERE stack = ?1"};
  static const char* const kById[] = {"DELETE FROM stack_templates WHERE stack_id = ?1",
                                      "DELETE FROM change_sets WHERE stack_id = ?1",
                                      "DELETE FROM stacks WHERE id = ?1"};  // its exports went with its deletion
  for (const auto& [id, key] : stacks) {
    for (const char* sql : kByKey) {
      Statement* st;
      MS_RETURN_IF_ERROR(db->Cached(sql, &st));
      st->Bind(1, key);
      MS_RETURN_IF_ERROR(st->Step());
      st->Reset();
    }
    for (const char* sql : kById) {
      Statement* st;
      MS_RETURN_IF_ERROR(db->Cached(sql, &st));
      st->Bind(1, id);
      MS_RETURN_IF_ERROR(st->Step());
      st->Reset();
    }
  }
  return Status::OK();
}

}  // namespace ms
