// Two stacks: Shared makes a topic and a bucket; Consumer's function
// publishes to the topic and writes to the bucket, through CDK's cross-stack
// references. cdk.json makes them weak (@aws-cdk/core:defaultCrossStackReferences
// "weak", what CDK recommends moving to): Shared publishes plain outputs and
// Consumer reads them with Fn::GetStackOutput, no exports.
// Version 2 (-c version=2) adds a queue to Shared that Consumer also uses.
const cdk = require('aws-cdk-lib');
const sns = require('aws-cdk-lib/aws-sns');
const sqs = require('aws-cdk-lib/aws-sqs');
const s3 = require('aws-cdk-lib/aws-s3');
const lambda = require('aws-cdk-lib/aws-lambda');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';

const shared = new cdk.Stack(app, 'Shared');
const topic = new sns.Topic(shared, 'Alerts');
const bucket = new s3.Bucket(shared, 'Reports');
const queue = v2 ? new sqs.Queue(shared, 'Jobs') : undefined;

const consumer = new cdk.Stack(app, 'Consumer');
const env = { TOPIC: topic.topicArn, BUCKET: bucket.bucketName };
if (queue) env.QUEUE = queue.queueUrl;
const fn = new lambda.Function(consumer, 'Reporter', {
  runtime: lambda.Runtime.NODEJS_22_X,
  handler: 'index.handler',
  code: lambda.Code.fromInline('exports.handler = async () => process.env.TOPIC;'),
  environment: env,
});
topic.grantPublish(fn);
bucket.grantWrite(fn);
if (queue) queue.grantSendMessages(fn);

new cdk.CfnOutput(consumer, 'ReporterArn', { value: fn.functionArn });
