// IMPORT change sets: what CreateChangeSet checks of ResourcesToImport, and
// the lookup of each resource in the world.
//
// AWS's order of refusals (each a ValidationError that leaves no change set,
// and no stack when the stack is new), then the lookups, whose failure is a
// change set FAILED with the reason (the stack in review stays):
//   1. the list: not empty, every ResourceIdentifier given, logical IDs unique;
//   2. each entry against the template: its logical ID declared, its
//      identifier keys the type's primary identifier, its type the
//      declaration's;
//   3. the template against the stack: at least one resource the stack does
//      not have, no listed resource the stack already has;
//   4. a DeletionPolicy on every resource to import;
//   5. the plan: every added resource listed ("Resources [N] is missing from
//      ResourceToImport list"), nothing else added, modified or removed
//      ("You have modified resources [X] ..."), the Outputs unchanged;
//   6. the lookups: each resource read through its provider's `read` hook
//      (a NotFound is "Resource of type 'T' with identifier 'I' was not
//      found.") and held by no stack ("I already exists in stack <id>").
// Sources: AWS's messages as recorded in public emulator tests and user
// reports (aws-cdk issue 20895, cloudformation-coverage-roadmap issue 1607,
// linuxacademy's and aws-quickstart's DeletionPolicy reports).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "plan/plan.h"
#include "provider/provider.h"
#include "records/stack.h"
#include "store/change_set_table.h"
#include "template/template.h"

namespace ms {

// One ResourcesToImport member, as the request gives it.
struct ResourceToImport {
  std::string resource_type;
  std::string logical_id;
  std::vector<std::pair<std::string, std::string>> identifier;  // ResourceIdentifier, in the request's order
};

// The StatusReason of an IMPORT change set that can be executed (AWS's, as
// the rain CLI shows one: aws-cloudformation/rain pull request 646).
inline constexpr const char* kImportReviewReason =
    "Verify that resources and their properties defined in the template match the intended configuration of "
    "the resource import to avoid unexpected changes.";

// Steps 1-4 above. `deployed`: the stack's resources (none for a new stack).
Status CheckResourcesToImport(const std::vector<ResourceToImport>& in, const Template& tmpl,
                              const std::vector<ResourceRecord>& deployed, ProviderSession& session);

// Step 5: the plan of the import's template against the stack, and (a
// deployed stack) its Outputs section against the stack's template's: "As
// part of the import operation, you cannot modify or add [Outputs]" (AWS, as
// awslabs/aws-security-assessment-solution issue 6 reports it).
Status CheckImportPlan(const Plan& plan, const std::vector<ResourceToImport>& in);
Status CheckImportOutputs(const std::string& deployed_template, const std::string& new_template);

// The type's primary identifier (its provider's, else the registry schema's).
std::vector<std::string> PrimaryIdentifierKeys(const std::string& type, ProviderSession& session);

// A `read` hook's context: the resource `logical_id` of `stack`.
HookContext ReadContext(const StackRecord& stack, const std::string& logical_id, const std::string& region,
                        const std::string& account_id, int64_t now_ms);
// Reads a resource through its provider's `read` hook, as drift detection
// and import do.
HookOutcome ReadResource(ProviderSession& session, const std::string& type, const std::string& physical_id,
                         const Value& properties, HookContext ctx);

// Step 6: each resource looked up. OK with *failure empty and `out` filled
// (in the request's order, with the plan's properties), or OK with *failure
// the change set's StatusReason. `ctx`: the reads' (its logical ID set per resource).
Status LookUpImports(Database* db, ProviderSession& session, const HookContext& ctx, const Plan& plan,
                     const std::vector<ResourceToImport>& in, std::vector<ChangeSetImport>* out,
                     std::string* failure);

// The Import changes DescribeChangeSet lists for them.
std::vector<ChangeSetResourceChange> ImportChanges(const std::vector<ChangeSetImport>& imports);

}  // namespace ms
