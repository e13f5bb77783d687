// A DynamoDB table behind a Lambda function that serves it over a REST API
// (API Gateway). Version 2 (-c version=2) adds a global secondary index and
// a second route.
const cdk = require('aws-cdk-lib');
const dynamodb = require('aws-cdk-lib/aws-dynamodb');
const lambda = require('aws-cdk-lib/aws-lambda');
const apigw = require('aws-cdk-lib/aws-apigateway');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';
const stack = new cdk.Stack(app, 'TableApi');

const table = new dynamodb.Table(stack, 'Items', {
  partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
  sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
  removalPolicy: cdk.RemovalPolicy.DESTROY,
});
if (v2) {
  table.addGlobalSecondaryIndex({ indexName: 'bySk', partitionKey: { name: 'sk', type: dynamodb.AttributeType.STRING } });
}

const api = new lambda.Function(stack, 'Handler', {
  runtime: lambda.Runtime.NODEJS_22_X,
  handler: 'index.handler',
  code: lambda.Code.fromInline('exports.handler = async () => ({ statusCode: 200, body: process.env.TABLE });'),
  environment: { TABLE: table.tableName },
});
table.grantReadWriteData(api);

const rest = new apigw.LambdaRestApi(stack, 'Api', { handler: api, proxy: false });
rest.root.addResource('items').addMethod('GET');
if (v2) rest.root.addResource('health').addMethod('GET');

new cdk.CfnOutput(stack, 'TableName', { value: table.tableName });
new cdk.CfnOutput(stack, 'TableArn', { value: table.tableArn });
new cdk.CfnOutput(stack, 'HandlerArn', { value: api.functionArn });
