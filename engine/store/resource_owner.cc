#include "store/resource_owner.h"

#include <memory>

namespace ms {

Status FindResourceOwner(Database* db, const std::string& type, const std::string& physical_id, ResourceOwner* out,
                         bool* found) {
  *found = false;
  Statement* st = nullptr;
  // The WHERE clause's first term is the index's expression, so SQLite
  // looks the physical ID up instead of scanning the table.
  MS_RETURN_IF_ERROR(db->Cached(
      "SELECT s.id, r.logical_id FROM resources r JOIN stacks s ON s.stack_key = r.stack "
      "WHERE json_extract(r.data, '$.physical_id') = ?1 AND json_extract(r.data, '$.type') = ?2 "
      "AND s.deleted = 0 AND json_extract(r.data, '$.status') NOT IN ('DELETE_COMPLETE', 'DELETE_SKIPPED') "
      "LIMIT 1",
      &st));
  st->Bind(1, physical_id).Bind(2, type);
  bool row = false;
  Status s = st->Step(&row);
  if (s.ok() && row) {
    out->stack_id = st->Text(0);
    out->logical_id = st->Text(1);
    *found = true;
  }
  st->Reset();
  return s;
}

}  // namespace ms
