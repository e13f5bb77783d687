// Secrets Manager and DynamoDB over `moonstack serve`, driven by boto3 (both
// json protocol): the simulated services answer with AWS's shapes and errors.
#include "server/server_fixture.h"

namespace ms::test::server {
namespace {

json Boto(const Server& s, const std::string& body) {
  return s.Python("URL = 'http://127.0.0.1:" + std::to_string(s.port()) + "'\n"
                  "def client(name):\n"
                  "    return boto3.client(name, endpoint_url=URL, region_name='us-east-1')\n" +
                  body);
}

TEST_CASE("secretsmanager over serve: create, get_secret_value, versions, AWS's errors", "[server][aws][secrets]") {
  Server s("aws_secretsmanager");
  json r = Boto(s, R"(
sm = client('secretsmanager')
made = sm.create_secret(Name='db', SecretString='one')
sm.put_secret_value(SecretId='db', SecretString='two')
got = sm.get_secret_value(SecretId=made['ARN'])
prev = sm.get_secret_value(SecretId='db', VersionStage='AWSPREVIOUS')
print(json.dumps({'Arn': made['ARN'], 'Value': got['SecretString'], 'Stages': got['VersionStages'],
                  'Previous': prev['SecretString'],
                  'Password': len(sm.get_random_password(PasswordLength=12)['RandomPassword']),
                  'Missing': error(sm.get_secret_value, SecretId='nope')}))
)");
  CHECK(r["Arn"].get<std::string>().rfind("arn:aws:secretsmanager:us-east-1:123456789012:secret:db-", 0) == 0);
  CHECK(r["Arn"].get<std::string>().size() == std::string("arn:aws:secretsmanager:us-east-1:123456789012:secret:db-").size() + 6);
  CHECK(r["Value"] == "two");
  CHECK(r["Stages"] == json::array({"AWSCURRENT"}));
  CHECK(r["Previous"] == "one");
  CHECK(r["Password"] == 12);
  CHECK(r["Missing"]["Code"] == "ResourceNotFoundException");
  CHECK(r["Missing"]["Message"] == "Secrets Manager can't find the specified secret.");
}

TEST_CASE("dynamodb over serve: create_table, describe_table, items, AWS's errors", "[server][aws][dynamodb]") {
  Server s("aws_dynamodb");
  json r = Boto(s, R"(
db = client('dynamodb')
made = db.create_table(TableName='orders', BillingMode='PAY_PER_REQUEST',
    AttributeDefinitions=[{'AttributeName': 'id', 'AttributeType': 'S'}],
    KeySchema=[{'AttributeName': 'id', 'KeyType': 'HASH'}])['TableDescription']
t = db.describe_table(TableName='orders')['Table']
print(json.dumps({'Status': made['TableStatus'], 'Arn': t['TableArn'], 'Keys': t['KeySchema'],
                  'Billing': t['BillingModeSummary']['BillingMode'],
                  'Exists': error(db.create_table, TableName='orders', BillingMode='PAY_PER_REQUEST',
                      AttributeDefinitions=[{'AttributeName': 'id', 'AttributeType': 'S'}],
                      KeySchema=[{'AttributeName': 'id', 'KeyType': 'HASH'}]),
                  'Missing': error(db.describe_table, TableName='nope')}))
)");
  CHECK(r["Status"] == "CREATING");
  CHECK(r["Arn"] == "arn:aws:dynamodb:us-east-1:123456789012:table/orders");
  CHECK(r["Keys"] == json::array({{{"AttributeName", "id"}, {"KeyType", "HASH"}}}));
  CHECK(r["Billing"] == "PAY_PER_REQUEST");
  CHECK(r["Exists"]["Code"] == "ResourceInUseException");
  CHECK(r["Exists"]["Message"] == "Table already exists: orders");
  CHECK(r["Missing"]["Code"] == "ResourceNotFoundException");
  CHECK(r["Missing"]["Message"] == "Requested resource not found: Table: nope not found");
}

}  // namespace
}  // namespace ms::test::server
