// Validation of a resource's EVALUATED UpdatePolicy and CreationPolicy
// (seed 004, and seed 003's Allow), before anything is created: template
// validation runs it with nothing known (eval/validate.cc), CreateStack,
// UpdateStack and CreateChangeSet again with the parameters' values.
//
// What is checked, per resource type (the keys AWS documents for it):
//   UpdatePolicy
//     AWS::AutoScaling::AutoScalingGroup  AutoScalingReplacingUpdate {WillReplace},
//       AutoScalingRollingUpdate {MaxBatchSize 1-100, MinActiveInstancesPercent
//       0-100, MinInstancesInService >= 0, MinSuccessfulInstancesPercent 0-100,
//       PauseTime PT#H#M#S <= PT1H, SuspendProcesses (Auto Scaling process
//       names), WaitOnResourceSignals}, AutoScalingScheduledAction
//       {IgnoreUnmodifiedGroupSizeProperties}
//     AWS::Lambda::Alias  CodeDeployLambdaAliasUpdate {ApplicationName and
//       DeploymentGroupName required, AfterAllowTrafficHook, BeforeAllowTrafficHook}
//     AWS::ElastiCache::ReplicationGroup  UseOnlineResharding
//     AWS::OpenSearchService::Domain, AWS::Elasticsearch::Domain  EnableVersionUpgrade
//     AWS::AppStream::Fleet  StopBeforeUpdate, StartAfterUpdate
//     every type  Allow {Update, Replace} (seed 003, policy/update_restrictions.h)
//   CreationPolicy
//     AWS::AutoScaling::AutoScalingGroup  ResourceSignal, AutoScalingCreationPolicy
//       {MinSuccessfulInstancesPercent 0-100}
//     AWS::EC2::Instance, AWS::CloudFormation::WaitCondition  ResourceSignal
//     AWS::AppStream::Fleet  StartFleet
//   Unknown keys, wrong types (a boolean or an integer may be a string:
//   "true", "2") and out-of-range values are ValidationErrors.
//
// Semantics chosen (and why):
// - A policy on a type that has none is ignored, as AWS does ("Creation
//   policies are ignored for resources that don't support them", cfn-lint
//   #3598, by an AWS maintainer; no public report shows AWS refusing an
//   UpdatePolicy on such a type). A type that has policies refuses keys it
//   does not have.
// - ResourceSignal's Count and Timeout stay checked when the wait begins
//   (stack/resource_signals.h ParseSignalPolicy): no report shows AWS
//   refusing them synchronously. Its unknown keys are refused here.
// - A value still Unknown (a resource's attribute, or every parameter during
//   validate-template) is not checked, nor anything that depends on it.
// - WaitOnResourceSignals defaults to false (seed 004 says true; AWS's
//   observed behaviour and its older reference say false), PauseTime to PT1H
//   when it is true: MinSuccessfulInstancesPercent needs WaitOnResourceSignals
//   true, MinActiveInstancesPercent a PauseTime in effect (given, or
//   WaitOnResourceSignals true).
//
// The check is one walk over the policy: O(its size).
#pragma once

#include <string>

#include "base/status.h"
#include "template/value.h"

namespace ms {

// `update_policy` / `creation_policy`: the evaluated attribute (Null when
// absent or AWS::NoValue).
Status CheckResourcePolicies(const std::string& logical_id, const std::string& type, const Value& update_policy,
                             const Value& creation_policy);

}  // namespace ms
