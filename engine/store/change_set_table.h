// Persistence of change sets (schema migration 3): one row per change set,
// its template in a column of its own (as stacks keep theirs), everything
// else JSON in `data`.
//
// The records hold what DescribeChangeSet shows, already in AWS's spellings
// ("Modify", "True", "Always", ...), so describing a change set never plans
// again: it shows what was planned when it was created.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "records/stack.h"
#include "store/database.h"

namespace ms {

// ResourceChangeDetail: Target {Attribute, Name, RequiresRecreation},
// Evaluation, ChangeSource, CausingEntity. Empty strings are left out.
struct ChangeSetDetail {
  std::string attribute;            // Properties, Metadata
  std::string name;                 // the property (Properties)
  std::string requires_recreation;  // Never, Conditionally, Always (Properties)
  std::string evaluation;           // Static, Dynamic
  std::string change_source;        // DirectModification, ParameterReference, ...
  std::string causing_entity;
};

// ResourceChange (Change.Type is always "Resource").
struct ChangeSetResourceChange {
  std::string action;  // Add, Modify, Remove
  std::string logical_id;
  std::string physical_id;  // empty for Add
  std::string resource_type;
  std::string replacement;  // True, False, Conditional (Modify only)
  std::vector<std::string> scope;
  std::vector<ChangeSetDetail> details;
  // DescribeChangeSet --include-property-values: the resource's properties
  // before and after the change, JSON text {"Properties": {...}}; empty for
  // the side that does not exist (Add: before, Remove: after).
  std::string before_context;
  std::string after_context;
  // IncludeNestedStacks, an AWS::CloudFormation::Stack resource: the ID of
  // the change set made on its child stack (ResourceChange.ChangeSetId).
  std::string change_set_id;
};

// One entry of an IMPORT change set's ResourcesToImport, as checked when the
// change set was made: the resource found, its physical ID (the identifier's
// values in the type's primary identifier order, joined with "|" when there
// are several), and the properties its template declaration evaluated to,
// which the stack keeps once it is imported.
struct ChangeSetImport {
  std::string logical_id;
  std::string resource_type;
  std::vector<std::pair<std::string, std::string>> identifier;  // ResourceIdentifier, key order
  std::string physical_id;
  Value properties;
};

struct ChangeSetRecord {
  std::string id;  // arn:aws:cloudformation:<region>:<account>:changeSet/<name>/<uuid>
  std::string name;
  std::string stack_id;
  std::string stack_name;
  std::string type;              // CREATE, UPDATE, IMPORT
  std::string status;            // CREATE_PENDING, CREATE_COMPLETE, FAILED
  std::string execution_status;  // UNAVAILABLE, AVAILABLE, EXECUTE_*, OBSOLETE
  std::string status_reason;
  std::string description;
  int64_t created_ms = 0;
  // The stack's latest event when the change set was made: a stack that
  // has had an operation since (update-stack, another change set executed)
  // makes it OBSOLETE. (Not LastUpdatedTime: in virtual time two updates
  // can happen at the same instant.)
  int64_t stack_event_seq = 0;
  std::string template_body;
  std::string original_template_body;  // as submitted, when AWS::Include changed it (else empty)
  // The parameters as resolved when planning (UsePreviousValue already
  // replaced by the value), so executing plans with exactly these.
  std::vector<StackParameterValue> parameters;
  std::vector<std::string> capabilities;
  std::vector<StackTag> tags;
  std::vector<ChangeSetResourceChange> changes;
  std::vector<ChangeSetImport> imports;  // IMPORT: what executing it imports
  // IncludeNestedStacks: a change set on each nested stack it changes, made
  // with it (changes[i].change_set_id). A nested one names the change set
  // of its parent stack and the root's (empty on the root itself).
  bool include_nested = false;
  std::string parent_change_set_id;
  std::string root_change_set_id;
  // The CREATE_CHANGESET operation that made it (DescribeEvents); empty in
  // rows written before operations had IDs.
  std::string operation_id;
};

// Inserts or replaces the change set (by id).
Status SaveChangeSet(Database* db, const ChangeSetRecord& cs);
Status DeleteChangeSetRow(Database* db, const std::string& id);
// By id; *found false when there is none.
Status LoadChangeSet(Database* db, const std::string& id, ChangeSetRecord* out, bool* found);
// By stack ID and change set name; *found false when there is none.
Status FindChangeSet(Database* db, const std::string& stack_id, const std::string& name, ChangeSetRecord* out,
                     bool* found);
// The seq of the stack's latest events row (0: none): it changes whenever
// the stack records an event.
Status LatestStackEventSeq(Database* db, const std::string& stack_id, int64_t* seq);
// A stack's change sets in creation order.
Status LoadChangeSets(Database* db, const std::string& stack_id, std::vector<ChangeSetRecord>* out);

}  // namespace ms
