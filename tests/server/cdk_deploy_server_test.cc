// What `cdk deploy` needs from `moonstack serve` beside the CloudFormation
// actions, driven by boto3 as the CDK's asset publisher and deploy step
// make the calls: objects over the API body limit (S3's own 5 GiB limit:
// request_guard.h), a multipart upload of 5 MiB parts, and a TemplateURL
// naming the object on this server as the CDK builds it from
// AWS_ENDPOINT_URL (served_template_url.h), also for a template over
// TemplateBody's 51,200 bytes. The real CDK CLI: tests/cdk/cdk_deploy_test.cc.
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

TEST_CASE("cdk's uploads: S3 objects over the API body limit, multipart parts of 5 MiB", "[server][aws][cdk]") {
  Server s("cdk_s3_uploads");
  json r = s.Python(R"(
s3 = boto3.client('s3', endpoint_url='http://127.0.0.1:)" + std::to_string(s.port()) + R"(', region_name='us-east-1')
s3.create_bucket(Bucket='assets')
big = bytes(range(256)) * (6 * 1024 + 1)  # 1.5 MiB and 256 bytes: over serve's 1 MiB --max-body-bytes
s3.put_object(Bucket='assets', Key='asset.zip', Body=big)
got = s3.get_object(Bucket='assets', Key='asset.zip')['Body'].read()
part = b'p' * (5 << 20)
up = s3.create_multipart_upload(Bucket='assets', Key='multi.bin')['UploadId']
etags = [s3.upload_part(Bucket='assets', Key='multi.bin', UploadId=up, PartNumber=n, Body=body)['ETag']
         for n, body in ((1, part), (2, b'last'))]  # every part but the last at least 5 MiB
s3.complete_multipart_upload(Bucket='assets', Key='multi.bin', UploadId=up,
                             MultipartUpload={'Parts': [{'PartNumber': n, 'ETag': e} for n, e in zip((1, 2), etags)]})
multi = s3.head_object(Bucket='assets', Key='multi.bin')['ContentLength']
print(json.dumps({'same': got == big, 'size': len(got), 'multi': multi}))
)");
  CHECK(r["same"] == true);
  CHECK(r["size"] == 3 * 524288 + 256);
  CHECK(r["multi"] == 5 * 1048576 + 4);
}

TEST_CASE("cdk's TemplateURL: the object uploaded to this server, by its own address", "[server][template_url][cdk]") {
  Server s("cdk_template_url");
  const std::string url = "http://127.0.0.1:" + std::to_string(s.port());
  json r = s.Python(R"(
URL = ')" + url + R"('
s3 = boto3.client('s3', endpoint_url=URL, region_name='us-east-1')
s3.create_bucket(Bucket='cdk-hnb659fds-assets-123456789012-us-east-1')
s3.put_object(Bucket='cdk-hnb659fds-assets-123456789012-us-east-1', Key='t1.json', Body=template)
# Over TemplateBody's 51,200 bytes, under a TemplateURL's 1 MB.
big = json.loads(template)
big['Resources']['Extra'] = {'Type': 'AWS::SQS::Queue', 'Metadata': {'Padding': 'x' * 60000}}
s3.put_object(Bucket='cdk-hnb659fds-assets-123456789012-us-east-1', Key='t2.json', Body=json.dumps(big))
out = {}
cf.create_change_set(StackName='app', ChangeSetName='cdk-deploy-change-set', ChangeSetType='CREATE',
                     TemplateURL=URL + '/cdk-hnb659fds-assets-123456789012-us-east-1/t1.json')
cf.get_waiter('change_set_create_complete').wait(StackName='app', ChangeSetName='cdk-deploy-change-set',
                                                 WaiterConfig={'Delay': 1})
cf.execute_change_set(StackName='app', ChangeSetName='cdk-deploy-change-set')
cf.get_waiter('stack_create_complete').wait(StackName='app', WaiterConfig={'Delay': 1})
out['created'] = cf.describe_stacks(StackName='app')['Stacks'][0]['StackStatus']
cf.create_change_set(StackName='app', ChangeSetName='big', TemplateURL=URL.replace('127.0.0.1', 'localhost') +
                     '/cdk-hnb659fds-assets-123456789012-us-east-1/t2.json')
cf.get_waiter('change_set_create_complete').wait(StackName='app', ChangeSetName='big', WaiterConfig={'Delay': 1})
d = cf.describe_change_set(StackName='app', ChangeSetName='big')
out['big'] = [d['Status'], [c['ResourceChange']['LogicalResourceId'] for c in d['Changes']]]
out['other_port'] = error(cf.validate_template, TemplateURL='http://127.0.0.1:1/b/t1.json')
print(json.dumps(out))
)");
  CHECK(r["created"] == "CREATE_COMPLETE");
  CHECK(r["big"] == json::parse(R"(["CREATE_COMPLETE", ["Extra"]])"));
  CHECK(r["other_port"]["Message"] == "TemplateURL must be a supported URL.");
}

TEST_CASE("S3 virtual-hosted on this machine: BUCKET.localhost:PORT/KEY", "[server][aws][cdk]") {
  Server s("cdk_s3_virtual_hosted");
  // The SDK's addressing with AWS_ENDPOINT_URL=http://localhost:PORT; this
  // machine's resolver may not know *.localhost (RFC 6761 says loopback).
  json r = s.Python(R"(
import socket
_gai = socket.getaddrinfo
socket.getaddrinfo = lambda host, *a, **k: _gai('127.0.0.1' if host.endswith('.localhost') else host, *a, **k)
from botocore.config import Config
s3 = boto3.client('s3', endpoint_url='http://localhost:)" + std::to_string(s.port()) + R"(', region_name='us-east-1',
                  config=Config(s3={'addressing_style': 'virtual'}))
s3.create_bucket(Bucket='assets')
s3.put_object(Bucket='assets', Key='dir/a.json', Body=b'{}')
path = boto3.client('s3', endpoint_url='http://127.0.0.1:)" + std::to_string(s.port()) + R"(', region_name='us-east-1')
print(json.dumps({'keys': [o['Key'] for o in s3.list_objects_v2(Bucket='assets')['Contents']],
                  'body': s3.get_object(Bucket='assets', Key='dir/a.json')['Body'].read().decode(),
                  'path_style': path.get_object(Bucket='assets', Key='dir/a.json')['Body'].read().decode(),
                  'missing': error(s3.head_bucket, Bucket='nope')}))
)");
  CHECK(r["keys"] == json::array({"dir/a.json"}));
  CHECK(r["body"] == "{}");
  CHECK(r["path_style"] == "{}");
  CHECK(r["missing"]["Status"] == 404);
}

}  // namespace
}  // namespace ms::test::server
