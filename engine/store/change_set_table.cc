#include "store/change_set_table.h"

#include <memory>

#include "store/record_json.h"
#include "store/schema.h"
#include "store/stack_tables.h"

namespace ms {

using namespace record_json;  // NOLINT: the field helpers

namespace {

Value DetailToValue(const ChangeSetDetail& d) {
  Value v = Value::MakeMap();
  v.set("attribute", Str(d.attribute));
  v.set("name", Str(d.name));
  v.set("requires_recreation", Str(d.requires_recreation));
  v.set("evaluation", Str(d.evaluation));
  v.set("change_source", Str(d.change_source));
  v.set("causing_entity", Str(d.causing_entity));
  return v;
}

Value ChangeToValue(const ChangeSetResourceChange& c) {
  Value v = Value::MakeMap();
  v.set("action", Str(c.action));
  v.set("logical_id", Str(c.logical_id));
  v.set("physical_id", Str(c.physical_id));
  v.set("resource_type", Str(c.resource_type));
  v.set("replacement", Str(c.replacement));
  v.set("scope", Value::StringList(c.scope));
  Value::List details;
  for (const ChangeSetDetail& d : c.details) details.push_back(DetailToValue(d));
  v.set("details", Value::MakeList(std::move(details)));
  if (!c.before_context.empty()) v.set("before_context", Str(c.before_context));
  if (!c.after_context.empty()) v.set("after_context", Str(c.after_context));
  if (!c.change_set_id.empty()) v.set("change_set_id", Str(c.change_set_id));
  return v;
}

Value ImportToValue(const ChangeSetImport& i) {
  Value v = Value::MakeMap();
  v.set("logical_id", Str(i.logical_id));
  v.set("resource_type", Str(i.resource_type));
  Value identifier = Value::MakeMap();
  for (const auto& [key, value] : i.identifier) identifier.set(key, Str(value));
  v.set("identifier", std::move(identifier));
  v.set("physical_id", Str(i.physical_id));
  v.set("properties", i.properties.is_null() ? Value::MakeMap() : i.properties);
  return v;
}

ChangeSetImport ImportFromValue(const Value& v) {
  ChangeSetImport i;
  i.logical_id = GetStr(v, "logical_id");
  i.resource_type = GetStr(v, "resource_type");
  if (const Value* identifier = v.find("identifier"); identifier != nullptr && identifier->is_map()) {
    for (const Member& m : identifier->map()) i.identifier.emplace_back(m.key, m.value.str());
  }
  i.physical_id = GetStr(v, "physical_id");
  if (const Value* properties = v.find("properties")) i.properties = *properties;
  return i;
}

Value ToValue(const ChangeSetRecord& cs) {
  Value v = Value::MakeMap();
  v.set("id", Str(cs.id));
  v.set("name", Str(cs.name));
  v.set("stack_id", Str(cs.stack_id));
  v.set("stack_name", Str(cs.stack_name));
  v.set("type", Str(cs.type));
  v.set("status", Str(cs.status));
  v.set("execution_status", Str(cs.execution_status));
  v.set("status_reason", Str(cs.status_reason));
  v.set("description", Str(cs.description));
  if (!cs.original_template_body.empty()) v.set("original_template_body", Str(cs.original_template_body));
  v.set("created_ms", Value::Integer(cs.created_ms));
  v.set("stack_event_seq", Value::Integer(cs.stack_event_seq));
  v.set("parameters", ParametersToValue(cs.parameters));
  v.set("capabilities", Value::StringList(cs.capabilities));
  v.set("tags", TagsToValue(cs.tags));
  Value::List changes;
  for (const ChangeSetResourceChange& c : cs.changes) changes.push_back(ChangeToValue(c));
  v.set("changes", Value::MakeList(std::move(changes)));
  if (!cs.imports.empty()) {
    Value::List imports;
    for (const ChangeSetImport& i : cs.imports) imports.push_back(ImportToValue(i));
    v.set("imports", Value::MakeList(std::move(imports)));
  }
  // Absent in rows written before IncludeNestedStacks: false and empty.
  if (cs.include_nested) v.set("include_nested", Value::Bool(true));
  if (!cs.parent_change_set_id.empty()) v.set("parent_change_set_id", Str(cs.parent_change_set_id));
  if (!cs.root_change_set_id.empty()) v.set("root_change_set_id", Str(cs.root_change_set_id));
  if (!cs.operation_id.empty()) v.set("operation_id", Str(cs.operation_id));
  return v;
}

ChangeSetRecord FromValue(const Value& v) {
  ChangeSetRecord cs;
  cs.id = GetStr(v, "id");
  cs.name = GetStr(v, "name");
  cs.stack_id = GetStr(v, "stack_id");
  cs.stack_name = GetStr(v, "stack_name");
  cs.type = GetStr(v, "type");
  cs.status = GetStr(v, "status");
  cs.execution_status = GetStr(v, "execution_status");
  cs.status_reason = GetStr(v, "status_reason");
  cs.description = GetStr(v, "description");
  cs.original_template_body = GetStr(v, "original_template_body");
  cs.created_ms = GetInt(v, "created_ms");
  cs.stack_event_seq = GetInt(v, "stack_event_seq");
  cs.parameters = ParametersFromValue(GetList(v, "parameters"));
  cs.capabilities = GetStrings(v, "capabilities");
  cs.tags = TagsFromValue(GetList(v, "tags"));
  for (const Value& c : GetList(v, "changes").list()) {
    ChangeSetResourceChange rc;
    rc.action = GetStr(c, "action");
    rc.logical_id = GetStr(c, "logical_id");
    rc.physical_id = GetStr(c, "physical_id");
    rc.resource_type = GetStr(c, "resource_type");
    rc.replacement = GetStr(c, "replacement");
    rc.scope = GetStrings(c, "scope");
    rc.before_context = GetStr(c, "before_context");
    rc.after_context = GetStr(c, "after_context");
    rc.change_set_id = GetStr(c, "change_set_id");
    for (const Value& d : GetList(c, "details").list()) {
      rc.details.push_back({GetStr(d, "attribute"), GetStr(d, "name"), GetStr(d, "requires_recreation"),
                            GetStr(d, "evaluation"), GetStr(d, "change_source"), GetStr(d, "causing_entity")});
    }
    cs.changes.push_back(std::move(rc));
  }
  if (const Value* imports = v.find("imports"); imports != nullptr && imports->is_list()) {
    for (const Value& i : imports->list()) cs.imports.push_back(ImportFromValue(i));
  }
  cs.include_nested = GetBool(v, "include_nested");
  cs.parent_change_set_id = GetStr(v, "parent_change_set_id");
  cs.root_change_set_id = GetStr(v, "root_change_set_id");
  cs.operation_id = GetStr(v, "operation_id");
  return cs;
}

Status LoadRows(Statement* st, std::vector<ChangeSetRecord>* out) {
  return ForEachRow(st, 0, "change set", [&](Value v) {
    ChangeSetRecord cs = FromValue(v);
    cs.template_body = st->Text(1);
    out->push_back(std::move(cs));
  });
}

Status LoadOne(Statement* st, ChangeSetRecord* out, bool* found) {
  std::vector<ChangeSetRecord> rows;
  MS_RETURN_IF_ERROR(LoadRows(st, &rows));
  *found = !rows.empty();
  if (*found) *out = std::move(rows[0]);
  return Status::OK();
}

}  // namespace

Status SaveChangeSet(Database* db, const ChangeSetRecord& cs) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare(
      "INSERT OR REPLACE INTO change_sets (id, stack_id, name, data, template) VALUES (?1, ?2, ?3, ?4, ?5)", &st));
  st->Bind(1, cs.id).Bind(2, cs.stack_id).Bind(3, cs.name).Bind(4, ToValue(cs).ToJson()).Bind(5, cs.template_body);
  MS_RETURN_IF_ERROR(st->Step());
  return cs.operation_id.empty() ? Status::OK() : IndexOperation(db, cs.operation_id, cs.stack_id);
}

Status DeleteChangeSetRow(Database* db, const std::string& id) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("DELETE FROM change_sets WHERE id = ?1", &st));
  st->Bind(1, id);
  return st->Step();
}

Status LoadChangeSet(Database* db, const std::string& id, ChangeSetRecord* out, bool* found) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT data, template FROM change_sets WHERE id = ?1", &st));
  st->Bind(1, id);
  return LoadOne(st.get(), out, found);
}

Status FindChangeSet(Database* db, const std::string& stack_id, const std::string& name, ChangeSetRecord* out,
                     bool* found) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT data, template FROM change_sets WHERE stack_id = ?1 AND name = ?2", &st));
  st->Bind(1, stack_id).Bind(2, name);
  return LoadOne(st.get(), out, found);
}

Status LatestStackEventSeq(Database* db, const std::string& stack_id, int64_t* seq) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(
      db->Prepare("SELECT COALESCE(MAX(seq), 0) FROM events WHERE stack = " + std::string(kStackKeyOfId), &st));
  st->Bind(1, stack_id);
  bool row = false;
  MS_RETURN_IF_ERROR(st->Step(&row));
  *seq = row ? st->Int(0) : 0;
  return Status::OK();
}

Status LoadChangeSets(Database* db, const std::string& stack_id, std::vector<ChangeSetRecord>* out) {
  std::unique_ptr<Statement> st;
  MS_RETURN_IF_ERROR(db->Prepare("SELECT data, template FROM change_sets WHERE stack_id = ?1 ORDER BY rowid", &st));
  st->Bind(1, stack_id);
  return LoadRows(st.get(), out);
}

}  // namespace ms
