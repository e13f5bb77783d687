// Stack and resource statuses and the transitions between them.
//
// The allowed edges are seed 001's diagrams (stack lifecycle and resource
// lifecycle) and seed 002's `Next` relation. The engine checks every
// transition it makes (CheckStackTransition / CheckResourceTransition): a
// disallowed one is an internal error, never a silent wrong state.
#pragma once

#include <optional>
#include <string_view>

#include "base/status.h"

namespace ms {

enum class StackStatus {
  kReviewInProgress,
  kCreateInProgress,
  kCreateFailed,
  kCreateComplete,
  kRollbackInProgress,
  kRollbackFailed,
  kRollbackComplete,
  kDeleteInProgress,
  kDeleteFailed,
  kDeleteComplete,
  kUpdateInProgress,
  kUpdateCompleteCleanupInProgress,
  kUpdateComplete,
  kUpdateFailed,
  kUpdateRollbackInProgress,
  kUpdateRollbackFailed,
  kUpdateRollbackCompleteCleanupInProgress,
  kUpdateRollbackComplete,
  // Resource import (an IMPORT change set executed).
  kImportInProgress,
  kImportComplete,
  kImportRollbackInProgress,
  kImportRollbackFailed,
  kImportRollbackComplete,
};

enum class ResourceStatus {
  kCreateInProgress,
  kCreateFailed,
  kCreateComplete,
  kUpdateInProgress,
  kUpdateFailed,
  kUpdateComplete,
  kDeleteInProgress,
  kDeleteFailed,
  kDeleteComplete,
  kDeleteSkipped,
  // Resource import: the resource is being (un)associated, never made or deleted.
  kImportInProgress,
  kImportComplete,
  kImportFailed,
  kImportRollbackInProgress,
  kImportRollbackFailed,
  kImportRollbackComplete,
};

// AWS's spelling: "CREATE_IN_PROGRESS", ...
const char* StackStatusName(StackStatus s);
const char* ResourceStatusName(ResourceStatus s);
bool ParseStackStatus(std::string_view name, StackStatus* out);
bool ParseResourceStatus(std::string_view name, ResourceStatus* out);

// No operation is running: *_COMPLETE, *_FAILED (REVIEW_IN_PROGRESS is not
// terminal: it waits for a change set).
bool IsTerminal(StackStatus s);
// An operation is running (*_IN_PROGRESS except REVIEW_IN_PROGRESS).
bool IsInProgress(StackStatus s);
// CREATE_IN_PROGRESS, UPDATE_IN_PROGRESS, DELETE_IN_PROGRESS,
// IMPORT_IN_PROGRESS, IMPORT_ROLLBACK_IN_PROGRESS.
bool IsInProgress(ResourceStatus s);
// update-stack (and an UPDATE or IMPORT change set) accepts these states only
// (seed 000 run 3): CREATE_COMPLETE, UPDATE_COMPLETE, UPDATE_ROLLBACK_COMPLETE,
// UPDATE_FAILED (seed 001), and an import's ends IMPORT_COMPLETE and
// IMPORT_ROLLBACK_COMPLETE (AWS: the stack is as stable as after an update).
bool IsUpdatable(StackStatus s);

// OK when `from` -> `to` is an edge of the stack lifecycle; `from` empty
// means the stack is new (only REVIEW_IN_PROGRESS or CREATE_IN_PROGRESS).
// Otherwise Status::Internal("illegal stack transition X -> Y").
Status CheckStackTransition(std::optional<StackStatus> from, StackStatus to);
// The same for a resource; `from` empty means the resource is new.
Status CheckResourceTransition(std::optional<ResourceStatus> from, ResourceStatus to);

}  // namespace ms
