// RunStackSetOperation resumed after a crash (engine/stackset/
// stack_set_operation.h), from the states a crash can leave the store in:
// the instance's stack created but its ID not yet recorded, and the
// operation's own create failed but not yet recorded FAILED. The store is
// put in each state by hand (the steps the operation takes, stopped where a
// crash stops them), then the operation is run again.
#include <catch2/catch.hpp>

#include "stack/fake_providers.h"
#include "stack/service_fixture.h"
#include "stackset/stack_set_operation.h"
#include "stackset/stack_set_service.h"
#include "stackset/stack_set_store.h"
#include "store/stack_tables.h"

namespace {

using Fixture = ms::testing::ServiceFixture<ms::testing::FakeProviders>;

const std::string kWorks = R"({"Resources": {"Thing": {"Type": "Test::Fake::Thing"}}})";
const std::string kFails = R"({"Resources": {"Thing": {"Type": "Test::Fake::Thing",
                                                       "Properties": {"CreateFails": "boom"}}}})";

struct Started {
  std::string set_id;
  std::string op_id;
};

// A set `name` with `body` and a CREATE operation for one instance in
// us-west-2, saved QUEUED as CreateStackInstances leaves it.
Started StartCreate(Fixture& f, const std::string& name, const std::string& body) {
  ms::StackSetService sets(f.service->context());
  ms::CreateStackSetInput set;
  set.name = name;
  set.template_body = body;
  Started out;
  REQUIRE(sets.Create(set, &out.set_id).ok());
  ms::StackInstancesInput in;
  in.name = name;
  in.accounts = {"123456789012"};
  in.regions = {"us-west-2"};
  std::string set_id;
  REQUIRE(sets.CreateInstances(in, &set_id, &out.op_id).ok());
  return out;
}

ms::StackInstanceRecord Instance(Fixture& f, const std::string& set_id) {
  std::vector<ms::StackInstanceRecord> instances;
  REQUIRE(ms::LoadStackInstances(f.db.get(), set_id, &instances).ok());
  REQUIRE(instances.size() == 1);
  return instances[0];
}

ms::StackStatus StatusOf(Fixture& f, const std::string& stack_id) {
  ms::StackRecord stack;
  bool found = false;
  REQUIRE(ms::LoadStack(f.db.get(), stack_id, &stack, &found).ok());
  REQUIRE(found);
  return stack.status;
}

ms::StackSetOperationRecord Operation(Fixture& f, const std::string& set_id, const std::string& op_id) {
  ms::StackSetOperationRecord op;
  bool found = false;
  REQUIRE(ms::LoadStackSetOperation(f.db.get(), set_id, op_id, &op, &found).ok());
  REQUIRE(found);
  return op;
}

// The operation RUNNING and its result RUNNING, as its thread leaves them
// once the instance's turn began; the instance, RUNNING (not saved yet).
ms::StackInstanceRecord InstanceTurnBegan(Fixture& f, const Started& s) {
  ms::StackSetOperationRecord op = Operation(f, s.set_id, s.op_id);
  op.status = "RUNNING";
  op.results[0].status = "RUNNING";
  REQUIRE(ms::SaveStackSetOperation(f.db.get(), op).ok());
  ms::StackInstanceRecord inst = Instance(f, s.set_id);
  inst.detailed_status = "RUNNING";
  return inst;
}

// The instance's region, where its stack is.
ms::OperationContext West(Fixture& f) {
  ms::OperationContext west = f.service->context();
  west.region = "us-west-2";
  return west;
}

// The operation as its thread leaves it once the instance's turn began:
// RUNNING, its result RUNNING, the instance's stack name chosen and
// committed; then the stack created in us-west-2 and run to its end, as
// StartCreate and the crash recovery do. The stack's ID.
std::string CrashedDuringCreate(Fixture& f, const Started& s, const std::string& body, bool record_stack_id) {
  ms::StackInstanceRecord inst = InstanceTurnBegan(f, s);
  inst.stack_name = "StackSet-made-before-the-crash";
  inst.created_by_operation = s.op_id;
  REQUIRE(ms::SaveStackInstance(f.db.get(), inst).ok());

  ms::StackService service(West(f));
  ms::CreateStackInput in;
  in.stack_name = inst.stack_name;
  in.template_body = body;
  std::string id;
  REQUIRE(service.StartCreate(in, &id).ok());
  REQUIRE(service.Run(id).ok());
  if (record_stack_id) {
    inst.stack_id = id;
    REQUIRE(ms::SaveStackInstance(f.db.get(), inst).ok());
  }
  return id;
}

const std::string kUpdateFails = R"({"Resources": {"Thing": {"Type": "Test::Fake::Thing"},
                                                             "Bad": {"Type": "Test::Fake::Thing",
                                                                     "Properties": {"CreateFails": "no"}}}})";

// UpdateStackSet of set `name` to `body`: its operation, saved QUEUED.
Started StartUpdate(Fixture& f, const std::string& name, const std::string& body) {
  ms::StackSetService sets(f.service->context());
  ms::UpdateStackSetInput update;
  update.name = name;
  update.template_body = body;
  Started out;
  REQUIRE(sets.Update(update, &out.set_id, &out.op_id).ok());
  return out;
}

// A set `name` of kWorks with its instance's stack made, then an
// UpdateStackSet to `body`, its operation saved QUEUED as UpdateStackSet
// leaves it. The update operation.
Started CreatedThenUpdating(Fixture& f, const std::string& name, const std::string& body) {
  const Started created = StartCreate(f, name, kWorks);
  REQUIRE(ms::RunStackSetOperation(f.service->context(), created.set_id, created.op_id).ok());
  return StartUpdate(f, name, body);
}

// The update operation as its thread leaves it once the instance's turn
// began: RUNNING, its result RUNNING, the instance's marker (this operation,
// the stack's newest event) committed; then, with `run_update`, the stack's
// update started and run to its end, as StartUpdate and the crash recovery
// do.
void CrashedDuringUpdate(Fixture& f, const Started& s, const std::string& body, bool run_update) {
  ms::StackInstanceRecord inst = InstanceTurnBegan(f, s);
  std::vector<ms::StackEvent> newest;
  ms::PageResult page;
  ms::PageRequest one;
  one.limit = 1;
  REQUIRE(ms::LoadEventPage(f.db.get(), inst.stack_id, one, &newest, &page).ok());
  REQUIRE(newest.size() == 1);
  inst.updated_by_operation = s.op_id;
  inst.event_before_update = newest[0].event_id;
  REQUIRE(ms::SaveStackInstance(f.db.get(), inst).ok());
  if (!run_update) return;

  ms::StackService service(West(f));
  ms::UpdateStackInput in;
  in.stack_name = inst.stack_id;
  in.template_body = body;
  std::string id;
  REQUIRE(service.StartUpdate(in, &id).ok());
  REQUIRE(service.Run(id).ok());
}

}  // namespace

TEST_CASE("stack set operation: resumed after a crash, it finds the stack it created but had not recorded",
          "[stackset][crash]") {
  Fixture f;
  const Started s = StartCreate(f, "made", kWorks);
  const std::string stack_id = CrashedDuringCreate(f, s, kWorks, /*record_stack_id=*/false);
  REQUIRE(f.providers.live().size() == 1);

  REQUIRE(ms::RunStackSetOperation(f.service->context(), s.set_id, s.op_id).ok());

  ms::StackSetOperationRecord op;
  bool found = false;
  REQUIRE(ms::LoadStackSetOperation(f.db.get(), s.set_id, s.op_id, &op, &found).ok());
  CHECK(op.status == "SUCCEEDED");
  CHECK(op.results[0].status == "SUCCEEDED");
  const ms::StackInstanceRecord inst = Instance(f, s.set_id);
  CHECK(inst.stack_id == stack_id);
  CHECK(inst.status == "CURRENT");
  CHECK(inst.detailed_status == "SUCCEEDED");
  CHECK(f.providers.live().size() == 1);  // no second stack, no second Thing
}

TEST_CASE("stack set operation: resumed after a crash, its own failed create is recorded FAILED, not retried",
          "[stackset][crash]") {
  Fixture f;
  const Started s = StartCreate(f, "failing", kFails);
  const std::string stack_id = CrashedDuringCreate(f, s, kFails, /*record_stack_id=*/true);
  const int calls = f.providers.calls();

  REQUIRE(ms::RunStackSetOperation(f.service->context(), s.set_id, s.op_id).ok());

  ms::StackSetOperationRecord op;
  bool found = false;
  REQUIRE(ms::LoadStackSetOperation(f.db.get(), s.set_id, s.op_id, &op, &found).ok());
  CHECK(op.status == "FAILED");
  CHECK(op.results[0].status == "FAILED");
  CHECK(op.results[0].reason == "ResourceLogicalId:Thing, ResourceType:Test::Fake::Thing, ResourceStatusReason:boom.");
  const ms::StackInstanceRecord inst = Instance(f, s.set_id);
  CHECK(inst.stack_id == stack_id);
  CHECK(inst.status == "OUTDATED");
  CHECK(inst.detailed_status == "FAILED");
  CHECK(inst.reason == op.results[0].reason);
  CHECK(f.providers.calls() == calls);  // no delete, no create again
  ms::StackRecord stack;
  REQUIRE(ms::LoadStack(f.db.get(), stack_id, &stack, &found).ok());
  CHECK(stack.status == ms::StackStatus::kRollbackComplete);
}

TEST_CASE("stack set operation: a later operation deletes an earlier one's failed stack and creates another",
          "[stackset]") {
  Fixture f;
  const Started s = StartCreate(f, "retried", kFails);
  REQUIRE(ms::RunStackSetOperation(f.service->context(), s.set_id, s.op_id).ok());
  const std::string failed_stack = Instance(f, s.set_id).stack_id;
  REQUIRE_FALSE(failed_stack.empty());

  const Started update = StartUpdate(f, "retried", kWorks);
  const std::string& set_id = update.set_id;
  const std::string& op_id = update.op_id;
  REQUIRE(ms::RunStackSetOperation(f.service->context(), set_id, op_id).ok());

  ms::StackSetOperationRecord op;
  bool found = false;
  REQUIRE(ms::LoadStackSetOperation(f.db.get(), set_id, op_id, &op, &found).ok());
  CHECK(op.status == "SUCCEEDED");
  const ms::StackInstanceRecord inst = Instance(f, s.set_id);
  CHECK(inst.stack_id != failed_stack);
  CHECK(inst.created_by_operation == op_id);
  ms::StackRecord stack;
  REQUIRE(ms::LoadStack(f.db.get(), failed_stack, &stack, &found).ok());
  CHECK(stack.status == ms::StackStatus::kDeleteComplete);
  REQUIRE(ms::LoadStack(f.db.get(), inst.stack_id, &stack, &found).ok());
  CHECK(stack.status == ms::StackStatus::kCreateComplete);
}

TEST_CASE("stack set operation: resumed after a crash, its own failed update is recorded FAILED, not run again",
          "[stackset][crash]") {
  Fixture f;
  const Started s = CreatedThenUpdating(f, "update-failed", kUpdateFails);
  CrashedDuringUpdate(f, s, kUpdateFails, /*run_update=*/true);
  const std::string stack_id = Instance(f, s.set_id).stack_id;
  REQUIRE(StatusOf(f, stack_id) == ms::StackStatus::kUpdateRollbackComplete);
  const int calls = f.providers.calls();

  REQUIRE(ms::RunStackSetOperation(f.service->context(), s.set_id, s.op_id).ok());

  const ms::StackSetOperationRecord op = Operation(f, s.set_id, s.op_id);
  CHECK(op.status == "FAILED");
  CHECK(op.results[0].status == "FAILED");
  CHECK(op.results[0].reason == "ResourceLogicalId:Bad, ResourceType:Test::Fake::Thing, ResourceStatusReason:no.");
  const ms::StackInstanceRecord inst = Instance(f, s.set_id);
  CHECK(inst.stack_id == stack_id);
  CHECK(inst.detailed_status == "FAILED");
  CHECK(f.providers.calls() == calls);  // the update was not run again
  CHECK(StatusOf(f, stack_id) == ms::StackStatus::kUpdateRollbackComplete);
}

TEST_CASE("stack set operation: resumed after a crash before its update started, it runs the update", "[stackset][crash]") {
  Fixture f;
  const Started s = CreatedThenUpdating(f, "update-not-started", kUpdateFails);
  CrashedDuringUpdate(f, s, kUpdateFails, /*run_update=*/false);
  const std::string stack_id = Instance(f, s.set_id).stack_id;
  const int calls = f.providers.calls();

  REQUIRE(ms::RunStackSetOperation(f.service->context(), s.set_id, s.op_id).ok());

  const ms::StackSetOperationRecord op = Operation(f, s.set_id, s.op_id);
  CHECK(op.status == "FAILED");
  CHECK(op.results[0].reason == "ResourceLogicalId:Bad, ResourceType:Test::Fake::Thing, ResourceStatusReason:no.");
  CHECK(f.providers.calls() > calls);  // the update ran now
  CHECK(StatusOf(f, stack_id) == ms::StackStatus::kUpdateRollbackComplete);
}

TEST_CASE("stack set operation: a failed instance's reason is its stack's last operation's, not an earlier one's",
          "[stackset]") {
  Fixture f;
  const Started first = CreatedThenUpdating(f, "reasons", kUpdateFails);
  REQUIRE(ms::RunStackSetOperation(f.service->context(), first.set_id, first.op_id).ok());
  CHECK(Operation(f, first.set_id, first.op_id).results[0].reason ==
        "ResourceLogicalId:Bad, ResourceType:Test::Fake::Thing, ResourceStatusReason:no.");

  const Started second = StartUpdate(f, "reasons", R"({"Resources": {"Thing": {"Type": "Test::Fake::Thing"},
                                                          "Worse": {"Type": "Test::Fake::Thing",
                                                                    "Properties": {"CreateFails": "again"}}}})");
  REQUIRE(ms::RunStackSetOperation(f.service->context(), second.set_id, second.op_id).ok());
  const ms::StackSetOperationRecord op = Operation(f, second.set_id, second.op_id);
  CHECK(op.status == "FAILED");
  CHECK(op.results[0].reason == "ResourceLogicalId:Worse, ResourceType:Test::Fake::Thing, ResourceStatusReason:again.");
  CHECK(Instance(f, second.set_id).reason == op.results[0].reason);
}
