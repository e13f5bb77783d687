// Paged reads of a stack's resources and events (store/stack_tables.h): the
// pages of a listing, concatenated, are the whole listing in its order, each
// read without the rest; tokens are stable while newer events arrive.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "store/schema.h"
#include "store/stack_tables.h"

namespace {

const char* const kStack = "arn:aws:cloudformation:us-east-1:1:stack/s/x";

std::unique_ptr<ms::Database> StoreWithStack() {
  std::unique_ptr<ms::Database> db;
  REQUIRE(ms::OpenStore(":memory:", &db).ok());
  ms::StoreBatch batch;
  ms::StackRecord s;
  s.id = kStack;
  s.name = "s";
  batch.stacks.push_back(s);
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  return db;
}

// `n` events in one checkpoint (so rows of 256), ids e<first>...
void AddEvents(ms::Database* db, int first, int n) {
  ms::StoreBatch batch;
  for (int i = first; i < first + n; ++i) {
    ms::StackEvent e;
    e.event_id = "e" + std::to_string(i);
    e.stack_id = kStack;
    e.stack_name = "s";
    e.logical_id = "R";
    e.status = "CREATE_IN_PROGRESS";
    batch.events.push_back(e);
  }
  REQUIRE(ms::CommitBatch(db, nullptr, &batch).ok());
}

std::vector<std::string> EventIds(const std::vector<ms::StackEvent>& events) {
  std::vector<std::string> ids;
  for (const ms::StackEvent& e : events) ids.push_back(e.event_id);
  return ids;
}

}  // namespace

TEST_CASE("store pages: a stack's resources page by the logical ID that starts a page", "[store]") {
  auto db = StoreWithStack();
  std::vector<ms::ResourceRecord> records(250);
  ms::StoreBatch batch;
  for (int i = 0; i < 250; ++i) {
    records[i].stack_id = kStack;
    records[i].logical_id = "R" + std::to_string(249 - i);  // added order is not name order
    records[i].type = "T";
    batch.resources.push_back(&records[i]);
  }
  REQUIRE(ms::CommitBatch(db.get(), nullptr, &batch).ok());
  std::vector<ms::ResourceRecord> all;
  REQUIRE(ms::LoadResources(db.get(), kStack, &all).ok());

  std::vector<std::string> paged, tokens;
  ms::PageRequest page;
  do {
    std::vector<ms::ResourceRecord> out;
    ms::PageResult result;
    REQUIRE(ms::LoadResourcePage(db.get(), kStack, page, &out, &result).ok());
    REQUIRE(result.found);
    CHECK(out.size() <= 100);
    for (const ms::ResourceRecord& r : out) paged.push_back(r.logical_id);
    tokens.push_back(result.next);
    page.from = result.next;
  } while (!page.from.empty());
  CHECK(tokens == std::vector<std::string>{"R149", "R49", ""});
  REQUIRE(paged.size() == all.size());
  for (size_t i = 0; i < all.size(); ++i) CHECK(paged[i] == all[i].logical_id);

  std::vector<ms::ResourceRecord> out;
  ms::PageResult result;
  REQUIRE(ms::LoadResourcePage(db.get(), kStack, {"Nope", 100}, &out, &result).ok());
  CHECK_FALSE(result.found);
  CHECK(out.empty());
}

TEST_CASE("store pages: events page newest first across rows, newer events do not shift a page", "[store]") {
  auto db = StoreWithStack();
  AddEvents(db.get(), 0, 600);  // rows of 256, 256, 88
  AddEvents(db.get(), 600, 10);
  std::vector<ms::StackEvent> all;
  REQUIRE(ms::LoadEvents(db.get(), kStack, &all).ok());
  REQUIRE(all.size() == 610);
  CHECK(all.front().event_id == "e609");

  std::vector<std::string> paged;
  ms::PageRequest page;
  int pages = 0;
  do {
    std::vector<ms::StackEvent> out;
    ms::PageResult result;
    REQUIRE(ms::LoadEventPage(db.get(), kStack, page, &out, &result).ok());
    REQUIRE(result.found);
    for (const std::string& id : EventIds(out)) paged.push_back(id);
    if (++pages == 2) AddEvents(db.get(), 610, 300);  // arrive mid-listing: on no page of this one
    page.from = result.next;
  } while (!page.from.empty());
  CHECK(pages == 7);
  CHECK(paged == EventIds(all));

  std::vector<ms::StackEvent> out;
  ms::PageResult result;
  REQUIRE(ms::LoadEventPage(db.get(), kStack, {}, &out, &result).ok());
  CHECK(out.front().event_id == "e909");  // a new listing starts at the newest
  for (const char* bad : {"nope", "1", "1.", ".1", "999999.0", "1.999999", "-1.2"}) {
    out.clear();
    REQUIRE(ms::LoadEventPage(db.get(), kStack, {bad, 100}, &out, &result).ok());
    CHECK_FALSE(result.found);
    CHECK(out.empty());
  }
}
