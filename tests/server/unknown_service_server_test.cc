// A JSON-protocol SDK call (X-Amz-Target) for a service the simulated cloud
// does not have (here DynamoDB Streams) is answered in that protocol's error
// shape, naming the target. In the query protocol's XML shape, the SDK could
// only report a parse error.
#include "server_fixture.h"

namespace ms::test::server {

TEST_CASE("serve: an X-Amz-Target call to a service moonstack lacks gets a JSON UnknownOperationException",
          "[server][aws]") {
  Server s("unknown_service");
  const json r = s.Python(R"(
streams = boto3.client('dynamodbstreams', endpoint_url=cf.meta.endpoint_url, region_name='us-east-1')
try:
    streams.list_streams()
    print(json.dumps({}))
except botocore.exceptions.ClientError as e:
    print(json.dumps({'Code': e.response['Error']['Code'], 'Message': e.response['Error']['Message'],
                      'Status': e.response['ResponseMetadata']['HTTPStatusCode'],
                      'ContentType': e.response['ResponseMetadata']['HTTPHeaders'].get('content-type')}))
)");
  CHECK(r["Code"] == "UnknownOperationException");
  CHECK(r["Message"] == "moonstack simulates no service with the target DynamoDBStreams_20120810.ListStreams");
  CHECK(r["Status"] == 400);
  CHECK(r["ContentType"] == "application/x-amz-json-1.0");
}

}  // namespace ms::test::server
