// The AWS APIs `moonstack serve` answers besides CloudFormation's
// (host/server/aws_api.h), driven by boto3 and the aws CLI with one
// endpoint, each in its botocore protocol: STS (query), S3 (rest-xml), SSM
// and SQS (json), EC2 (ec2), Lambda (rest-json); their error shapes; and
// `moonstack world call` on the state file the server holds.
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

// A python3 script with `client(service)`, a boto3 client for the server,
// and `error(fn, **kw)` (Server::Python's); it prints one JSON document.
json Boto(const Server& s, const std::string& body) {
  return s.Python("import base64, urllib.request\n"
                  "URL = 'http://127.0.0.1:" + std::to_string(s.port()) + "'\n"
                  "def client(name):\n"
                  "    return boto3.client(name, endpoint_url=URL, region_name='us-east-1')\n" +
                  body);
}

TEST_CASE("sts over the query protocol: caller identity, a role of the simulated IAM assumed, a missing one refused",
          "[server][aws]") {
  Server s("aws_sts");
  json r = Boto(s, R"(
sts, iam = client('sts'), client('iam')
me = sts.get_caller_identity()
iam.create_role(RoleName='deployer', AssumeRolePolicyDocument='{"Version":"2012-10-17","Statement":[]}')
assumed = sts.assume_role(RoleArn='arn:aws:iam::123456789012:role/deployer', RoleSessionName='ci')
role = iam.get_role(RoleName='deployer')['Role']
print(json.dumps({'Account': me['Account'], 'Arn': me['Arn'],
                  'Assumed': assumed['AssumedRoleUser']['Arn'],
                  'AssumedId': assumed['AssumedRoleUser']['AssumedRoleId'] == role['RoleId'] + ':ci',
                  'Key': assumed['Credentials']['AccessKeyId'][:4],
                  'Token': 'Expiration' in sts.get_session_token()['Credentials'],
                  'Missing': error(sts.assume_role, RoleArn='arn:aws:iam::123456789012:role/nobody',
                                   RoleSessionName='ci'),
                  'NoRole': error(iam.get_role, RoleName='nobody')}))
)");
  CHECK(r["Account"] == "123456789012");
  CHECK(r["Arn"] == "arn:aws:iam::123456789012:root");
  CHECK(r["Assumed"] == "arn:aws:sts::123456789012:assumed-role/deployer/ci");
  CHECK(r["AssumedId"] == true);
  CHECK(r["Key"] == "ASIA");
  CHECK(r["Token"] == true);
  CHECK(r["Missing"] == json({{"Code", "AccessDenied"},
                              {"Message", "User: arn:aws:iam::123456789012:root is not authorized to perform: "
                                          "sts:AssumeRole on resource: arn:aws:iam::123456789012:role/nobody"},
                              {"Status", 403}}));
  CHECK(r["NoRole"] == json({{"Code", "NoSuchEntity"},
                             {"Message", "The role with name nobody cannot be found."},
                             {"Status", 404}}));
}

TEST_CASE("s3 over rest-xml: buckets, binary objects, listing, batch delete, multipart, presigned URLs",
          "[server][aws]") {
  Server s("aws_s3");
  json r = Boto(s, R"(
s3 = client('s3')
s3.create_bucket(Bucket='assets')
data = bytes(range(256)) * 3
s3.put_object(Bucket='assets', Key='dir/blob.bin', Body=data, ContentType='application/zip')
s3.put_object(Bucket='assets', Key='dir/a.txt', Body=b'hello')
got = s3.get_object(Bucket='assets', Key='dir/blob.bin')
head = s3.head_object(Bucket='assets', Key='dir/blob.bin')
listed = s3.list_objects_v2(Bucket='assets', Prefix='dir/')
up = s3.create_multipart_upload(Bucket='assets', Key='big')
e1 = s3.upload_part(Bucket='assets', Key='big', UploadId=up['UploadId'], PartNumber=1, Body=b'a' * (5 << 20))['ETag']
e2 = s3.upload_part(Bucket='assets', Key='big', UploadId=up['UploadId'], PartNumber=2, Body=b'\xff\x00b')['ETag']
s3.complete_multipart_upload(Bucket='assets', Key='big', UploadId=up['UploadId'],
    MultipartUpload={'Parts': [{'PartNumber': 1, 'ETag': e1}, {'PartNumber': 2, 'ETag': e2}]})
big = s3.get_object(Bucket='assets', Key='big')['Body'].read()
aborted = s3.create_multipart_upload(Bucket='assets', Key='gone')['UploadId']
s3.abort_multipart_upload(Bucket='assets', Key='gone', UploadId=aborted)
put_url = s3.generate_presigned_url('put_object', Params={'Bucket': 'assets', 'Key': 'signed'})
urllib.request.urlopen(urllib.request.Request(put_url, data=b'via url', method='PUT')).read()
get_url = s3.generate_presigned_url('get_object', Params={'Bucket': 'assets', 'Key': 'signed'})
signed = urllib.request.urlopen(get_url).read().decode()
deleted = s3.delete_objects(Bucket='assets', Delete={'Objects': [{'Key': 'dir/a.txt'}, {'Key': 'signed'}]})
after = [o['Key'] for o in s3.list_objects_v2(Bucket='assets')['Contents']]
print(json.dumps({'Same': got['Body'].read() == data, 'Type': got['ContentType'],
                  'Length': head['ContentLength'], 'Modified': head['LastModified'].year > 2000,
                  'Keys': [o['Key'] for o in listed['Contents']], 'Count': listed['KeyCount'],
                  'Big': big == b'a' * (5 << 20) + b'\xff\x00b', 'Signed': signed,
                  'Deleted': sorted(d['Key'] for d in deleted['Deleted']), 'After': after,
                  'Location': s3.get_bucket_location(Bucket='assets').get('LocationConstraint'),
                  'Encryption': s3.get_bucket_encryption(Bucket='assets')['ServerSideEncryptionConfiguration']
                                  ['Rules'][0]['ApplyServerSideEncryptionByDefault']['SSEAlgorithm'],
                  'NoBucket': error(s3.get_object, Bucket='nothere', Key='k'),
                  'NoKey': error(s3.get_object, Bucket='assets', Key='nothere'),
                  'NoUpload': error(s3.upload_part, Bucket='assets', Key='gone', UploadId=aborted, PartNumber=1,
                                    Body=b'x'),
                  'HeadMissing': error(s3.head_bucket, Bucket='nothere')}))
)");
  CHECK(r["Same"] == true);
  CHECK(r["Type"] == "application/zip");
  CHECK(r["Length"] == 768);
  CHECK(r["Modified"] == true);
  CHECK(r["Keys"] == json({"dir/a.txt", "dir/blob.bin"}));
  CHECK(r["Count"] == 2);
  CHECK(r["Big"] == true);
  CHECK(r["Signed"] == "via url");
  CHECK(r["Deleted"] == json({"dir/a.txt", "signed"}));
  CHECK(r["After"] == json({"big", "dir/blob.bin"}));
  CHECK(r["Encryption"] == "AES256");
  CHECK(r["NoBucket"] == json({{"Code", "NoSuchBucket"}, {"Message", "The specified bucket does not exist"},
                               {"Status", 404}}));
  CHECK(r["NoKey"] == json({{"Code", "NoSuchKey"}, {"Message", "The specified key does not exist."},
                            {"Status", 404}}));
  CHECK(r["NoUpload"]["Code"] == "NoSuchUpload");
  CHECK(r["NoUpload"]["Status"] == 404);
  CHECK(r["HeadMissing"] == json({{"Code", "404"}, {"Message", "Not Found"}, {"Status", 404}}));
}

TEST_CASE("aws s3 cp uploads to and downloads from the simulated S3", "[server][aws]") {
  Server s("aws_s3_cp");
  const std::string endpoint = " --endpoint-url http://127.0.0.1:" + std::to_string(s.port());
  std::ofstream(s.dir() + "/up.bin", std::ios::binary) << std::string("\x01\x02\xfe\xff text", 9);
  Run mb = Sh(s.Env() + "aws s3 mb s3://cp-bucket" + endpoint);
  INFO(mb.out);
  REQUIRE(mb.exit_code == 0);
  Run up = Sh(s.Env() + "aws s3 cp " + s.dir() + "/up.bin s3://cp-bucket/x/up.bin" + endpoint);
  INFO(up.out);
  REQUIRE(up.exit_code == 0);
  Run down = Sh(s.Env() + "aws s3 cp s3://cp-bucket/x/up.bin " + s.dir() + "/down.bin" + endpoint);
  INFO(down.out);
  REQUIRE(down.exit_code == 0);
  std::ifstream in(s.dir() + "/down.bin", std::ios::binary);
  std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(got == std::string("\x01\x02\xfe\xff text", 9));
  Run ls = Sh(s.Env() + "aws s3 ls s3://cp-bucket/x/" + endpoint);
  CHECK(ls.out.find("up.bin") != std::string::npos);
}

TEST_CASE("ssm and sqs over the json protocol", "[server][aws]") {
  Server s("aws_json");
  json r = Boto(s, R"(
ssm, sqs = client('ssm'), client('sqs')
ssm.put_parameter(Name='/app/db/host', Value='db.local', Type='String')
ssm.put_parameter(Name='/app/db/port', Value='5432', Type='String')
ssm.put_parameter(Name='/other', Value='x', Type='String')
one = ssm.get_parameter(Name='/app/db/host')['Parameter']
many = ssm.get_parameters(Names=['/app/db/port', '/nope'])
path = sorted(p['Name'] for p in ssm.get_parameters_by_path(Path='/app', Recursive=True)['Parameters'])
ssm.delete_parameter(Name='/other')
url = sqs.create_queue(QueueName='jobs')['QueueUrl']
sqs.send_message(QueueUrl=url, MessageBody='work 1')
got = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)['Messages'][0]
print(json.dumps({'Value': one['Value'], 'Version': one['Version'],
                  'Modified': one['LastModifiedDate'].year > 2000,
                  'Many': [p['Value'] for p in many['Parameters']], 'Invalid': many['InvalidParameters'],
                  'Path': path, 'Deleted': error(ssm.get_parameter, Name='/other'),
                  'Body': got['Body'], 'Url': url.endswith('/123456789012/jobs'),
                  'NoQueue': error(sqs.get_queue_url, QueueName='none'),
                  'Unknown': error(ssm.get_inventory)}))
)");
  CHECK(r["Value"] == "db.local");
  CHECK(r["Version"] == 1);
  CHECK(r["Modified"] == true);
  CHECK(r["Many"] == json({"5432"}));
  CHECK(r["Invalid"] == json({"/nope"}));
  CHECK(r["Path"] == json({"/app/db/host", "/app/db/port"}));
  CHECK(r["Deleted"]["Code"] == "ParameterNotFound");
  CHECK(r["Deleted"]["Status"] == 400);
  CHECK(r["Body"] == "work 1");
  CHECK(r["Url"] == true);
  CHECK(r["NoQueue"]["Status"] == 400);
  CHECK(r["Unknown"] == json({{"Code", "UnknownOperationException"},
                              {"Message", "The action GetInventory is not valid for this web service."},
                              {"Status", 400}}));
}

TEST_CASE("ec2 over the ec2 protocol sees a stack's security group, unknown actions per protocol", "[server][aws]") {
  Server s("aws_ec2");
  s.AwsJson("create-stack --stack-name net --template-body file://" + s.dir() + "/t.json");
  s.AwsJson("wait stack-create-complete --stack-name net");
  json r = Boto(s, R"(
ec2 = client('ec2')
group = cf.describe_stack_resource(StackName='net', LogicalResourceId='Group')['StackResourceDetail']
found = ec2.describe_security_groups(GroupIds=[group['PhysicalResourceId']])['SecurityGroups']
def raw(headers, body):
    req = urllib.request.Request(URL + '/', data=body.encode(), headers=headers, method='POST')
    try:
        return urllib.request.urlopen(req).read().decode()
    except urllib.error.HTTPError as e:
        return str(e.code) + ' ' + e.read().decode()
scope = 'AWS4-HMAC-SHA256 Credential=x/20240101/us-east-1/%s/aws4_request, SignedHeaders=host, Signature=0'
print(json.dumps({'Groups': [(g['GroupId'] == group['PhysicalResourceId'], g['Description']) for g in found],
                  'Missing': error(ec2.describe_security_groups, GroupIds=['sg-0123456789abcdef0']),
                  'Query': raw({'Authorization': scope % 'sts',
                                'Content-Type': 'application/x-www-form-urlencoded'}, 'Action=Bogus'),
                  'Ec2': raw({'Authorization': scope % 'ec2',
                              'Content-Type': 'application/x-www-form-urlencoded'}, 'Action=Bogus'),
                  'Json': raw({'X-Amz-Target': 'AmazonSSM.Bogus', 'Content-Type': 'application/x-amz-json-1.1'},
                              '{}'),
                  'Lambda': error(client('lambda').get_function, FunctionName='nothere')}))
)");
  CHECK(r["Groups"] == json::array({json::array({true, "web"})}));
  CHECK(r["Missing"]["Code"] == "InvalidGroup.NotFound");
  CHECK(r["Query"].get<std::string>().find("400 ") == 0);
  CHECK(r["Query"].get<std::string>().find(
            "<Code>InvalidAction</Code><Message>The action Bogus is not valid for this web service.</Message>") !=
        std::string::npos);
  CHECK(r["Ec2"].get<std::string>().find("<Response><Errors><Error><Code>InvalidAction</Code>") != std::string::npos);
  CHECK(r["Json"] == "400 {\"__type\":\"UnknownOperationException\",\"message\":\"The action Bogus is not valid for "
                     "this web service.\"}");
  CHECK(r["Lambda"]["Code"] == "ResourceNotFoundException");
  CHECK(r["Lambda"]["Status"] == 404);
}

TEST_CASE("world call on a served state file runs on the server, seen over HTTP at once", "[server][aws]") {
  Server s("aws_world_call");
  Run put = Sh(std::string(MOONSTACK_BINARY) + " world call ssm PutParameter "
               "'{\"Name\":\"/from/cli\",\"Value\":\"v1\",\"Type\":\"String\"}' --state " + s.dir() + "/state.db");
  INFO(put.out);
  REQUIRE(put.exit_code == 0);
  CHECK(json::parse(put.out) == json({{"Version", 1}, {"Tier", "Standard"}}));
  json r = Boto(s, R"(
ssm = client('ssm')
ssm.put_parameter(Name='/from/http', Value='v2', Type='String')
print(json.dumps({'Cli': ssm.get_parameter(Name='/from/cli')['Parameter']['Value']}))
)");
  CHECK(r["Cli"] == "v1");
  Run get = Sh(std::string(MOONSTACK_BINARY) + " world call ssm GetParameter '{\"Name\":\"/from/http\"}' --state " +
               s.dir() + "/state.db");
  INFO(get.out);
  REQUIRE(get.exit_code == 0);
  CHECK(json::parse(get.out)["Parameter"]["Value"] == "v2");
  Run missing = Sh(std::string(MOONSTACK_BINARY) + " world call ssm GetParameter '{\"Name\":\"/none\"}' --state " +
                   s.dir() + "/state.db");
  CHECK(missing.exit_code != 0);
  CHECK(missing.out.find("ParameterNotFound") != std::string::npos);
  // The server's answer has its lists as lists, as the CLI's own has.
  Run none = Sh(std::string(MOONSTACK_BINARY) + " world call sqs ListQueues --state " + s.dir() + "/state.db");
  INFO(none.out);
  REQUIRE(none.exit_code == 0);
  CHECK(json::parse(none.out) == json::parse(R"({"QueueUrls": []})"));
}

}  // namespace
}  // namespace ms::test::server
