// Small helpers shared by the tests.
#pragma once

#include <map>
#include <string>

#include "eval/parameters.h"
#include "template/template.h"
#include "template/value.h"

namespace ms::test {

// SQL that takes a state file back from schema 18 to what schema 17 left:
// no index of operations (store/schema.cc).
inline const std::string kUndoSchema18 = "DROP TABLE operations;";

// SQL that takes a state file back from schema 17 to what schema 16 left:
// each blob's owner in its own row's `owner` column (one owner per blob).
inline const std::string kUndoSchema17 =
    "DROP INDEX blob_owners_by_blob; ALTER TABLE blobs ADD COLUMN owner TEXT;"
    "UPDATE blobs SET owner = (SELECT owner FROM blob_owners WHERE blob = blobs.id LIMIT 1);"
    "DROP TABLE blob_owners; CREATE INDEX blobs_by_owner ON blobs (owner);";

// SQL that takes a state file back from schema 16 to what schema 15 left:
// no table of operation results (store/schema.cc). It drops them rather
// than moving them back into their operations' rows: a test that needs a
// schema-15 operation writes that row itself.
inline const std::string kUndoSchema16 = "DROP TABLE stack_set_operation_results;";

// SQL that takes a state file back from schema 15 to what schema 14 left:
// no stack set tables (store/schema.cc).
inline const std::string kUndoSchema15 =
    "DROP TABLE stack_set_operations; DROP TABLE stack_instances; DROP TABLE stack_sets;";

// SQL that takes a state file back from schema 14 to what schema 13 left:
// stacks and exports not per region (store/schema.cc), for a migration test
// that starts from an older schema.
inline const std::string kUndoSchema14 =
    "DROP INDEX stacks_by_name; DROP INDEX exports_by_stack;"
    "ALTER TABLE stacks DROP COLUMN region; ALTER TABLE stacks DROP COLUMN account;"
    "CREATE INDEX stacks_by_name ON stacks (name, deleted);"
    "DROP TABLE exports;"
    "CREATE TABLE exports (name TEXT PRIMARY KEY, stack_id TEXT NOT NULL, value TEXT NOT NULL);";

std::string ReadFile(const std::string& path);
// Parses a JSON or YAML snippet; fails the test on error.
Value Doc(const std::string& text);

// `t`'s parameter values as ResolveParameters gives them, from `values`
// (name -> text) and the Defaults; fails the test on error. A parameter with
// neither is left out, as before values are given (its Ref is Unknown).
ParameterValues Params(const Template& t, const std::map<std::string, std::string>& values = {});

// What a shell command printed (stdout; add 2>&1 for stderr) and its exit status.
struct CommandResult {
  int exit_code;
  std::string out;
};
CommandResult RunCommand(const std::string& cmd);

// An IAM trust policy (JSON text) that lets Lambda assume the role: a
// function's execution role must exist and have one (sim/lambda.lua).
inline constexpr const char* kLambdaTrustPolicy =
    R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", )"
    R"("Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]})";
// Lua making role `name` with that policy through the sim (the default
// account), for the tests that run sim actions in a Lua runtime.
inline std::string LambdaRoleLua(const std::string& name) {
  return "require('sim').call('iam', 'CreateRole', { RoleName = '" + name + "', AssumeRolePolicyDocument = [[" +
         kLambdaTrustPolicy + "]] })\n";
}

}  // namespace ms::test
