// Under `moonstack serve`: a custom resource backed by an inline Python
// function of the stack runs it (the function sees the server as
// AWS_ENDPOINT_URL); with --no-lambda the request waits for a handler
// outside instead (GET /moonstack/custom-resource-requests), as before. A
// function whose code came from S3 runs the code it took, whatever happens
// to the object later, as Lambda keeps its own copy. A function's layers are
// mounted as Lambda's /opt (python and node).
#include <catch2/catch.hpp>

#include "../server/server_fixture.h"
#include "lambda_test_support.h"

using namespace ms::test::server;  // NOLINT: the fixture

namespace {

const std::string kStack = R"(
code = '''import cfnresponse, os
def handler(event, context):
    cfnresponse.send(event, context, cfnresponse.SUCCESS, {'Endpoint': os.environ.get('AWS_ENDPOINT_URL', '')}, 'res-1')
'''
template = json.dumps({'Resources': {
    'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {'FunctionName': 'serve-fn', 'Runtime': 'python3.12',
           'Handler': 'index.handler', 'Role': 'arn:aws:iam::123456789012:role/r', 'Code': {'ZipFile': code}}},
    'Res': {'Type': 'Custom::Thing', 'Properties': {'ServiceToken': {'Fn::GetAtt': ['Fn', 'Arn']}}}},
    'Outputs': {'Endpoint': {'Value': {'Fn::GetAtt': ['Res', 'Endpoint']}}}})
import time, urllib.request
lambda_role('r')
cf.create_stack(StackName='s', TemplateBody=template)
)";

}  // namespace

TEST_CASE("serve: a custom resource backed by an inline Python function runs it", "[server][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_custom_resource");
  const json r = server.Python(kStack + R"(
for _ in range(600):
    stack = cf.describe_stacks(StackName='s')['Stacks'][0]
    if not stack['StackStatus'].endswith('IN_PROGRESS'):
        break
    time.sleep(0.05)
print(json.dumps({'status': stack['StackStatus'], 'outputs': stack.get('Outputs', []), 'base': cf.meta.endpoint_url}))
)");
  CHECK(r["status"] == "CREATE_COMPLETE");
  REQUIRE(r["outputs"].size() == 1);
  CHECK(r["outputs"][0]["OutputValue"] == r["base"]);
}

TEST_CASE("serve --no-lambda: the request waits for a handler outside", "[server][lambda]") {
  Server server("lambda_no_lambda", "0.001", {"--no-lambda"});
  const json r = server.Python(kStack + R"(
base = cf.meta.endpoint_url
for _ in range(600):
    with urllib.request.urlopen(base + '/moonstack/custom-resource-requests') as f:
        reqs = json.load(f)['Requests']
    if reqs:
        break
    time.sleep(0.05)
print(json.dumps({'pending': [q['LogicalResourceId'] for q in reqs],
                  'status': cf.describe_stacks(StackName='s')['Stacks'][0]['StackStatus']}))
)");
  CHECK(r["pending"] == json::array({"Res"}));
  CHECK(r["status"] == "CREATE_IN_PROGRESS");
}

TEST_CASE("serve: a function runs the code it took from S3 after the object is overwritten or deleted",
          "[server][lambda]") {
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_code_taken");
  const json r = server.Python(R"(
import base64, hashlib, io, sqlite3, zipfile
def package(answer):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as z:
        z.writestr(zipfile.ZipInfo('index.py', (2024, 1, 1, 0, 0, 0)), 'def handler(event, context):\n    return %r\n' % answer)
    return buf.getvalue()
def blobs():
    db = sqlite3.connect(')" + server.dir() + R"(/state.db')
    n = db.execute('SELECT count(*) FROM blobs').fetchone()[0]
    db.close()
    return n
def run(**kw):
    return json.loads(lam.invoke(FunctionName='kept', Payload=b'{}', **kw)['Payload'].read())
lambda_role('r')
s3, lam = boto3.client('s3', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1'), \
    boto3.client('lambda', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
s3.create_bucket(Bucket='code')
s3.put_object(Bucket='code', Key='fn.zip', Body=package('v1'))
first = lam.create_function(FunctionName='kept', Runtime='python3.12', Handler='index.handler',
                            Role='arn:aws:iam::123456789012:role/r', Code={'S3Bucket': 'code', 'S3Key': 'fn.zip'})
out = {}
s3.put_object(Bucket='code', Key='fn.zip', Body=package('v2'))
out['overwritten'] = run()
out['published'] = lam.publish_version(FunctionName='kept')['Version']
second = lam.update_function_code(FunctionName='kept', S3Bucket='code', S3Key='fn.zip')
digest = lambda answer: base64.b64encode(hashlib.sha256(package(answer)).digest()).decode()
out['sha'] = [first['CodeSha256'] == digest('v1'), second['CodeSha256'] == digest('v2'),
              second['CodeSize'] == len(package('v2'))]
out['updated'] = [run(), run(Qualifier='1')]
s3.delete_object(Bucket='code', Key='fn.zip')
s3.delete_bucket(Bucket='code')
out['object_deleted'] = [run(), run(Qualifier='1'), blobs()]
out['no_payload'] = json.loads(lam.invoke(FunctionName='kept')['Payload'].read())  # the event {}
out['bad_payload'] = error(lam.invoke, FunctionName='kept', Payload=b'abc')
lam.delete_function(FunctionName='kept', Qualifier='1')
out['version_deleted'] = blobs()
lam.delete_function(FunctionName='kept')
out['function_deleted'] = blobs()
print(json.dumps(out))
)");
  CHECK(r["overwritten"] == "v1");
  CHECK(r["published"] == "1");
  CHECK(r["sha"] == json({true, true, true}));  // Lambda's: base64 SHA-256 of the package, its size
  CHECK(r["updated"] == json({"v2", "v1"}));
  CHECK(r["object_deleted"] == json({"v2", "v1", 2}));  // the version's code and $LATEST's
  CHECK(r["no_payload"] == "v2");
  CHECK(r["bad_payload"] == json({{"Code", "InvalidRequestContentException"}, {"Status", 400},
                                  {"Message", "Could not parse request body into json: Could not parse payload into "
                                              "json: JSON not well-formed. (line 1, column 2)"}}));
  CHECK(r["version_deleted"] == 1);
  CHECK(r["function_deleted"] == 0);
}

TEST_CASE("serve: a function invoked through the Lambda API calls the server's APIs while it runs",
          "[server][lambda]") {
  // The function's own S3 and SSM calls reach the server while its Invoke is
  // still running: each request runs its action on a runtime of its own
  // (server/sim_call.h). Before, they waited for the Invoke to end, and the
  // function timed out ("Task timed out after 5.00 seconds").
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_calls_back");
  const json r = server.Python(R"(
import io, time, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w') as z:
    z.writestr('index.py', "import boto3\ndef handler(event, context):\n"
               "    boto3.client('ssm').put_parameter(Name='/from/fn', Value=event['v'], Type='String')\n"
               "    return sorted(b['Name'] for b in boto3.client('s3').list_buckets()['Buckets'])\n")
lambda_role('r')
s3, lam, ssm = (boto3.client(n, endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
                for n in ('s3', 'lambda', 'ssm'))
s3.create_bucket(Bucket='bucket-one')
lam.create_function(FunctionName='calls', Runtime='python3.12', Handler='index.handler', Timeout=5,
                    Role='arn:aws:iam::123456789012:role/r', Code={'ZipFile': buf.getvalue()})
start = time.time()
answer = lam.invoke(FunctionName='calls', Payload=b'{"v": "seen"}')
print(json.dumps({'error': answer.get('FunctionError'), 'payload': json.loads(answer['Payload'].read()),
                  'fast': time.time() - start < 4,
                  'parameter': ssm.get_parameter(Name='/from/fn')['Parameter']['Value']}))
)");
  CHECK(r["error"] == nullptr);
  CHECK(r["payload"] == json({"bucket-one"}));
  CHECK(r["fast"] == true);
  CHECK(r["parameter"] == "seen");
}

TEST_CASE("serve: a function URL under localhost runs its function with Lambda's event and answers as Lambda maps it",
          "[server][lambda]") {
  // http://<url id>.lambda-url.us-east-1.localhost:<port>/... is the URL
  // https://<url id>.lambda-url.us-east-1.on.aws/ (server/function_url_route.h).
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_function_url");
  const json r = server.Python(R"(
import http.client, io, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w') as z:
    z.writestr('index.py', """import json
def handler(event, context):
    if event['rawPath'] == '/plain':
        return {'hello': 'world'}
    if event['rawPath'] == '/fail':
        raise ValueError('no')
    return {'statusCode': 201, 'headers': {'X-Method': event['requestContext']['http']['method']},
            'cookies': ['a=1', 'b=2'],
            'body': json.dumps({k: event.get(k) for k in ('version', 'routeKey', 'rawPath', 'rawQueryString',
                                'queryStringParameters', 'cookies', 'body', 'isBase64Encoded')})}
""")
lambda_role('r')
lam = boto3.client('lambda', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
lam.create_function(FunctionName='web', Runtime='python3.12', Handler='index.handler',
                    Role='arn:aws:iam::123456789012:role/r', Code={'ZipFile': buf.getvalue()})
url = lam.create_function_url_config(FunctionName='web', AuthType='NONE')['FunctionUrl']
host = url[len('https://'):].rstrip('/').replace('.on.aws', '.localhost')
port = int(cf.meta.endpoint_url.rsplit(':', 1)[1])
def call(method, path, body=None, headers={}, to=None):
    c = http.client.HTTPConnection('127.0.0.1', port)
    c.request(method, path, body=body, headers=dict({'Host': to or host}, **headers))
    a = c.getresponse()
    text = a.read().decode()
    return {'status': a.status, 'type': a.getheader('Content-Type'), 'method': a.getheader('X-Method'),
            'cookies': a.msg.get_all('Set-Cookie'), 'body': json.loads(text) if text.startswith('{') else text}
out = {'closed': call('GET', '/x')}
lam.add_permission(FunctionName='web', StatementId='url', Action='lambda:InvokeFunctionUrl', Principal='*',
                   FunctionUrlAuthType='NONE')
out['url_permission_only'] = call('GET', '/x')['status']
lam.add_permission(FunctionName='web', StatementId='invoke', Action='lambda:InvokeFunction', Principal='*')
out['post'] = call('POST', '/items/1?a=1&a=2&b=x%20y', b'{"k": 1}', {'Content-Type': 'application/json', 'Cookie': 's=1; t=2'})
out['put_binary'] = call('PUT', '/bin', bytes(range(5)), {'Content-Type': 'application/octet-stream'})['body']
out['root'] = call('POST', '/', b'x=1', {'Content-Type': 'text/plain'})['body']['rawPath']
out['patch'] = call('PATCH', '/p')['method']
out['plain'] = call('GET', '/plain')
out['fails'] = call('GET', '/fail')
out['unknown'] = call('GET', '/', to='a' * 32 + '.lambda-url.us-east-1.localhost')['status']
lam.publish_version(FunctionName='web')
lam.create_alias(FunctionName='web', Name='live', FunctionVersion='1')
live = lam.create_function_url_config(FunctionName='web', Qualifier='live', AuthType='NONE')['FunctionUrl']
out['alias'] = [call('GET', '/plain', to=live[len('https://'):].rstrip('/').replace('.on.aws', '.localhost'))['status'],
                lam.invoke(FunctionName='web:live', Payload=b'{"rawPath": "/plain"}')['ExecutedVersion']]
lam.update_function_url_config(FunctionName='web', AuthType='AWS_IAM')
out['iam'] = [call('GET', '/x')['status'], call('GET', '/x', headers={'Authorization':
    'AWS4-HMAC-SHA256 Credential=k/20260101/us-east-1/lambda/aws4_request, SignedHeaders=host, Signature=0'})['status']]
print(json.dumps(out))
)");
  CHECK(r["closed"] == json({{"status", 403}, {"type", "application/json"}, {"method", nullptr}, {"cookies", nullptr},
                             {"body", {{"Message", "Forbidden"}}}}));
  CHECK(r["url_permission_only"] == 403);  // a URL made since October 2025 needs lambda:InvokeFunction too
  const json& post = r["post"];
  CHECK(post["status"] == 201);
  CHECK(post["method"] == "POST");
  CHECK(post["cookies"] == json({"a=1", "b=2"}));
  CHECK(post["body"] == json({{"version", "2.0"}, {"routeKey", "$default"}, {"rawPath", "/items/1"},
                              {"rawQueryString", "a=1&a=2&b=x%20y"},
                              {"queryStringParameters", {{"a", "1,2"}, {"b", "x y"}}},
                              {"cookies", {"s=1", "t=2"}}, {"body", "{\"k\": 1}"}, {"isBase64Encoded", false}}));
  CHECK(r["put_binary"]["body"] == "AAECAwQ=");
  CHECK(r["put_binary"]["isBase64Encoded"] == true);
  CHECK(r["root"] == "/");
  CHECK(r["patch"] == "PATCH");
  CHECK(r["plain"]["status"] == 200);  // an answer without statusCode: itself, as JSON
  CHECK(r["plain"]["type"] == "application/json");
  CHECK(r["plain"]["body"] == json({{"hello", "world"}}));
  CHECK(r["fails"]["status"] == 502);
  CHECK(r["unknown"] == 404);
  CHECK(r["alias"] == json({200, "1"}));  // an alias's URL, and Invoke of the alias, run its version
  CHECK(r["iam"] == json({403, 201}));
}

TEST_CASE("serve: a package larger than a provider call's Lua memory is taken, digested and run outside Lua",
          "[server][lambda]") {
  // 80 MB of incompressible bytes beside the handler, uploaded as boto3
  // uploads a file (multipart): the provider call's Lua state holds 64 MiB
  // at most (host/lua/limits.h), so the package must stay out of it when
  // CreateFunction takes it and when Invoke runs it.
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_big_package");
  const json r = server.Python(R"(
import base64, hashlib, io, os, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w', zipfile.ZIP_STORED) as z:
    z.writestr('index.py', 'def handler(event, context):\n    return "big"\n')
    z.writestr('data.bin', os.urandom(80 << 20))
package = buf.getvalue()
lambda_role('r')
s3, lam = boto3.client('s3', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1'), \
    boto3.client('lambda', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
s3.create_bucket(Bucket='assets')
s3.upload_fileobj(io.BytesIO(package), 'assets', 'big.zip')
created = lam.create_function(FunctionName='big', Runtime='python3.12', Handler='index.handler',
                              Role='arn:aws:iam::123456789012:role/r', Code={'S3Bucket': 'assets', 'S3Key': 'big.zip'})
print(json.dumps({'sha': created['CodeSha256'] == base64.b64encode(hashlib.sha256(package).digest()).decode(),
                  'size': created['CodeSize'] == len(package),
                  'ran': json.loads(lam.invoke(FunctionName='big', Payload=b'{}')['Payload'].read())}))
)");
  CHECK(r["sha"] == true);
  CHECK(r["size"] == true);
  CHECK(r["ran"] == "big");
}

// A zip of {name: text, or (text, mode)} for the layer tests' scripts, the
// mode recorded as zip tools record it (external attributes).
const std::string kArchive = R"(
import io, zipfile
def archive(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w') as z:
        for name, entry in files.items():
            text, mode = entry if isinstance(entry, tuple) else (entry, 0o644)
            info = zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0))
            info.external_attr = mode << 16
            z.writestr(info, text)
    return buf.getvalue()
)";

TEST_CASE("serve: a function's layers are extracted into its /opt in order and found as Lambda finds them",
          "[server][lambda]") {
  // Two python layers (one from S3, one given as ZipFile bytes), the second
  // overriding a module of the first; a package in the runtime's
  // site-packages of a layer; a layer's executable in bin/. A layer version
  // of the caller's account that does not exist is refused; another
  // account's (a public layer) is taken and has nothing to mount.
  if (!ms::test::HaveInterpreter("python3")) return;
  Server server("lambda_layers");
  const json r = server.Python(kArchive + R"(
lambda_role('r')
s3, lam = boto3.client('s3', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1'), \
    boto3.client('lambda', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
s3.create_bucket(Bucket='layers')
s3.put_object(Bucket='layers', Key='base.zip', Body=archive({
    'python/shared.py': ("WHO = 'base'\n", 0o644),
    'python/lib/python3.12/site-packages/deps/__init__.py': ("NAME = 'deps'\n", 0o644),
    'bin/tool': ("#!/bin/sh\necho tool-ran\n", 0o755)}))
base = lam.publish_layer_version(LayerName='base', Content={'S3Bucket': 'layers', 'S3Key': 'base.zip'})
over = lam.publish_layer_version(LayerName='over', Content={'ZipFile': archive({'python/shared.py': ("WHO = 'over'\n", 0o644)})})
code = archive({'index.py': ('''import shared, deps, subprocess
def handler(event, context):
    return {'shared': shared.WHO, 'deps': deps.NAME,
            'tool': subprocess.run(['tool'], capture_output=True, text=True).stdout.strip()}
''', 0o644)})
public = 'arn:aws:lambda:us-east-1:017000801446:layer:AWSLambdaPowertoolsPythonV2:40'
created = lam.create_function(FunctionName='layered', Runtime='python3.12', Handler='index.handler',
                              Role='arn:aws:iam::123456789012:role/r', Code={'ZipFile': code},
                              Layers=[base['LayerVersionArn'], over['LayerVersionArn'], public])
out = {'layers': created['Layers'], 'sizes': [base['Content']['CodeSize'], over['Content']['CodeSize']],
       'arns': [base['LayerVersionArn'], over['LayerVersionArn']],
       'ran': json.loads(lam.invoke(FunctionName='layered')['Payload'].read())}
lam.update_function_configuration(FunctionName='layered', Layers=[over['LayerVersionArn'], base['LayerVersionArn']])
out['reordered'] = json.loads(lam.invoke(FunctionName='layered')['Payload'].read())['shared']
missing = 'arn:aws:lambda:us-east-1:123456789012:layer:base:7'
out['missing'] = error(lam.create_function, FunctionName='nope', Runtime='python3.12', Handler='index.handler',
                       Role='arn:aws:iam::123456789012:role/r', Code={'ZipFile': code}, Layers=[missing])
out['missing_update'] = error(lam.update_function_configuration, FunctionName='layered', Layers=[missing])
print(json.dumps(out))
)");
  REQUIRE(r["layers"].size() == 3);
  CHECK(r["layers"][0]["Arn"] == r["arns"][0]);
  CHECK(r["layers"][0]["CodeSize"] == r["sizes"][0]);
  CHECK(r["layers"][1]["Arn"] == r["arns"][1]);
  CHECK(r["layers"][1]["CodeSize"] == r["sizes"][1]);
  CHECK(r["layers"][2]["Arn"] == "arn:aws:lambda:us-east-1:017000801446:layer:AWSLambdaPowertoolsPythonV2:40");
  CHECK(r["layers"][2]["CodeSize"] == 0);
  // The later layer's shared.py wins; the site-packages and bin/ of the first are found.
  CHECK(r["ran"] == json({{"shared", "over"}, {"deps", "deps"}, {"tool", "tool-ran"}}));
  CHECK(r["reordered"] == "base");
  const json missing = {{"Code", "InvalidParameterValueException"}, {"Status", 400},
                        {"Message", "Layer version arn:aws:lambda:us-east-1:123456789012:layer:base:7 does not exist."}};
  CHECK(r["missing"] == missing);
  CHECK(r["missing_update"] == missing);
}

TEST_CASE("serve: a nodejs function finds its layer's modules under nodejs/node_modules", "[server][lambda]") {
  if (!ms::test::HaveInterpreter("node")) return;
  Server server("lambda_layers_node");
  const json r = server.Python(kArchive + R"(
lambda_role('r')
lam = boto3.client('lambda', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
common = lam.publish_layer_version(LayerName='common', Content={'ZipFile': archive({
    'nodejs/node_modules/greet/index.js': "exports.greet = (n) => 'hello ' + n;\n",
    'nodejs/node22/node_modules/only22/index.js': "module.exports = 'node22 modules';\n"})})
lam.create_function(FunctionName='greeter', Runtime='nodejs22.x', Handler='index.handler',
                    Role='arn:aws:iam::123456789012:role/r', Layers=[common['LayerVersionArn']],
                    Code={'ZipFile': archive({'index.js': "const { greet } = require('greet');\n"
                        "exports.handler = async (e) => [greet(e.name), require('only22')];\n"})})
print(json.dumps(json.loads(lam.invoke(FunctionName='greeter', Payload=b'{"name": "layer"}')['Payload'].read())))
)");
  CHECK(r == json({"hello layer", "node22 modules"}));
}

TEST_CASE("serve: a function's tags through the Lambda API and from a stack", "[server][lambda]") {
  Server server("lambda_tags");
  const json r = server.Python(R"(
lambda_role('r')
lam = boto3.client('lambda', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
created = lam.create_function(FunctionName='tagged', Runtime='python3.12', Handler='index.handler',
                              Role='arn:aws:iam::123456789012:role/r', Code={'ZipFile': b'x'}, Tags={'team': 'web'})
arn = created['FunctionArn']
out = {'created': lam.list_tags(Resource=arn)['Tags']}
lam.tag_resource(Resource=arn, Tags={'env': 'dev', 'team': 'api'})
out['tagged'] = lam.list_tags(Resource=arn)['Tags']
lam.untag_resource(Resource=arn, TagKeys=['team'])
out['untagged'] = lam.get_function(FunctionName='tagged')['Tags']
out['missing'] = error(lam.list_tags, Resource=arn + 'x')
template = {'Resources': {'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {
    'Runtime': 'python3.12', 'Handler': 'index.handler', 'Role': 'arn:aws:iam::123456789012:role/r',
    'Code': {'ZipFile': 'def handler(e, c): return 1'}, 'Tags': [{'Key': 'app', 'Value': 'shop'}]}}}}
cf.create_stack(StackName='tags', TemplateBody=json.dumps(template), Tags=[{'Key': 'owner', 'Value': 'ops'}])
import time
for _ in range(600):
    s = cf.describe_stacks(StackName='tags')['Stacks'][0]
    if not s['StackStatus'].endswith('IN_PROGRESS'):
        break
    time.sleep(0.05)
name = cf.describe_stack_resource(StackName='tags', LogicalResourceId='Fn')['StackResourceDetail']['PhysicalResourceId']
fn_tags = lam.get_function(FunctionName=name)['Tags']
out['stack'] = [s['StackStatus'], fn_tags.get('app'), fn_tags.get('owner'), fn_tags.get('aws:cloudformation:logical-id'),
                fn_tags.get('aws:cloudformation:stack-id') == s['StackId']]
print(json.dumps(out))
)");
  CHECK(r["created"] == json({{"team", "web"}}));
  CHECK(r["tagged"] == json({{"team", "api"}, {"env", "dev"}}));
  CHECK(r["untagged"] == json({{"env", "dev"}}));
  CHECK(r["missing"]["Code"] == "ResourceNotFoundException");
  CHECK(r["missing"]["Status"] == 404);
  CHECK(r["stack"] == json({"CREATE_COMPLETE", "shop", "ops", "Fn", true}));
}
