// Drift detection over the Query API with boto3: detect_stack_drift ->
// describe_stack_drift_detection_status -> describe_stack_resource_drifts,
// after out-of-band changes made through the simulated SQS and SSM; the
// describe calls' DriftInformation before and after; AWS's errors.
#include "server/server_fixture.h"

using namespace ms::test::server;

TEST_CASE("boto3 detects drift of an SQS queue and an SSM parameter changed out of band", "[server][drift]") {
  Server server("drift");
  std::ofstream(server.dir() + "/t.json") << R"({
  "Resources": {
    "Queue": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": 30,
      "Tags": [{"Key": "team", "Value": "a"}, {"Key": "app", "Value": "b"}]}},
    "Param": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "v1"}},
    "Same": {"Type": "AWS::SSM::Parameter", "Properties": {"Type": "String", "Value": "same"}}
  }
})";
  json r = server.Python(R"(
URL = cf.meta.endpoint_url
sqs = boto3.client('sqs', endpoint_url=URL, region_name='us-east-1')
ssm = boto3.client('ssm', endpoint_url=URL, region_name='us-east-1')
out = {}
cf.create_stack(StackName='d', TemplateBody=template)
cf.get_waiter('stack_create_complete').wait(StackName='d', WaiterConfig={'Delay': 1})
out['before_stack'] = cf.describe_stacks(StackName='d')['Stacks'][0]['DriftInformation']
out['before_resource'] = cf.describe_stack_resource(StackName='d', LogicalResourceId='Queue')['StackResourceDetail']['DriftInformation']
res = {x['LogicalResourceId']: x['PhysicalResourceId'] for x in cf.describe_stack_resources(StackName='d')['StackResources']}
sqs.set_queue_attributes(QueueUrl=res['Queue'], Attributes={'VisibilityTimeout': '60'})
sqs.tag_queue(QueueUrl=res['Queue'], Tags={'team': 'z'})
ssm.put_parameter(Name=res['Param'], Value='v2', Type='String', Overwrite=True)
det = cf.detect_stack_drift(StackName='d')['StackDriftDetectionId']
st = cf.describe_stack_drift_detection_status(StackDriftDetectionId=det)
out['status'] = {k: st[k] for k in ('DetectionStatus', 'StackDriftStatus', 'DriftedStackResourceCount')}
out['status_stack'] = st['StackId'] == cf.describe_stacks(StackName='d')['Stacks'][0]['StackId']
drifts = cf.describe_stack_resource_drifts(StackName='d')['StackResourceDrifts']
out['drifts'] = {x['LogicalResourceId']: x['StackResourceDriftStatus'] for x in drifts}
q = [x for x in drifts if x['LogicalResourceId'] == 'Queue'][0]
out['queue_diffs'] = sorted([d['PropertyPath'], d['ExpectedValue'], d['ActualValue'], d['DifferenceType']] for d in q['PropertyDifferences'])
out['modified'] = [x['LogicalResourceId'] for x in cf.describe_stack_resource_drifts(
    StackName='d', StackResourceDriftStatusFilters=['MODIFIED'])['StackResourceDrifts']]
page = cf.describe_stack_resource_drifts(StackName='d', MaxResults=2)
page2 = cf.describe_stack_resource_drifts(StackName='d', MaxResults=2, NextToken=page['NextToken'])
out['pages'] = [len(page['StackResourceDrifts']), len(page2['StackResourceDrifts']), 'NextToken' in page2]
one = cf.detect_stack_resource_drift(StackName='d', LogicalResourceId='Param')['StackResourceDrift']
out['one'] = [one['StackResourceDriftStatus'], one['PropertyDifferences'][0]['PropertyPath']]
out['after_stack'] = cf.describe_stacks(StackName='d')['Stacks'][0]['DriftInformation']['StackDriftStatus']
out['after_stack_time'] = 'LastCheckTimestamp' in cf.describe_stacks(StackName='d')['Stacks'][0]['DriftInformation']
out['after_summary'] = {x['LogicalResourceId']: x['DriftInformation']['StackResourceDriftStatus']
    for x in cf.list_stack_resources(StackName='d')['StackResourceSummaries']}
ssm.delete_parameter(Name=res['Same'])
cf.detect_stack_drift(StackName='d', LogicalResourceIds=['Same'])
out['deleted'] = cf.describe_stack_resource_drifts(StackName='d', StackResourceDriftStatusFilters=['DELETED'])['StackResourceDrifts'][0]['LogicalResourceId']
out['no_stack'] = error(cf.detect_stack_drift, StackName='nope')
out['no_resource'] = error(cf.detect_stack_resource_drift, StackName='d', LogicalResourceId='Nope')
out['bad_filter'] = error(cf.describe_stack_resource_drifts, StackName='d', StackResourceDriftStatusFilters=['DRIFTED'])
print(json.dumps(out, default=str))
)");
  auto validation = [](const std::string& message) {
    return json{{"Code", "ValidationError"}, {"Message", message}, {"Status", 400}};
  };
  CHECK(r["before_stack"] == json{{"StackDriftStatus", "NOT_CHECKED"}});
  CHECK(r["before_resource"] == json{{"StackResourceDriftStatus", "NOT_CHECKED"}});
  CHECK(r["status"] == json{{"DetectionStatus", "DETECTION_COMPLETE"},
                            {"StackDriftStatus", "DRIFTED"},
                            {"DriftedStackResourceCount", 2}});
  CHECK(r["status_stack"] == true);
  CHECK(r["drifts"] == json{{"Queue", "MODIFIED"}, {"Param", "MODIFIED"}, {"Same", "IN_SYNC"}});
  CHECK(r["queue_diffs"] == json::parse(R"([["/Tags/0/Value", "a", "z", "NOT_EQUAL"],
                                            ["/VisibilityTimeout", "30", "60", "NOT_EQUAL"]])"));
  CHECK(r["modified"] == json{"Queue", "Param"});
  CHECK(r["pages"] == json{2, 1, false});
  CHECK(r["one"] == json{"MODIFIED", "/Value"});
  CHECK(r["after_stack"] == "DRIFTED");
  CHECK(r["after_stack_time"] == true);
  CHECK(r["after_summary"] == json{{"Queue", "MODIFIED"}, {"Param", "MODIFIED"}, {"Same", "IN_SYNC"}});
  CHECK(r["deleted"] == "Same");
  CHECK(r["no_stack"] == validation("Stack with id nope does not exist"));
  CHECK(r["no_resource"] == validation("Resource Nope does not exist for stack d"));
  CHECK(r["bad_filter"]["Code"] == "ValidationError");
}
