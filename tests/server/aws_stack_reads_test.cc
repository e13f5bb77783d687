// What a test suite reads through the AWS SDK after a stack made it: a
// CloudFormation stack with a log group, a KMS key with an alias, an SNS
// topic and an Auto Scaling group, created through `serve`, then described
// with boto3's Logs, KMS, SNS and Auto Scaling clients on the same endpoint.
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

const char* kReadTemplate = R"({
  "Resources": {
    "Log": {"Type": "AWS::Logs::LogGroup", "Properties": {"LogGroupName": "/app/web", "RetentionInDays": 7}},
    "Key": {"Type": "AWS::KMS::Key", "Properties": {"Description": "app key"}},
    "Alias": {"Type": "AWS::KMS::Alias", "Properties": {"AliasName": "alias/app", "TargetKeyId": {"Ref": "Key"}}},
    "Topic": {"Type": "AWS::SNS::Topic", "Properties": {"TopicName": "alerts"}},
    "Config": {"Type": "AWS::AutoScaling::LaunchConfiguration", "Properties": {
      "ImageId": "ami-0123456789abcdef0", "InstanceType": "t3.micro"}},
    "Web": {"Type": "AWS::AutoScaling::AutoScalingGroup", "Properties": {
      "LaunchConfigurationName": {"Ref": "Config"}, "MinSize": "1", "MaxSize": "3", "DesiredCapacity": "2",
      "AvailabilityZones": ["us-east-1a"]}}
  },
  "Outputs": {"Key": {"Value": {"Ref": "Key"}}, "Group": {"Value": {"Ref": "Web"}}}
})";

}  // namespace

TEST_CASE("boto3 describes the Logs, KMS, SNS and Auto Scaling resources a stack created", "[server][aws]") {
  Server s("aws_stack_reads", "0");
  std::ofstream(s.dir() + "/reads.json") << kReadTemplate;
  json r = s.Python(R"(
def client(name):
    return boto3.client(name, endpoint_url='http://127.0.0.1:)" + std::to_string(s.port()) + R"(', region_name='us-east-1')
cf.create_stack(StackName='reads', TemplateBody=open(')" + s.dir() + R"(/reads.json').read())
cf.get_waiter('stack_create_complete').wait(StackName='reads', WaiterConfig={'Delay': 1})
outputs = {o['OutputKey']: o['OutputValue'] for o in cf.describe_stacks(StackName='reads')['Stacks'][0]['Outputs']}
logs, kms, sns, asg = client('logs'), client('kms'), client('sns'), client('autoscaling')
out = {}
out['groups'] = [(g['logGroupName'], g['retentionInDays']) for g in logs.describe_log_groups(logGroupNamePrefix='/app')['logGroups']]
out['keys'] = [k['KeyId'] for k in kms.list_keys()['Keys']] == [outputs['Key']]
meta = kms.describe_key(KeyId='alias/app')['KeyMetadata']
out['key'] = [meta['KeyId'] == outputs['Key'], meta['Description'], meta['KeyState']]
out['aliases'] = [(a['AliasName'], a['TargetKeyId'] == outputs['Key']) for a in kms.list_aliases()['Aliases']]
out['topics'] = [t['TopicArn'] for t in sns.list_topics()['Topics']]
out['topic_name'] = sns.get_topic_attributes(TopicArn='arn:aws:sns:us-east-1:123456789012:alerts')['Attributes']['TopicArn']
g = asg.describe_auto_scaling_groups(AutoScalingGroupNames=[outputs['Group']])['AutoScalingGroups']
out['asg'] = [(x['MinSize'], x['MaxSize'], x['DesiredCapacity'], len(x['Instances'])) for x in g]
out['launch'] = [c['InstanceType'] for c in asg.describe_launch_configurations()['LaunchConfigurations']]
print(json.dumps(out))
)");
  CHECK(r["groups"] == json::parse(R"([["/app/web", 7]])"));
  CHECK(r["keys"] == true);
  CHECK(r["key"] == json::parse(R"([true, "app key", "Enabled"])"));
  CHECK(r["aliases"] == json::parse(R"([["alias/app", true]])"));
  CHECK(r["topics"] == json::array({"arn:aws:sns:us-east-1:123456789012:alerts"}));
  CHECK(r["topic_name"] == "arn:aws:sns:us-east-1:123456789012:alerts");
  CHECK(r["asg"] == json::parse("[[1, 3, 2, 2]]"));
  CHECK(r["launch"] == json::array({"t3.micro"}));
}

}  // namespace ms::test::server
