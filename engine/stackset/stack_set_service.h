// StackSetService: the StackSet actions' synchronous half — AWS's checks,
// the set's records, and each operation saved QUEUED with a PENDING result
// per account and region before its OperationId is answered — and the
// queries. The asynchronous half is RunStackSetOperation
// (stack_set_operation.h), which the server runs on a thread.
//
// A set lives in the region and account of the request that created it
// (OperationContext::scope()); its instances are stacks in their own region
// and account. One operation at a time per set: a second one is refused
// with OperationInProgressException while one is QUEUED, RUNNING or STOPPING.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "eval/parameters.h"
#include "stack/operation.h"
#include "stackset/stack_set.h"

namespace ms {

struct CreateStackSetInput {
  std::string name;
  std::string description;
  std::string template_body;
  std::vector<ParameterInput> parameters;
  std::vector<std::string> capabilities;
  std::vector<StackTag> tags;
  std::string permission_model;  // "" is SELF_MANAGED
  std::string administration_role_arn;
  std::string execution_role_name;
  std::optional<bool> auto_deployment_enabled;  // SERVICE_MANAGED
  bool retain_stacks_on_account_removal = false;
};

struct UpdateStackSetInput {
  std::string name;
  std::optional<std::string> description;
  std::string template_body;  // empty with use_previous_template
  bool use_previous_template = false;
  std::vector<ParameterInput> parameters;  // UsePreviousValue: the set's value
  std::vector<std::string> capabilities;
  std::optional<std::vector<StackTag>> tags;  // none: kept
  OperationPreferences preferences;
  std::string administration_role_arn;  // empty: kept
  std::string execution_role_name;      // empty: kept
  DeploymentTargets targets;            // SERVICE_MANAGED: which instances (empty: all)
  std::vector<std::string> accounts;    // SELF_MANAGED: which instances (empty: all)
  std::vector<std::string> regions;     // which instances (empty: all)
  std::string operation_id;             // empty: a new UUID
};

// CreateStackInstances, UpdateStackInstances, DeleteStackInstances.
struct StackInstancesInput {
  std::string name;
  std::vector<std::string> accounts;  // SELF_MANAGED
  DeploymentTargets targets;          // SERVICE_MANAGED
  std::vector<std::string> regions;
  // ParameterOverrides: none when the request has none (overrides kept);
  // given, they replace the instances' overrides, UsePreviousValue keeping one.
  std::optional<std::vector<ParameterInput>> overrides;
  OperationPreferences preferences;
  bool retain_stacks = false;  // DeleteStackInstances
  std::string operation_id;    // empty: a new UUID
};

// ImportStacksToStackSet.
struct ImportStacksInput {
  std::string name;
  std::vector<std::string> stack_ids;
  std::string stack_ids_url;  // refused: moonstack reads no stack ID list from S3
  std::vector<std::string> organizational_unit_ids;
  OperationPreferences preferences;
  std::string operation_id;  // empty: a new UUID
};

class StackSetService {
 public:
  // ctx.db is the request's connection; ctx.scope() the administrator's.
  explicit StackSetService(OperationContext ctx) : ctx_(std::move(ctx)) {}

  Status Create(const CreateStackSetInput& in, std::string* stack_set_id);
  // Each action below saves its operation QUEUED; the caller runs it
  // (RunStackSetOperation) with the set's ID and *operation_id.
  Status Update(const UpdateStackSetInput& in, std::string* set_id, std::string* operation_id);
  Status CreateInstances(const StackInstancesInput& in, std::string* set_id, std::string* operation_id);
  Status UpdateInstances(const StackInstancesInput& in, std::string* set_id, std::string* operation_id);
  Status DeleteInstances(const StackInstancesInput& in, std::string* set_id, std::string* operation_id);
  // DetectStackSetDrift: a DETECT_DRIFT operation over every instance; the
  // set's drift details IN_PROGRESS until it ends.
  Status DetectDrift(const std::string& name, const OperationPreferences& preferences,
                     const std::string& given_operation_id, std::string* set_id, std::string* operation_id);
  // ImportStacksToStackSet (SELF_MANAGED sets): each stack, in its own
  // region and account, becomes an instance; the operation (a CREATE) then
  // brings it to the set's template and parameters as any instance's.
  Status ImportStacks(const ImportStacksInput& in, std::string* set_id, std::string* operation_id);
  // Refused while instances remain or an operation runs; the set stays
  // listable (Status DELETED), its name free again.
  Status Delete(const std::string& name);
  // A QUEUED or RUNNING operation goes STOPPING: its thread cancels what it
  // has not started and ends it STOPPED.
  Status StopOperation(const std::string& name, const std::string& operation_id);

  Status Describe(const std::string& name, StackSetRecord* out);
  Status List(std::vector<StackSetRecord>* out);  // the scope's, in creation order
  Status DescribeInstance(const std::string& name, const std::string& account, const std::string& region,
                          StackSetRecord* set, StackInstanceRecord* out);
  Status ListInstances(const std::string& name, StackSetRecord* set, std::vector<StackInstanceRecord>* out);
  Status DescribeOperation(const std::string& name, const std::string& operation_id, StackSetRecord* set,
                           StackSetOperationRecord* out);
  Status ListOperations(const std::string& name, StackSetRecord* set, std::vector<StackSetOperationRecord>* out);

 private:
  // The part of CreateStackInstances, UpdateStackInstances and
  // DeleteStackInstances they share: the live set, the request's accounts
  // (each with its OU), its regions (checked, each once) and the set's
  // instances by "account/region".
  struct InstancesTarget {
    StackSetRecord set;
    std::vector<std::pair<std::string, std::string>> accounts;  // (account, OU)
    std::vector<std::string> regions;
    std::map<std::string, StackInstanceRecord> existing;
  };

  Status FindLive(const std::string& name, StackSetRecord* out);
  // The accounts an instances request names: SELF_MANAGED its Accounts,
  // SERVICE_MANAGED its DeploymentTargets' (with each one's OU).
  Status TargetAccounts(const StackSetRecord& set, const std::vector<std::string>& accounts,
                        const DeploymentTargets& targets, std::vector<std::pair<std::string, std::string>>* out);
  Status ResolveInstancesTarget(const StackInstancesInput& in, InstancesTarget* out);
  // Checks that no operation runs on the set and the OperationId is new;
  // saves `op` (QUEUED, its results) with the instances in one transaction.
  Status StartOperation(const StackSetRecord& set, StackSetOperationRecord* op,
                        const std::vector<StackInstanceRecord>& instances, const std::string& given_id);

  OperationContext ctx_;
};

// A request's CallAs ("" is SELF, AWS's default): SELF is accepted; any
// other value is AWS's enum refusal; DELEGATED_ADMIN is refused as AWS
// refuses it from an account that is not a registered delegated
// administrator, which is every account of the simulated organization.
Status CheckCallAs(const std::string& call_as);

// AWS's StackSetNotFoundException for `name`.
Status StackSetNotFound(const std::string& name);

}  // namespace ms
