// Stack and resource statuses: names, classification, and the lifecycle edges
// of seeds 001 (diagrams) and 002 (TLA+ `Next`), walked with seed 000's
// observed AWS event sequences.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "records/stack.h"
#include "records/status.h"

using ms::ResourceStatus;
using ms::StackStatus;
using ms::Status;
using R = ms::ResourceStatus;
using S = ms::StackStatus;

namespace {

// Every enumerator with AWS's spelling, written out here rather than taken
// from the implementation's table.
const std::vector<std::pair<S, std::string>> kStacks = {
    {S::kReviewInProgress, "REVIEW_IN_PROGRESS"},
    {S::kCreateInProgress, "CREATE_IN_PROGRESS"},
    {S::kCreateFailed, "CREATE_FAILED"},
    {S::kCreateComplete, "CREATE_COMPLETE"},
    {S::kRollbackInProgress, "ROLLBACK_IN_PROGRESS"},
    {S::kRollbackFailed, "ROLLBACK_FAILED"},
    {S::kRollbackComplete, "ROLLBACK_COMPLETE"},
    {S::kDeleteInProgress, "DELETE_IN_PROGRESS"},
    {S::kDeleteFailed, "DELETE_FAILED"},
    {S::kDeleteComplete, "DELETE_COMPLETE"},
    {S::kUpdateInProgress, "UPDATE_IN_PROGRESS"},
    {S::kUpdateCompleteCleanupInProgress, "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"},
    {S::kUpdateComplete, "UPDATE_COMPLETE"},
    {S::kUpdateFailed, "UPDATE_FAILED"},
    {S::kUpdateRollbackInProgress, "UPDATE_ROLLBACK_IN_PROGRESS"},
    {S::kUpdateRollbackFailed, "UPDATE_ROLLBACK_FAILED"},
    {S::kUpdateRollbackCompleteCleanupInProgress, "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS"},
    {S::kUpdateRollbackComplete, "UPDATE_ROLLBACK_COMPLETE"},
    {S::kImportInProgress, "IMPORT_IN_PROGRESS"},
    {S::kImportComplete, "IMPORT_COMPLETE"},
    {S::kImportRollbackInProgress, "IMPORT_ROLLBACK_IN_PROGRESS"},
    {S::kImportRollbackFailed, "IMPORT_ROLLBACK_FAILED"},
    {S::kImportRollbackComplete, "IMPORT_ROLLBACK_COMPLETE"},
};

const std::vector<std::pair<R, std::string>> kResources = {
    {R::kCreateInProgress, "CREATE_IN_PROGRESS"}, {R::kCreateFailed, "CREATE_FAILED"},
    {R::kCreateComplete, "CREATE_COMPLETE"},     {R::kUpdateInProgress, "UPDATE_IN_PROGRESS"},
    {R::kUpdateFailed, "UPDATE_FAILED"},         {R::kUpdateComplete, "UPDATE_COMPLETE"},
    {R::kDeleteInProgress, "DELETE_IN_PROGRESS"}, {R::kDeleteFailed, "DELETE_FAILED"},
    {R::kDeleteComplete, "DELETE_COMPLETE"},     {R::kDeleteSkipped, "DELETE_SKIPPED"},
    {R::kImportInProgress, "IMPORT_IN_PROGRESS"}, {R::kImportComplete, "IMPORT_COMPLETE"},
    {R::kImportFailed, "IMPORT_FAILED"},         {R::kImportRollbackInProgress, "IMPORT_ROLLBACK_IN_PROGRESS"},
    {R::kImportRollbackFailed, "IMPORT_ROLLBACK_FAILED"},
    {R::kImportRollbackComplete, "IMPORT_ROLLBACK_COMPLETE"},
};

template <typename E>
using Edge = std::pair<std::optional<E>, E>;

// The stack edges, group by group, as read from the seeds (see status.cc for
// the reasoning on each disagreement).
const std::vector<Edge<S>> kStackEdges = {
    // 001: nonexistent -> REVIEW_IN_PROGRESS | CREATE_IN_PROGRESS (002: the latter).
    {std::nullopt, S::kReviewInProgress},
    {std::nullopt, S::kCreateInProgress},
    {S::kReviewInProgress, S::kCreateInProgress},
    // AWS (neither seed): a stack in review can be deleted.
    {S::kReviewInProgress, S::kDeleteInProgress},
    // Create: 001 + 002; CREATE_FAILED (rollback disabled) from 002.
    {S::kCreateInProgress, S::kCreateComplete},
    {S::kCreateInProgress, S::kRollbackInProgress},
    {S::kCreateInProgress, S::kCreateFailed},
    // Create rollback: 002 -> ROLLBACK_COMPLETE; both -> ROLLBACK_FAILED;
    // 001 -> CREATE_FAILED.
    {S::kRollbackInProgress, S::kRollbackComplete},
    {S::kRollbackInProgress, S::kRollbackFailed},
    {S::kRollbackInProgress, S::kCreateFailed},
    // AWS's RollbackStack API (neither seed): a CREATE_FAILED stack rolls back.
    {S::kCreateFailed, S::kRollbackInProgress},
    // Updates from the stable states (001 + 002).
    {S::kCreateComplete, S::kUpdateInProgress},
    {S::kUpdateComplete, S::kUpdateInProgress},
    {S::kUpdateRollbackComplete, S::kUpdateInProgress},
    // Roll-forward (001 + 002; the direct -> UPDATE_COMPLETE from 002).
    {S::kUpdateInProgress, S::kUpdateCompleteCleanupInProgress},
    {S::kUpdateInProgress, S::kUpdateComplete},
    {S::kUpdateInProgress, S::kUpdateRollbackInProgress},
    {S::kUpdateCompleteCleanupInProgress, S::kUpdateComplete},
    // Neither seed (AWS): a nested stack waits in its cleanup phase for its
    // parent's, whose rollback rolls it back from there.
    {S::kUpdateCompleteCleanupInProgress, S::kUpdateRollbackInProgress},
    // No-rollback update (001).
    {S::kUpdateInProgress, S::kUpdateFailed},
    {S::kUpdateFailed, S::kUpdateInProgress},
    {S::kUpdateFailed, S::kUpdateRollbackInProgress},
    // Update rollback (001 + 002; the direct -> UPDATE_ROLLBACK_COMPLETE from 002).
    {S::kUpdateRollbackInProgress, S::kUpdateRollbackCompleteCleanupInProgress},
    {S::kUpdateRollbackInProgress, S::kUpdateRollbackComplete},
    {S::kUpdateRollbackInProgress, S::kUpdateRollbackFailed},
    {S::kUpdateRollbackCompleteCleanupInProgress, S::kUpdateRollbackComplete},
    {S::kUpdateRollbackFailed, S::kUpdateRollbackInProgress},
    // Deletes: 001 (stable box, UPDATE_ROLLBACK_FAILED), 002 (the failed and
    // ROLLBACK_COMPLETE), UPDATE_FAILED as an extension.
    {S::kCreateComplete, S::kDeleteInProgress},
    {S::kUpdateComplete, S::kDeleteInProgress},
    {S::kUpdateRollbackComplete, S::kDeleteInProgress},
    {S::kUpdateRollbackFailed, S::kDeleteInProgress},
    {S::kCreateFailed, S::kDeleteInProgress},
    {S::kRollbackComplete, S::kDeleteInProgress},
    {S::kRollbackFailed, S::kDeleteInProgress},
    {S::kDeleteFailed, S::kDeleteInProgress},
    {S::kUpdateFailed, S::kDeleteInProgress},
    {S::kDeleteInProgress, S::kDeleteComplete},
    {S::kDeleteInProgress, S::kDeleteFailed},
    // Resource import (neither seed: AWS's IMPORT change sets), from a stack
    // in review or a stable one; its ends are stable.
    {S::kReviewInProgress, S::kImportInProgress},
    {S::kCreateComplete, S::kImportInProgress},
    {S::kUpdateComplete, S::kImportInProgress},
    {S::kUpdateRollbackComplete, S::kImportInProgress},
    {S::kUpdateFailed, S::kImportInProgress},
    {S::kImportComplete, S::kImportInProgress},
    {S::kImportRollbackComplete, S::kImportInProgress},
    {S::kImportInProgress, S::kImportComplete},
    {S::kImportInProgress, S::kImportRollbackInProgress},
    {S::kImportRollbackInProgress, S::kImportRollbackComplete},
    {S::kImportRollbackInProgress, S::kImportRollbackFailed},
    {S::kImportComplete, S::kUpdateInProgress},
    {S::kImportComplete, S::kDeleteInProgress},
    {S::kImportRollbackComplete, S::kUpdateInProgress},
    {S::kImportRollbackComplete, S::kDeleteInProgress},
    {S::kImportRollbackFailed, S::kDeleteInProgress},
};

const std::vector<Edge<R>> kResourceEdges = {
    // 001's resource diagram.
    {std::nullopt, R::kCreateInProgress},
    {R::kCreateInProgress, R::kCreateComplete},
    {R::kCreateInProgress, R::kCreateFailed},
    {R::kCreateFailed, R::kDeleteInProgress},
    {R::kCreateFailed, R::kDeleteComplete},
    {R::kCreateComplete, R::kUpdateInProgress},
    {R::kCreateComplete, R::kDeleteInProgress},
    {R::kUpdateInProgress, R::kUpdateComplete},
    {R::kUpdateInProgress, R::kUpdateFailed},
    {R::kUpdateFailed, R::kUpdateInProgress},
    {R::kUpdateFailed, R::kUpdateComplete},
    {R::kUpdateComplete, R::kDeleteInProgress},
    {R::kDeleteInProgress, R::kDeleteComplete},
    {R::kDeleteInProgress, R::kDeleteFailed},
    {R::kDeleteInProgress, R::kDeleteSkipped},
    {R::kDeleteFailed, R::kDeleteInProgress},
    // Seed 000's observed events.
    {R::kUpdateComplete, R::kUpdateInProgress},
    {R::kCreateInProgress, R::kCreateInProgress},
    {R::kUpdateInProgress, R::kUpdateInProgress},
    {R::kCreateComplete, R::kUpdateComplete},
    {R::kUpdateComplete, R::kUpdateComplete},
    {R::kCreateComplete, R::kUpdateFailed},
    {R::kUpdateComplete, R::kUpdateFailed},
    // Extensions: deleting UPDATE_FAILED resources; DELETE_SKIPPED for Retain
    // and --retain-resources.
    {R::kUpdateFailed, R::kDeleteInProgress},
    {R::kCreateComplete, R::kDeleteSkipped},
    {R::kUpdateComplete, R::kDeleteSkipped},
    {R::kDeleteFailed, R::kDeleteSkipped},
    // Retain on a resource whose create was cancelled after it was made, or whose update failed.
    {R::kCreateFailed, R::kDeleteSkipped},
    {R::kUpdateFailed, R::kDeleteSkipped},
    // Resource import: associated, or un-associated by the import's rollback;
    // an imported resource is then like a created one.
    {std::nullopt, R::kImportInProgress},
    {R::kImportInProgress, R::kImportComplete},
    {R::kImportInProgress, R::kImportFailed},
    {R::kImportComplete, R::kImportRollbackInProgress},
    {R::kImportFailed, R::kImportRollbackInProgress},
    {R::kImportRollbackInProgress, R::kImportRollbackComplete},
    {R::kImportRollbackInProgress, R::kImportRollbackFailed},
    {R::kImportComplete, R::kUpdateInProgress},
    {R::kImportComplete, R::kUpdateComplete},
    {R::kImportComplete, R::kUpdateFailed},
    {R::kImportComplete, R::kDeleteInProgress},
    {R::kImportComplete, R::kDeleteSkipped},
    // The import's update applying the stack's tags failed on one: the
    // import's rollback un-associates the tagged ones too.
    {R::kUpdateComplete, R::kImportRollbackInProgress},
    {R::kUpdateFailed, R::kImportRollbackInProgress},
};

std::string Show(std::optional<S> s) { return s ? ms::StackStatusName(*s) : "(new)"; }
std::string Show(std::optional<R> r) { return r ? ms::ResourceStatusName(*r) : "(new)"; }

// Walks a status sequence through the checker, each step from the previous.
template <typename E, typename Check>
void Walk(std::optional<E> start, const std::vector<E>& seq, Check check) {
  std::optional<E> from = start;
  for (E to : seq) {
    Status s = check(from, to);
    INFO(Show(from) << " -> " << Show(std::optional<E>(to)));
    CHECK(s.message() == "");
    CHECK(s.ok());
    from = to;
  }
}

void WalkStack(std::optional<S> start, const std::vector<S>& seq) {
  Walk(start, seq, ms::CheckStackTransition);
}
void WalkResource(std::optional<R> start, const std::vector<R>& seq) {
  Walk(start, seq, ms::CheckResourceTransition);
}

}  // namespace

TEST_CASE("status: every stack status name round-trips", "[status]") {
  for (const auto& [status, name] : kStacks) {
    CHECK(std::string(ms::StackStatusName(status)) == name);
    S parsed = S::kDeleteComplete;
    REQUIRE(ms::ParseStackStatus(name, &parsed));
    CHECK(parsed == status);
  }
  S out = S::kCreateComplete;
  CHECK_FALSE(ms::ParseStackStatus("", &out));
  CHECK_FALSE(ms::ParseStackStatus("create_complete", &out));
  CHECK_FALSE(ms::ParseStackStatus("CREATE_COMPLETE ", &out));
  CHECK_FALSE(ms::ParseStackStatus("DELETE_SKIPPED", &out));  // a resource status only
  CHECK_FALSE(ms::ParseStackStatus("IMPORT_FAILED", &out));   // a resource status only
  CHECK(out == S::kCreateComplete);  // untouched on failure
}

TEST_CASE("status: every resource status name round-trips", "[status]") {
  for (const auto& [status, name] : kResources) {
    CHECK(std::string(ms::ResourceStatusName(status)) == name);
    R parsed = R::kDeleteSkipped;
    REQUIRE(ms::ParseResourceStatus(name, &parsed));
    CHECK(parsed == status);
  }
  R out = R::kCreateComplete;
  CHECK_FALSE(ms::ParseResourceStatus("ROLLBACK_COMPLETE", &out));  // a stack status only
  CHECK_FALSE(ms::ParseResourceStatus("REVIEW_IN_PROGRESS", &out));
  CHECK_FALSE(ms::ParseResourceStatus("Delete_Skipped", &out));
  CHECK(out == R::kCreateComplete);
}

TEST_CASE("status: terminal and in-progress stack statuses", "[status]") {
  const std::set<S> terminal = {
      S::kCreateFailed,  S::kCreateComplete,  S::kRollbackFailed,       S::kRollbackComplete,
      S::kDeleteFailed,  S::kDeleteComplete,  S::kUpdateComplete,       S::kUpdateFailed,
      S::kUpdateRollbackFailed, S::kUpdateRollbackComplete, S::kImportComplete, S::kImportRollbackFailed,
      S::kImportRollbackComplete,
  };
  const std::set<S> in_progress = {
      S::kCreateInProgress,         S::kRollbackInProgress,
      S::kDeleteInProgress,         S::kUpdateInProgress,
      S::kUpdateCompleteCleanupInProgress, S::kUpdateRollbackInProgress,
      S::kUpdateRollbackCompleteCleanupInProgress, S::kImportInProgress, S::kImportRollbackInProgress,
  };
  for (const auto& [status, name] : kStacks) {
    INFO(name);
    CHECK(ms::IsTerminal(status) == (terminal.count(status) == 1));
    CHECK(ms::IsInProgress(status) == (in_progress.count(status) == 1));
  }
  // REVIEW_IN_PROGRESS waits for a change set: neither.
  CHECK_FALSE(ms::IsTerminal(S::kReviewInProgress));
  CHECK_FALSE(ms::IsInProgress(S::kReviewInProgress));
  // "COMPLETE" in the name does not make the cleanup states terminal.
  CHECK_FALSE(ms::IsTerminal(S::kUpdateCompleteCleanupInProgress));
  CHECK_FALSE(ms::IsTerminal(S::kUpdateRollbackCompleteCleanupInProgress));
}

TEST_CASE("status: the stack lifecycle allows exactly the seeds' edges", "[status]") {
  std::set<Edge<S>> expected(kStackEdges.begin(), kStackEdges.end());
  REQUIRE(expected.size() == kStackEdges.size());
  std::vector<std::optional<S>> froms = {std::nullopt};
  for (const auto& [status, name] : kStacks) froms.push_back(status);
  int allowed = 0;
  for (const auto& from : froms) {
    for (const auto& [to, name] : kStacks) {
      INFO(Show(from) << " -> " << name);
      Status s = ms::CheckStackTransition(from, to);
      CHECK(s.ok() == (expected.count({from, to}) == 1));
      if (s.ok()) ++allowed;
    }
  }
  CHECK(allowed == static_cast<int>(kStackEdges.size()));
}

TEST_CASE("status: the resource lifecycle allows exactly the seeds' edges", "[status]") {
  std::set<Edge<R>> expected(kResourceEdges.begin(), kResourceEdges.end());
  REQUIRE(expected.size() == kResourceEdges.size());
  std::vector<std::optional<R>> froms = {std::nullopt};
  for (const auto& [status, name] : kResources) froms.push_back(status);
  int allowed = 0;
  for (const auto& from : froms) {
    for (const auto& [to, name] : kResources) {
      INFO(Show(from) << " -> " << name);
      Status s = ms::CheckResourceTransition(from, to);
      CHECK(s.ok() == (expected.count({from, to}) == 1));
      if (s.ok()) ++allowed;
    }
  }
  CHECK(allowed == static_cast<int>(kResourceEdges.size()));
}

TEST_CASE("status: illegal stack transitions are internal errors", "[status]") {
  Status s = ms::CheckStackTransition(S::kCreateComplete, S::kRollbackInProgress);
  CHECK(s.code() == Status::Code::kInternal);
  CHECK(s.message() == "illegal stack transition CREATE_COMPLETE -> ROLLBACK_IN_PROGRESS");

  const std::vector<std::pair<Edge<S>, std::string>> cases = {
      {{std::nullopt, S::kCreateComplete}, "illegal stack transition (new) -> CREATE_COMPLETE"},
      {{std::nullopt, S::kUpdateInProgress}, "illegal stack transition (new) -> UPDATE_IN_PROGRESS"},
      // Only deletes leave ROLLBACK_COMPLETE (002's prose, seed 000 run 3),
      // although 002's UpdateInProgress formula would allow it.
      {{S::kRollbackComplete, S::kUpdateInProgress},
       "illegal stack transition ROLLBACK_COMPLETE -> UPDATE_IN_PROGRESS"},
      // DELETE_COMPLETE is the end (002's IsCompleted would reopen it).
      {{S::kDeleteComplete, S::kDeleteInProgress},
       "illegal stack transition DELETE_COMPLETE -> DELETE_IN_PROGRESS"},
      {{S::kDeleteComplete, S::kUpdateInProgress},
       "illegal stack transition DELETE_COMPLETE -> UPDATE_IN_PROGRESS"},
      {{S::kDeleteComplete, S::kCreateInProgress},
       "illegal stack transition DELETE_COMPLETE -> CREATE_IN_PROGRESS"},
      // Seed 000 run 3: no update from CREATE_FAILED or while one runs.
      {{S::kCreateFailed, S::kUpdateInProgress},
       "illegal stack transition CREATE_FAILED -> UPDATE_IN_PROGRESS"},
      {{S::kUpdateRollbackFailed, S::kUpdateInProgress},
       "illegal stack transition UPDATE_ROLLBACK_FAILED -> UPDATE_IN_PROGRESS"},
      // Seed 000 run 32 writes this; read as a slip for UPDATE_ROLLBACK_COMPLETE.
      {{S::kUpdateRollbackCompleteCleanupInProgress, S::kUpdateComplete},
       "illegal stack transition UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS -> UPDATE_COMPLETE"},
      // The grouped box of 001: cleanup ends in its own operation's status.
      {{S::kUpdateCompleteCleanupInProgress, S::kUpdateRollbackComplete},
       "illegal stack transition UPDATE_COMPLETE_CLEANUP_IN_PROGRESS -> UPDATE_ROLLBACK_COMPLETE"},
      // A stack in review is deleted through DELETE_IN_PROGRESS.
      {{S::kReviewInProgress, S::kDeleteComplete},
       "illegal stack transition REVIEW_IN_PROGRESS -> DELETE_COMPLETE"},
      // Operations in progress are not interrupted by another.
      {{S::kCreateInProgress, S::kDeleteInProgress},
       "illegal stack transition CREATE_IN_PROGRESS -> DELETE_IN_PROGRESS"},
      {{S::kUpdateInProgress, S::kDeleteInProgress},
       "illegal stack transition UPDATE_IN_PROGRESS -> DELETE_IN_PROGRESS"},
      {{S::kRollbackInProgress, S::kRollbackInProgress},
       "illegal stack transition ROLLBACK_IN_PROGRESS -> ROLLBACK_IN_PROGRESS"},
      {{S::kCreateComplete, S::kCreateComplete},
       "illegal stack transition CREATE_COMPLETE -> CREATE_COMPLETE"},
      {{S::kUpdateRollbackFailed, S::kUpdateRollbackComplete},
       "illegal stack transition UPDATE_ROLLBACK_FAILED -> UPDATE_ROLLBACK_COMPLETE"},
  };
  for (const auto& [edge, message] : cases) {
    Status r = ms::CheckStackTransition(edge.first, edge.second);
    CHECK(r.code() == Status::Code::kInternal);
    CHECK(r.message() == message);
  }
}

TEST_CASE("status: illegal resource transitions are internal errors", "[status]") {
  const std::vector<std::pair<Edge<R>, std::string>> cases = {
      {{std::nullopt, R::kCreateComplete}, "illegal resource transition (new) -> CREATE_COMPLETE"},
      {{std::nullopt, R::kUpdateInProgress}, "illegal resource transition (new) -> UPDATE_IN_PROGRESS"},
      {{std::nullopt, R::kDeleteSkipped}, "illegal resource transition (new) -> DELETE_SKIPPED"},
      {{std::nullopt, R::kDeleteInProgress}, "illegal resource transition (new) -> DELETE_IN_PROGRESS"},
      {{R::kCreateInProgress, R::kUpdateComplete},
       "illegal resource transition CREATE_IN_PROGRESS -> UPDATE_COMPLETE"},
      {{R::kCreateInProgress, R::kDeleteInProgress},
       "illegal resource transition CREATE_IN_PROGRESS -> DELETE_IN_PROGRESS"},
      {{R::kCreateFailed, R::kCreateComplete},
       "illegal resource transition CREATE_FAILED -> CREATE_COMPLETE"},
      {{R::kCreateFailed, R::kUpdateInProgress},
       "illegal resource transition CREATE_FAILED -> UPDATE_IN_PROGRESS"},
      {{R::kCreateComplete, R::kCreateInProgress},
       "illegal resource transition CREATE_COMPLETE -> CREATE_IN_PROGRESS"},
      {{R::kCreateComplete, R::kDeleteComplete},
       "illegal resource transition CREATE_COMPLETE -> DELETE_COMPLETE"},
      {{R::kUpdateInProgress, R::kDeleteInProgress},
       "illegal resource transition UPDATE_IN_PROGRESS -> DELETE_IN_PROGRESS"},
      {{R::kUpdateFailed, R::kUpdateFailed},
       "illegal resource transition UPDATE_FAILED -> UPDATE_FAILED"},
      {{R::kDeleteInProgress, R::kDeleteInProgress},
       "illegal resource transition DELETE_IN_PROGRESS -> DELETE_IN_PROGRESS"},
      {{R::kDeleteFailed, R::kDeleteComplete},
       "illegal resource transition DELETE_FAILED -> DELETE_COMPLETE"},
      {{R::kDeleteComplete, R::kCreateInProgress},
       "illegal resource transition DELETE_COMPLETE -> CREATE_IN_PROGRESS"},
      {{R::kDeleteComplete, R::kDeleteInProgress},
       "illegal resource transition DELETE_COMPLETE -> DELETE_IN_PROGRESS"},
      {{R::kDeleteSkipped, R::kDeleteInProgress},
       "illegal resource transition DELETE_SKIPPED -> DELETE_IN_PROGRESS"},
  };
  for (const auto& [edge, message] : cases) {
    Status r = ms::CheckResourceTransition(edge.first, edge.second);
    CHECK(r.code() == Status::Code::kInternal);
    CHECK(r.message() == message);
  }
}

TEST_CASE("status: seed 000's stack status sequences are legal", "[status]") {
  // Creating the initial stack; run 3's setups.
  WalkStack(std::nullopt, {S::kCreateInProgress, S::kCreateComplete});
  WalkStack(std::nullopt, {S::kCreateInProgress, S::kCreateFailed, S::kDeleteInProgress,
                           S::kDeleteComplete});  // disableRollback
  WalkStack(std::nullopt, {S::kCreateInProgress, S::kRollbackInProgress, S::kRollbackFailed,
                           S::kDeleteInProgress, S::kDeleteFailed, S::kDeleteInProgress,
                           S::kDeleteComplete});
  WalkStack(std::nullopt, {S::kCreateInProgress, S::kRollbackInProgress, S::kRollbackComplete,
                           S::kDeleteInProgress, S::kDeleteComplete});
  // Runs 4-10, 26, 35, 37: a successful update (run 37 with cleanup failures).
  WalkStack(S::kCreateComplete,
            {S::kUpdateInProgress, S::kUpdateCompleteCleanupInProgress, S::kUpdateComplete,
             S::kUpdateInProgress, S::kUpdateCompleteCleanupInProgress, S::kUpdateComplete});
  // Runs 31, 33, 34, 38: update rolled back.
  WalkStack(S::kCreateComplete,
            {S::kUpdateInProgress, S::kUpdateRollbackInProgress,
             S::kUpdateRollbackCompleteCleanupInProgress, S::kUpdateRollbackComplete,
             S::kUpdateInProgress, S::kUpdateCompleteCleanupInProgress, S::kUpdateComplete});
  // Run 32 as the engine writes it (the seed's last status, UPDATE_COMPLETE,
  // is refused above).
  WalkStack(S::kCreateComplete,
            {S::kUpdateInProgress, S::kUpdateRollbackInProgress,
             S::kUpdateRollbackCompleteCleanupInProgress, S::kUpdateRollbackComplete});
  // Run 36: the rollback fails; then continue-update-rollback, or delete.
  WalkStack(S::kCreateComplete, {S::kUpdateInProgress, S::kUpdateRollbackInProgress,
                                 S::kUpdateRollbackFailed, S::kUpdateRollbackInProgress,
                                 S::kUpdateRollbackFailed, S::kDeleteInProgress,
                                 S::kDeleteComplete});
  // 001: a change set's stack, and a no-rollback update continued, rolled
  // back or deleted.
  WalkStack(std::nullopt, {S::kReviewInProgress, S::kCreateInProgress, S::kCreateComplete,
                           S::kUpdateInProgress, S::kUpdateFailed, S::kUpdateInProgress,
                           S::kUpdateFailed, S::kUpdateRollbackInProgress,
                           S::kUpdateRollbackCompleteCleanupInProgress,
                           S::kUpdateRollbackComplete, S::kUpdateInProgress, S::kUpdateFailed,
                           S::kDeleteInProgress, S::kDeleteComplete});
}

TEST_CASE("status: seed 000's resource status sequences are legal", "[status]") {
  const R CIP = R::kCreateInProgress, CF = R::kCreateFailed, CC = R::kCreateComplete;
  const R UIP = R::kUpdateInProgress, UF = R::kUpdateFailed, UC = R::kUpdateComplete;
  const R DIP = R::kDeleteInProgress, DF = R::kDeleteFailed, DC = R::kDeleteComplete;
  // Each walk is the resource's events in order (cleanup events included:
  // they are legal steps even though AWS leaves the visible status alone).

  // Run 4: Instance3 created; Instance1 removed in cleanup.
  WalkResource(std::nullopt, {CIP, CC});
  WalkResource(CC, {DIP, DC});
  // Run 6/7: replacement ('Requested update requires ...', then 'Resource
  // creation initiated'), then the old one deleted in cleanup.
  WalkResource(CC, {UIP, UIP, UC, DIP, DC});
  // Run 26: a Metadata-only change.
  WalkResource(CC, {UC});
  // Run 32: WaitCondition update not supported, then no-op rollback.
  WalkResource(CC, {UF, UC});
  // Run 33: Instance2 updated then updated back; Instance3 replaced then
  // pointed back, its replacement deleted; Instance4 created then deleted in
  // rollback cleanup; Instance5 fails to create and is deleted.
  WalkResource(CC, {UIP, UC, UIP, UC});
  WalkResource(CC, {UIP, UIP, UC, UC, DIP, DC});
  WalkResource(std::nullopt, {CIP, CIP, CC, DIP, DC});
  WalkResource(std::nullopt, {CIP, CF, DC});
  // Run 34: Instance2's update fails (terminated by hand), no-op rollback;
  // Instance3's creation is cancelled ('Resource creation cancelled') and
  // deleted in rollback cleanup.
  WalkResource(CC, {UIP, UF, UC});
  WalkResource(std::nullopt, {CIP, CIP, CF, DIP, DC});
  // Run 35: Instance2 updated; Instance3 created; Instance1 deleted.
  WalkResource(CC, {UIP, UC});
  // Run 36: Instance2 updated, then its rollback update fails; Instance4
  // fails to create and is deleted (the seed names 'Instance1' there, which
  // the update never touched: read as Instance4).
  WalkResource(CC, {UIP, UC, UIP, UF});
  WalkResource(std::nullopt, {CIP, CC});
  WalkResource(std::nullopt, {CIP, CF, DC});
  // Run 37: SG1's delete fails three times in cleanup.
  WalkResource(CC, {DIP, DF, DIP, DF, DIP, DF});
  // Run 38: SG3 created, its rollback-cleanup delete fails three times;
  // Instance1/2 created and deleted; Instance3 fails and is deleted.
  WalkResource(std::nullopt, {CIP, CC, DIP, DF, DIP, DF, DIP, DF});
  WalkResource(std::nullopt, {CIP, CC, DIP, DC});
  WalkResource(std::nullopt, {CIP, CF, DC});
  // Run 36 then delete-stack: the UPDATE_FAILED resource is deleted.
  WalkResource(UF, {DIP, DC});
  // 001: a custom resource's failed update is updated back; retained
  // resources and delete retries.
  WalkResource(CC, {UIP, UF, UIP, UC, DIP, R::kDeleteSkipped});
  WalkResource(UC, {R::kDeleteSkipped});
  WalkResource(CC, {DIP, DF, R::kDeleteSkipped});
  WalkResource(CC, {DIP, DF, DIP, DC});
}

TEST_CASE("operations: the status a stack enters says which operation begins, and LastOperations keeps the last "
          "one its user started with the rollback after it, newest first",
          "[records][operations]") {
  CHECK(std::string(ms::OperationStartedBy(std::nullopt, S::kCreateInProgress)) == "CREATE_STACK");
  CHECK(std::string(ms::OperationStartedBy(std::nullopt, S::kReviewInProgress)) == "CREATE_CHANGESET");
  CHECK(std::string(ms::OperationStartedBy(S::kCreateComplete, S::kUpdateInProgress)) == "UPDATE_STACK");
  CHECK(std::string(ms::OperationStartedBy(S::kCreateInProgress, S::kRollbackInProgress)) == "ROLLBACK");
  CHECK(std::string(ms::OperationStartedBy(S::kUpdateFailed, S::kUpdateRollbackInProgress)) == "ROLLBACK");
  CHECK(std::string(ms::OperationStartedBy(S::kUpdateRollbackFailed, S::kUpdateRollbackInProgress)) ==
        "CONTINUE_ROLLBACK");
  CHECK(std::string(ms::OperationStartedBy(S::kRollbackComplete, S::kDeleteInProgress)) == "DELETE_STACK");
  CHECK(ms::OperationStartedBy(S::kUpdateInProgress, S::kUpdateCompleteCleanupInProgress) == nullptr);
  CHECK(ms::OperationStartedBy(S::kCreateInProgress, S::kCreateComplete) == nullptr);

  ms::StackRecord s;
  s.BeginOperationFor(std::nullopt, S::kCreateInProgress, "a");
  s.BeginOperationFor(S::kCreateInProgress, S::kRollbackInProgress, "b");
  s.BeginOperationFor(S::kRollbackInProgress, S::kRollbackComplete, "unused");  // goes on with b
  CHECK(s.operation_id == "b");
  REQUIRE(s.last_operations.size() == 2);
  CHECK((s.last_operations[0].type == "ROLLBACK" && s.last_operations[0].id == "b"));
  CHECK((s.last_operations[1].type == "CREATE_STACK" && s.last_operations[1].id == "a"));
  s.BeginOperationFor(S::kRollbackComplete, S::kDeleteInProgress, "c");  // a user's operation starts afresh
  REQUIRE(s.last_operations.size() == 1);
  CHECK((s.last_operations[0].type == "DELETE_STACK" && s.last_operations[0].id == "c"));
}
