// CfnApi: the CloudFormation Query API actions the server answers — the
// request parameters in, the XML response (or AWS's ErrorResponse) out.
//
// Actions read and start operations through their own StackService over the
// request connection (one SQLite connection, used by one request at a time);
// operations run on the OperationRunner's thread with its own connection.
// The request side never changes the world (its context has no World), so
// only the runner's checkpoints persist world changes.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "base/status.h"
#include "server/operation_runner.h"
#include "server/query_request.h"
#include "server/request_tokens.h"
#include "server/xml.h"
#include "stack/stack_service.h"

namespace ms::server {

constexpr const char* kXmlNamespace = "http://cloudformation.amazonaws.com/doc/2010-05-15/";

struct ApiResponse {
  int http_status = 200;
  std::string body;  // XML
};

// <ErrorResponse><Error><Type>Sender</Type><Code>..</Code><Message>..</Message></Error>
// <RequestId>..</RequestId></ErrorResponse>, as botocore's query parser reads it.
// AWS's answer to a NextToken that names no page.
Status InvalidNextToken(const std::string& token);
// The page of `ids` (in listing order) that the request's NextToken starts
// (100 items, as AWS pages): the token is the id of the page's first item.
// *end is one past the page; "Invalid NextToken: x" for an unknown token.
Status PageOf(const QueryRequest& q, const std::vector<std::string>& ids, size_t* begin, size_t* end);

// The request's `member`, or AWS's "1 validation error detected: Value null
// at '<field>' ..." when it is missing.
Status Required(const QueryRequest& q, const char* member, const char* field, std::string* out);

// The request's Parameters.member.N (ParameterKey, ParameterValue,
// UsePreviousValue), or another member of that shape (the StackSet actions'
// ParameterOverrides), and Tags.member.N (Key, Value).
std::vector<ParameterInput> ParametersOf(const QueryRequest& q, const std::string& member = "Parameters");
std::vector<StackTag> TagsOf(const QueryRequest& q);
// Tags as UpdateStack and CreateChangeSet take them: none when the request
// has no Tags member; an empty list when it has "Tags=" (how botocore
// sends Tags=[]: remove them all).
std::optional<std::vector<StackTag>> GivenTagsOf(const QueryRequest& q);

// The request's TemplateBody, at most `max` bytes (AWS: 51,200), or without
// one the TemplateURL's template from the simulated S3 (stack/template_url.h);
// AWS's ValidationErrors.
Status CheckTemplateBody(const OperationContext& ctx, const QueryRequest& q, size_t max, std::string* body);

ApiResponse ErrorResponse(int http_status, const std::string& code, const std::string& message,
                          const std::string& request_id);

class CfnApi {
 public:
  // `ctx`: db is the request connection; world must be null. TemplateBody
  // is limited to max_template_body bytes (AWS: 51,200).
  CfnApi(OperationContext ctx, OperationRunner* runner, size_t max_template_body = 51200)
      : ctx_(std::move(ctx)), runner_(runner), max_template_body_(max_template_body) {}

  // Answers one request; `region` comes from the SigV4 credential scope,
  // `account` from its access key (AccountFromAuthorization).
  ApiResponse Handle(const QueryRequest& q, const std::string& region, const std::string& account,
                     const std::string& request_id);

  // POST /moonstack/reset: forgets every stack (records, resources, events,
  // exports), every stack set and every world record, so tests start from nothing. The
  // operations running or queued are stopped first (their threads own those
  // rows); an error when one does not stop within 10 seconds.
  Status Reset(World* world);

  // SignalResource records signals in the runner's world (the one the
  // waiting operations read), the request side's only world write.
  void set_signal_world(World* world) { signal_world_ = world; }

 private:
  struct Call {
    const QueryRequest& q;
    StackService& service;
    // Where the request's stacks are, as the OperationRunner keys them: the
    // region, "<region>/<account>" for an account other than the default.
    const std::string& region;
    XmlWriter& w;  // inside <XResult>
  };
  Status ValidateTemplate(Call& c);
  Status CreateStack(Call& c);
  Status DeleteStack(Call& c);
  Status DescribeStacks(Call& c);
  Status DescribeStackEvents(Call& c);
  Status DescribeStackResources(Call& c);
  Status ListStacks(Call& c);
  Status GetTemplate(Call& c);
  Status UpdateStack(Call& c);
  Status DescribeStackResource(Call& c);
  Status ListStackResources(Call& c);
  Status ListExports(Call& c);
  Status ListImports(Call& c);
  Status GetTemplateSummary(Call& c);
  Status UpdateTerminationProtection(Call& c);
  // events_api.cc
  Status DescribeEvents(Call& c);
  // Stack policies (policy_api.cc).
  Status SetStackPolicy(Call& c);
  Status GetStackPolicy(Call& c);
  // Change sets (change_set_api.cc).
  Status CreateChangeSet(Call& c);
  Status DescribeChangeSet(Call& c);
  Status ExecuteChangeSet(Call& c);
  Status DeleteChangeSet(Call& c);
  Status ListChangeSets(Call& c);
  // rollback_api.cc
  Status ContinueUpdateRollback(Call& c);
  Status RollbackStack(Call& c);
  Status CancelUpdateStack(Call& c);
  // signal_api.cc
  Status SignalResource(Call& c);
  // Drift detection (drift_api.cc).
  Status DetectStackDrift(Call& c);
  Status DetectStackResourceDrift(Call& c);
  Status DescribeStackDriftDetectionStatus(Call& c);
  Status DescribeStackResourceDrifts(Call& c);
  // StackSets (stack_set_api.cc): the operations run on the runner's threads.
  Status CreateStackSet(Call& c);
  Status UpdateStackSet(Call& c);
  Status DeleteStackSet(Call& c);
  Status DescribeStackSet(Call& c);
  Status ListStackSets(Call& c);
  Status CreateStackInstances(Call& c);
  Status UpdateStackInstances(Call& c);
  Status DeleteStackInstances(Call& c);
  Status DescribeStackInstance(Call& c);
  Status ListStackInstances(Call& c);
  Status DescribeStackSetOperation(Call& c);
  Status ListStackSetOperations(Call& c);
  Status ListStackSetOperationResults(Call& c);
  Status StopStackSetOperation(Call& c);
  Status DetectStackSetDrift(Call& c);
  Status ImportStacksToStackSet(Call& c);
  // Reserves the stack, runs `start` (which saves the rollback in progress)
  // and hands the operation to the runner.
  Status StartRollback(Call& c, const std::string& name, const std::function<Status(std::string*)>& start,
                       bool write_stack_id);

  std::mutex mu_;  // one request at a time uses ctx_.db
  OperationContext ctx_;
  OperationRunner* runner_;
  size_t max_template_body_;
  RequestTokens tokens_;  // guarded by mu_
  World* signal_world_ = nullptr;
};

}  // namespace ms::server
