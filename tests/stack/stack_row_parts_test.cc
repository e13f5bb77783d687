// A describe call reads a stack without its templates (store/stack_tables.h
// StackRowParts::kRecordOnly): a large stack's template is MBs, and a client
// polling DescribeStacks used to copy it on every call. Such a copy can never
// be written back over the stored templates.
#include <catch2/catch.hpp>

#include "store/schema.h"
#include "store/stack_tables.h"
#include "test_util.h"

TEST_CASE("a stack read as its record only has no templates and cannot be written back", "[store]") {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(":memory:", &db).ok());
  const ms::StackScope scope;
  ms::StackRecord s;
  s.id = "arn:aws:cloudformation:us-east-1:123456789012:stack/web/1";
  s.name = "web";
  s.status = ms::StackStatus::kUpdateComplete;
  s.template_body = R"({"Resources":{"B":{"Type":"AWS::S3::Bucket"}}})";
  s.previous_template_body = R"({"Resources":{}})";
  ms::StoreBatch batch;
  batch.stacks = {s};
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());

  ms::StackRecord whole, record;
  bool found = false;
  REQUIRE(ms::FindStackInScope(db.get(), scope, "web", &whole, &found).ok());
  REQUIRE(found);
  CHECK(whole.template_body == s.template_body);
  CHECK(whole.previous_template_body == s.previous_template_body);
  CHECK_FALSE(whole.templates_omitted);

  REQUIRE(ms::FindStackInScope(db.get(), scope, s.id, &record, &found, ms::StackRowParts::kRecordOnly).ok());
  REQUIRE(found);
  CHECK(record.name == "web");
  CHECK(record.status == ms::StackStatus::kUpdateComplete);
  CHECK(record.template_body.empty());
  CHECK(record.templates_omitted);
  std::vector<ms::StackRecord> listed;
  REQUIRE(ms::LoadStacks(db.get(), scope, &listed, ms::StackRowParts::kRecordOnly).ok());
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].templates_omitted);

  batch.stacks = {record};
  ms::Status st = ms::CommitBatch(db.get(), nullptr, &batch);
  CHECK(st.message() == "store: stack " + s.id + " was read without its templates");
  REQUIRE(ms::FindStackInScope(db.get(), scope, "web", &whole, &found).ok());
  CHECK(whole.template_body == s.template_body);  // the refused commit changed nothing
  CHECK(whole.previous_template_body == s.previous_template_body);
}
