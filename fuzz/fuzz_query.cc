// libFuzzer target: a Query API request as `moonstack serve` reads it, from
// arbitrary bytes — the request guard over its head (Host, Origin,
// Content-Type, Content-Length: host/server/request_guard.h), form decoding
// of its URL query and body, the parameter readers (lists, structures,
// Parameters, Tags, NextToken pages, the SigV4 region), and the actions that
// answer from the store (Describe*, List*, Get*, ValidateTemplate...) over
// an in-memory store holding one stack. Every input must give an answer,
// never a crash, a hang or a leak. Actions that start an operation are left
// out: they need the server's threads and state file.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "run/clock.h"
#include "server/cfn_api.h"
#include "server/operation_runner.h"
#include "server/query_request.h"
#include "server/request_guard.h"
#include "stack/stack_service.h"
#include "store/schema.h"

namespace {

using ms::server::QueryRequest;

// What CfnApi needs to answer the actions that start nothing: a store with
// one stack (its create saved, never run).
struct Api {
  std::unique_ptr<ms::Database> db;
  std::unique_ptr<ms::Clock> clock = ms::NewVirtualClock(1700000000000);
  std::unique_ptr<ms::server::OperationRunner> runner;  // never started
  std::unique_ptr<ms::server::CfnApi> api;

  Api() {
    if (!ms::OpenStore(":memory:", &db).ok()) abort();
    ms::OperationContext ctx;
    ctx.db = db.get();
    ctx.clock = clock.get();
    runner = std::make_unique<ms::server::OperationRunner>(ctx, ":memory:", 1);
    api = std::make_unique<ms::server::CfnApi>(ctx, runner.get());
    ms::StackService service(ctx);
    ms::CreateStackInput create;
    create.stack_name = "web";
    create.template_body = R"({"Parameters": {"P": {"Type": "String", "Default": "x"}},
      "Resources": {"Vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": {"Ref": "P"}}}},
      "Outputs": {"Id": {"Value": {"Ref": "Vpc"}, "Export": {"Name": "web-vpc"}}}})";
    std::string id;
    if (!service.StartCreate(create, &id).ok()) abort();
  }
};

// The actions that start an operation (or record a signal in the world).
const std::set<std::string> kStartOperations = {
    "CreateStack", "UpdateStack", "DeleteStack", "CreateChangeSet", "ExecuteChangeSet", "ContinueUpdateRollback",
    "RollbackStack", "CancelUpdateStack", "SignalResource"};

void ReadParameters(const QueryRequest& q) {
  (void)q.Flag("DisableRollback");
  (void)q.List("Capabilities");
  (void)q.Structs("Parameters");
  (void)ms::server::ParametersOf(q);
  (void)ms::server::ParametersOf(q, "ParameterOverrides");
  (void)ms::server::TagsOf(q);
  size_t begin = 0, end = 0;
  (void)ms::server::PageOf(q, {"a", "b", "c"}, &begin, &end);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Api api;
  FuzzedDataProvider in(data, size);

  ms::server::RequestHead head;
  head.method = in.PickValueInArray({"GET", "POST", "PUT", "DELETE"});
  head.path = in.ConsumeRandomLengthString(64);
  for (auto* values : {&head.host, &head.origin, &head.content_type, &head.content_length, &head.transfer_encoding}) {
    for (int n = in.ConsumeIntegralInRange(0, 2); n > 0; --n) values->push_back(in.ConsumeRandomLengthString(64));
  }
  ms::server::GuardPolicy policy;
  (void)ms::server::AllowHost(in.ConsumeRandomLengthString(32), &policy);
  (void)ms::server::CheckRequest(head, policy);

  const std::string authorization = in.ConsumeRandomLengthString(128);
  const std::string query = in.ConsumeRandomLengthString(256);
  const std::string body = in.ConsumeRemainingBytesAsString();
  std::map<std::string, std::string> params;
  std::string duplicate;
  if (!ms::server::ParseForm(body, &params, &duplicate) || !ms::server::ParseForm(query, &params, &duplicate)) {
    return 0;  // refused (400 InvalidQueryParameter)
  }
  QueryRequest q(std::move(params));
  ReadParameters(q);
  const std::string region = ms::server::RegionFromAuthorization(authorization, "us-east-1");
  const std::string account = ms::server::AccountFromAuthorization(authorization, "123456789012");
  if (kStartOperations.count(q.Get("Action")) == 0) (void)api.api->Handle(q, region, account, "request-id");
  return 0;
}
