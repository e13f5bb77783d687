#include "store/deleted_stacks.h"

#include <string>
#include <vector>

#include "store/schema.h"

namespace ms {

bool DeletedStackExpired(const StackRecord& s, int64_t now_ms) {
  return s.status == StackStatus::kDeleteComplete && s.deleted_ms + kDeletedStackRetentionMs <= now_ms;
}

Status PruneDeletedStacks(Database* db, int64_t now_ms, size_t max_stacks) {
  Statement* expired;
  // stacks_by_deleted_ms (schema 8) holds the deleted stacks alone, by deletion time.
  MS_RETURN_IF_ERROR(db->Cached(
      "SELECT id FROM stacks WHERE deleted = 1 AND deleted_ms <= ?1 ORDER BY deleted_ms LIMIT ?2", &expired));
  expired->Bind(1, now_ms - kDeletedStackRetentionMs).Bind(2, static_cast<int64_t>(max_stacks));
  std::vector<std::string> ids;
  for (;;) {
    bool row = false;
    MS_RETURN_IF_ERROR(expired->Step(&row));
    if (!row) break;
    ids.push_back(expired->Text(0));
  }
  expired->Reset();
  // Everything stored under the stack, its own row last (events and
  // resources find it by its key, schema 6). Its exports went when it was deleted.
  const std::string key = kStackKeyOfId;
  const std::string deletes[] = {"DELETE FROM events WHERE stack = " + key,
                                 "DELETE FROM provider_logs WHERE stack = " + key,
                                 "DELETE FROM operations WHERE stack = " + key,
                                 "DELETE FROM resources WHERE stack = " + key,
                                 "DELETE FROM stack_templates WHERE stack_id = ?1",
                                 "DELETE FROM change_sets WHERE stack_id = ?1",
                                 "DELETE FROM drift_detections WHERE stack_id = ?1",
                                 "DELETE FROM resource_drifts WHERE stack_id = ?1", "DELETE FROM stacks WHERE id = ?1"};
  for (const std::string& id : ids) {
    for (const std::string& sql : deletes) {
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
