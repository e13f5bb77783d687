// Stack and resource statuses: names, classification and the lifecycle edges.
//
// Every lookup is a table indexed by the enum (names, flags, a bit set of the
// statuses reachable in one step); parsing a name is one hash-map lookup.
//
// Sources (see /work/shared/seeds):
//   001  aws-cdk "CloudFormation internals": stack and resource lifecycle
//        diagrams (text art). Where an arrow points at the grouped box
//        CREATE_COMPLETE / UPDATE_COMPLETE / UPDATE_ROLLBACK_COMPLETE, the
//        edge goes to the member that the operation ends in (an update's
//        cleanup ends in UPDATE_COMPLETE, a rollback's in
//        UPDATE_ROLLBACK_COMPLETE), not to all three.
//   002  TLA+ model of stack statuses, relation `Next`.
//   000  Eucalyptus' 38 update-stack runs against AWS (observed events).
// The stack table is the union of 001 and 002, minus the 002 edges that the
// seeds themselves contradict, plus one extension; each group says where it
// comes from, and the disagreements are spelled out where they occur.
#include "records/status.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>

namespace ms {
namespace {

constexpr int kStackCount = static_cast<int>(StackStatus::kImportRollbackComplete) + 1;
constexpr int kResourceCount = static_cast<int>(ResourceStatus::kImportRollbackComplete) + 1;
static_assert(kStackCount <= 32 && kResourceCount <= 32, "edge sets are 32-bit masks");

int Index(StackStatus s) { return static_cast<int>(s); }
int Index(ResourceStatus s) { return static_cast<int>(s); }

struct Info {
  const char* name;
  bool terminal;     // *_COMPLETE, *_FAILED: no operation running
  bool in_progress;  // *_IN_PROGRESS, except REVIEW_IN_PROGRESS
};

// Indexed by StackStatus; order must match the enum (checked below by name).
constexpr Info kStackInfo[] = {
    {"REVIEW_IN_PROGRESS", false, false},
    {"CREATE_IN_PROGRESS", false, true},
    {"CREATE_FAILED", true, false},
    {"CREATE_COMPLETE", true, false},
    {"ROLLBACK_IN_PROGRESS", false, true},
    {"ROLLBACK_FAILED", true, false},
    {"ROLLBACK_COMPLETE", true, false},
    {"DELETE_IN_PROGRESS", false, true},
    {"DELETE_FAILED", true, false},
    {"DELETE_COMPLETE", true, false},
    {"UPDATE_IN_PROGRESS", false, true},
    {"UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", false, true},
    {"UPDATE_COMPLETE", true, false},
    {"UPDATE_FAILED", true, false},
    {"UPDATE_ROLLBACK_IN_PROGRESS", false, true},
    {"UPDATE_ROLLBACK_FAILED", true, false},
    {"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", false, true},
    {"UPDATE_ROLLBACK_COMPLETE", true, false},
    {"IMPORT_IN_PROGRESS", false, true},
    {"IMPORT_COMPLETE", true, false},
    {"IMPORT_ROLLBACK_IN_PROGRESS", false, true},
    {"IMPORT_ROLLBACK_FAILED", true, false},
    {"IMPORT_ROLLBACK_COMPLETE", true, false},
};
static_assert(sizeof(kStackInfo) / sizeof(kStackInfo[0]) == kStackCount, "one name per StackStatus");

// Indexed by ResourceStatus.
constexpr const char* kResourceNames[] = {
    "CREATE_IN_PROGRESS", "CREATE_FAILED",   "CREATE_COMPLETE",
    "UPDATE_IN_PROGRESS", "UPDATE_FAILED",   "UPDATE_COMPLETE",
    "DELETE_IN_PROGRESS", "DELETE_FAILED",   "DELETE_COMPLETE",
    "DELETE_SKIPPED",
    "IMPORT_IN_PROGRESS", "IMPORT_COMPLETE", "IMPORT_FAILED",
    "IMPORT_ROLLBACK_IN_PROGRESS", "IMPORT_ROLLBACK_FAILED", "IMPORT_ROLLBACK_COMPLETE",
};
static_assert(sizeof(kResourceNames) / sizeof(kResourceNames[0]) == kResourceCount,
              "one name per ResourceStatus");

// from_new: the statuses a new (nonexistent) stack/resource may enter;
// next[i]: the statuses reachable in one step from status i.
struct EdgeTable {
  uint32_t from_new = 0;
  uint32_t next[32] = {};
};

template <typename E>
uint32_t Mask(std::initializer_list<E> to) {
  uint32_t m = 0;
  for (E s : to) m |= 1u << Index(s);
  return m;
}

const EdgeTable& StackEdges() {
  static const EdgeTable table = [] {
    using S = StackStatus;
    EdgeTable t;
    auto allow = [&t](std::initializer_list<S> from, std::initializer_list<S> to) {
      for (S f : from) t.next[Index(f)] |= Mask(to);
    };

    // --- Creation. 001: nonexistent -> REVIEW_IN_PROGRESS (a change set of
    // type CREATE) or straight to CREATE_IN_PROGRESS; REVIEW_IN_PROGRESS ->
    // CREATE_IN_PROGRESS. 002 (CreateInProgress) has only the latter: it
    // declares REVIEW_IN_PROGRESS but no action reaches or leaves it.
    // Neither seed draws a stack in review being deleted; AWS allows it
    // (DeleteStack on a stack a CREATE change set made, as the CDK does when
    // such a change set fails): REVIEW_IN_PROGRESS -> DELETE_IN_PROGRESS.
    t.from_new = Mask({S::kReviewInProgress, S::kCreateInProgress});
    allow({S::kReviewInProgress}, {S::kCreateInProgress, S::kDeleteInProgress});

    // 001 and 002 (CreateComplete, RollbackInProgress).
    allow({S::kCreateInProgress}, {S::kCreateComplete, S::kRollbackInProgress});
    // 002 (CreateFailed): rollback disabled (--disable-rollback / DO_NOTHING).
    // 001 has no such arrow.
    allow({S::kCreateInProgress}, {S::kCreateFailed});

    // --- Create rollback. 001 and 002 (RollbackFailed): -> ROLLBACK_FAILED.
    // 002 (RollbackComplete): -> ROLLBACK_COMPLETE; 001 has no
    // ROLLBACK_COMPLETE box at all and instead draws
    // ROLLBACK_IN_PROGRESS -> CREATE_FAILED. The seeds disagree here; the
    // union keeps both (DESIGN.md: rollback ends in ROLLBACK_COMPLETE or
    // ROLLBACK_FAILED, CREATE_FAILED only with rollback disabled, so the
    // engine should not take the 001-only edge).
    allow({S::kRollbackInProgress}, {S::kRollbackComplete, S::kRollbackFailed, S::kCreateFailed});
    // Neither seed: AWS's RollbackStack API rolls a CREATE_FAILED stack
    // (rollback disabled) back "to the last known stable state".
    allow({S::kCreateFailed}, {S::kRollbackInProgress});

    // --- Updates start from the stable states. 001 (the grouped box) and
    // 002 (UpdateInProgress: IsCompleted) agree on CREATE_COMPLETE,
    // UPDATE_COMPLETE and UPDATE_ROLLBACK_COMPLETE. 002 read literally also
    // allows ROLLBACK_COMPLETE and DELETE_COMPLETE -> UPDATE_IN_PROGRESS;
    // refused: 002's own prose says ROLLBACK_COMPLETE allows "only a delete
    // operation", DELETE_COMPLETE is the end of a stack, and seed 000 run 3
    // observed AWS refusing updates in both ("... can not be updated").
    allow({S::kCreateComplete, S::kUpdateComplete, S::kUpdateRollbackComplete},
          {S::kUpdateInProgress});

    // --- Update roll-forward. 001 and 002 (UpdateCompleteCleanupInProgress,
    // UpdateComplete, UpdateRollbackInProgress). 002 also goes
    // UPDATE_IN_PROGRESS -> UPDATE_COMPLETE directly (no cleanup phase);
    // 001 always passes through the cleanup state.
    allow({S::kUpdateInProgress}, {S::kUpdateCompleteCleanupInProgress, S::kUpdateComplete,
                                   S::kUpdateRollbackInProgress});
    allow({S::kUpdateCompleteCleanupInProgress}, {S::kUpdateComplete});
    // Neither seed: a nested stack waits in its cleanup phase for its
    // parent's (AWS), and the parent's rollback rolls it back from there.
    allow({S::kUpdateCompleteCleanupInProgress}, {S::kUpdateRollbackInProgress});
    // 001 only (002 has no UPDATE_FAILED): no-rollback update fails; from
    // UPDATE_FAILED the user continues (update again) or rolls back
    // (rollback-stack).
    allow({S::kUpdateInProgress}, {S::kUpdateFailed});
    allow({S::kUpdateFailed}, {S::kUpdateInProgress, S::kUpdateRollbackInProgress});

    // --- Update rollback. 001 and 002 (UpdateRollbackCompleteCleanupInProgress,
    // UpdateRollbackComplete, UpdateRollbackFailed, ManuallyDeleteResources =
    // continue-update-rollback). 002 also goes UPDATE_ROLLBACK_IN_PROGRESS ->
    // UPDATE_ROLLBACK_COMPLETE directly; 001 always passes through cleanup.
    // Seed 000 run 32 reports the rollback cleanup ending in UPDATE_COMPLETE;
    // refused as a slip of the observer: runs 31, 33, 34 and 38 (and the
    // seed's own summary) end a rollback in UPDATE_ROLLBACK_COMPLETE.
    allow({S::kUpdateRollbackInProgress},
          {S::kUpdateRollbackCompleteCleanupInProgress, S::kUpdateRollbackComplete,
           S::kUpdateRollbackFailed});
    allow({S::kUpdateRollbackCompleteCleanupInProgress}, {S::kUpdateRollbackComplete});
    allow({S::kUpdateRollbackFailed}, {S::kUpdateRollbackInProgress});

    // --- Deletion. 001: from the stable box (CREATE_COMPLETE,
    // UPDATE_COMPLETE, UPDATE_ROLLBACK_COMPLETE) and UPDATE_ROLLBACK_FAILED.
    // 002 (DeleteInProgress: IsCompleted or IsFailed) adds CREATE_FAILED,
    // ROLLBACK_COMPLETE, ROLLBACK_FAILED and DELETE_FAILED (delete again);
    // its DELETE_COMPLETE -> DELETE_IN_PROGRESS is refused (a deleted stack
    // is gone; deleting it again is a no-op, not a new transition).
    allow({S::kCreateComplete, S::kUpdateComplete, S::kUpdateRollbackComplete,
           S::kUpdateRollbackFailed, S::kCreateFailed, S::kRollbackComplete, S::kRollbackFailed,
           S::kDeleteFailed},
          {S::kDeleteInProgress});
    // Extension, in neither seed: UPDATE_FAILED (a no-rollback update) can be
    // deleted, like its create counterpart CREATE_FAILED (002), as AWS's
    // stack-failure options allow.
    allow({S::kUpdateFailed}, {S::kDeleteInProgress});
    // 001 and 002 (DeleteComplete, DeleteFailed).
    allow({S::kDeleteInProgress}, {S::kDeleteComplete, S::kDeleteFailed});

    // --- Resource import, in neither seed (AWS's IMPORT change sets, "Import
    // AWS resources into a CloudFormation stack"): from a stack in review (a
    // new stack) or any stable one; an import that fails rolls back, which
    // only un-associates what it imported. Its ends are stable: updated,
    // imported into again, or deleted like an update's.
    allow({S::kReviewInProgress, S::kCreateComplete, S::kUpdateComplete, S::kUpdateRollbackComplete,
           S::kUpdateFailed, S::kImportComplete, S::kImportRollbackComplete},
          {S::kImportInProgress});
    allow({S::kImportInProgress}, {S::kImportComplete, S::kImportRollbackInProgress});
    allow({S::kImportRollbackInProgress}, {S::kImportRollbackComplete, S::kImportRollbackFailed});
    allow({S::kImportComplete, S::kImportRollbackComplete}, {S::kUpdateInProgress, S::kDeleteInProgress});
    allow({S::kImportRollbackFailed}, {S::kDeleteInProgress});
    return t;
  }();
  return table;
}

const EdgeTable& ResourceEdges() {
  static const EdgeTable table = [] {
    using R = ResourceStatus;
    EdgeTable t;
    auto allow = [&t](std::initializer_list<R> from, std::initializer_list<R> to) {
      for (R f : from) t.next[Index(f)] |= Mask(to);
    };

    // --- 001's resource diagram.
    t.from_new = Mask({R::kCreateInProgress});
    // CREATE_FAILED covers a failed create and a cancelled one ('Resource
    // creation cancelled', seed 000 run 34).
    allow({R::kCreateInProgress}, {R::kCreateComplete, R::kCreateFailed});
    // A failed create is deleted by the rollback: through DELETE_IN_PROGRESS,
    // or straight to DELETE_COMPLETE when there is nothing to delete (seed 000
    // runs 33 and 38 show CREATE_FAILED -> DELETE_COMPLETE).
    allow({R::kCreateFailed}, {R::kDeleteInProgress, R::kDeleteComplete});
    allow({R::kCreateComplete}, {R::kUpdateInProgress, R::kDeleteInProgress});
    allow({R::kUpdateInProgress}, {R::kUpdateComplete, R::kUpdateFailed});
    // Rollback of a failed update: updated back ("custom resource rollback")
    // or nothing to undo ("no-op rollback"; seed 000 runs 32 and 34).
    allow({R::kUpdateFailed}, {R::kUpdateInProgress, R::kUpdateComplete});
    allow({R::kUpdateComplete}, {R::kDeleteInProgress});
    allow({R::kDeleteInProgress}, {R::kDeleteComplete, R::kDeleteFailed, R::kDeleteSkipped});
    // The leftmost arrow: a failed delete is tried again.
    allow({R::kDeleteFailed}, {R::kDeleteInProgress});

    // --- Seed 000 (observed AWS events), not drawn in 001.
    // A resource is updated again (a later update, or an update rollback:
    // run 33's Instance2 goes UPDATE_COMPLETE -> UPDATE_IN_PROGRESS).
    allow({R::kUpdateComplete}, {R::kUpdateInProgress});
    // The status stays and only the reason changes: 'Requested update
    // requires the creation of a new physical resource; hence creating one.'
    // then 'Resource creation Initiated' (runs 6, 7, 9, 33, 34).
    allow({R::kCreateInProgress}, {R::kCreateInProgress});
    allow({R::kUpdateInProgress}, {R::kUpdateInProgress});
    // UPDATE_COMPLETE with no UPDATE_IN_PROGRESS: a Metadata-only change
    // (run 26, from CREATE_COMPLETE) and a rollback pointing a replaced
    // resource back at its old physical resource (run 33's Instance3,
    // UPDATE_COMPLETE -> UPDATE_COMPLETE).
    allow({R::kCreateComplete, R::kUpdateComplete}, {R::kUpdateComplete});
    // UPDATE_FAILED with no UPDATE_IN_PROGRESS: the update is refused before
    // it starts ('Update to resource type AWS::CloudFormation::WaitCondition
    // is not supported', run 32, from CREATE_COMPLETE; the same from
    // UPDATE_COMPLETE by analogy).
    allow({R::kCreateComplete, R::kUpdateComplete}, {R::kUpdateFailed});

    // --- Extensions in neither seed (AWS behaviour the engine needs).
    // Deleting a stack left in UPDATE_ROLLBACK_FAILED / UPDATE_FAILED deletes
    // its resources that are still UPDATE_FAILED.
    allow({R::kUpdateFailed}, {R::kDeleteInProgress});
    // DeletionPolicy Retain: the resource is skipped without a delete
    // attempt; delete-stack --retain-resources on a DELETE_FAILED stack skips
    // the resources that failed to delete. (001 only draws
    // DELETE_IN_PROGRESS -> DELETE_SKIPPED.)
    allow({R::kCreateComplete, R::kUpdateComplete, R::kDeleteFailed}, {R::kDeleteSkipped});
    // ... and a Retain resource whose create was cancelled after it was made,
    // or whose update failed, is kept the same way (found by the property
    // test, tests/stack/property_test.cc).
    allow({R::kCreateFailed, R::kUpdateFailed}, {R::kDeleteSkipped});

    // --- Resource import (AWS's resource statuses IMPORT_*): a new record
    // goes IMPORT_IN_PROGRESS -> IMPORT_COMPLETE or IMPORT_FAILED; the
    // import's rollback un-associates it (IMPORT_ROLLBACK_*). An imported
    // resource is then one of the stack's like a created one.
    t.from_new |= Mask({R::kImportInProgress});
    allow({R::kImportInProgress}, {R::kImportComplete, R::kImportFailed});
    allow({R::kImportComplete, R::kImportFailed}, {R::kImportRollbackInProgress});
    allow({R::kImportRollbackInProgress}, {R::kImportRollbackComplete, R::kImportRollbackFailed});
    allow({R::kImportComplete},
          {R::kUpdateInProgress, R::kUpdateComplete, R::kUpdateFailed, R::kDeleteInProgress, R::kDeleteSkipped});
    // The import's follow-up update that applies the stack's tags
    // (stack/import_operation.h) failed on one of them: the import rolls
    // back every resource it tagged or tried to.
    allow({R::kUpdateComplete, R::kUpdateFailed}, {R::kImportRollbackInProgress});
    return t;
  }();
  return table;
}

template <typename E>
const std::unordered_map<std::string_view, E>& NameIndex(const char* (*name)(E), int count) {
  static const std::unordered_map<std::string_view, E> index = [&] {
    std::unordered_map<std::string_view, E> m;
    for (int i = 0; i < count; ++i) m.emplace(name(static_cast<E>(i)), static_cast<E>(i));
    return m;
  }();
  return index;
}

template <typename E>
bool Parse(std::string_view text, const char* (*name)(E), int count, E* out) {
  const auto& index = NameIndex(name, count);
  auto it = index.find(text);
  if (it == index.end()) return false;
  *out = it->second;
  return true;
}

template <typename E>
bool Allowed(const EdgeTable& t, std::optional<E> from, E to) {
  uint32_t reachable = from ? t.next[Index(*from)] : t.from_new;
  return (reachable >> Index(to)) & 1u;
}

}  // namespace

const char* StackStatusName(StackStatus s) { return kStackInfo[Index(s)].name; }

const char* ResourceStatusName(ResourceStatus s) { return kResourceNames[Index(s)]; }

bool ParseStackStatus(std::string_view name, StackStatus* out) {
  return Parse(name, &StackStatusName, kStackCount, out);
}

bool ParseResourceStatus(std::string_view name, ResourceStatus* out) {
  return Parse(name, &ResourceStatusName, kResourceCount, out);
}

bool IsTerminal(StackStatus s) { return kStackInfo[Index(s)].terminal; }

bool IsInProgress(StackStatus s) { return kStackInfo[Index(s)].in_progress; }

bool IsInProgress(ResourceStatus s) {
  return s == ResourceStatus::kCreateInProgress || s == ResourceStatus::kUpdateInProgress ||
         s == ResourceStatus::kDeleteInProgress || s == ResourceStatus::kImportInProgress ||
         s == ResourceStatus::kImportRollbackInProgress;
}

bool IsUpdatable(StackStatus s) {
  return s == StackStatus::kCreateComplete || s == StackStatus::kUpdateComplete ||
         s == StackStatus::kUpdateRollbackComplete || s == StackStatus::kUpdateFailed ||
         s == StackStatus::kImportComplete || s == StackStatus::kImportRollbackComplete;
}

Status CheckStackTransition(std::optional<StackStatus> from, StackStatus to) {
  if (Allowed(StackEdges(), from, to)) return Status::OK();
  return Status::Internal(std::string("illegal stack transition ") +
                          (from ? StackStatusName(*from) : "(new)") + " -> " +
                          StackStatusName(to));
}

Status CheckResourceTransition(std::optional<ResourceStatus> from, ResourceStatus to) {
  if (Allowed(ResourceEdges(), from, to)) return Status::OK();
  return Status::Internal(std::string("illegal resource transition ") +
                          (from ? ResourceStatusName(*from) : "(new)") + " -> " +
                          ResourceStatusName(to));
}

}  // namespace ms
