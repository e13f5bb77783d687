// An SNS topic fanning out to an SQS queue (with its dead-letter queue) that
// a Lambda function consumes. Version 2 (-c version=2) lengthens the queue's
// visibility timeout and gives the function more memory.
const cdk = require('aws-cdk-lib');
const sqs = require('aws-cdk-lib/aws-sqs');
const sns = require('aws-cdk-lib/aws-sns');
const subs = require('aws-cdk-lib/aws-sns-subscriptions');
const lambda = require('aws-cdk-lib/aws-lambda');
const sources = require('aws-cdk-lib/aws-lambda-event-sources');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';
const stack = new cdk.Stack(app, 'QueueTopicLambda');

const dlq = new sqs.Queue(stack, 'DeadLetters', { retentionPeriod: cdk.Duration.days(14) });
const queue = new sqs.Queue(stack, 'Work', {
  visibilityTimeout: cdk.Duration.seconds(v2 ? 120 : 60),
  deadLetterQueue: { queue: dlq, maxReceiveCount: 3 },
});
const topic = new sns.Topic(stack, 'Events', { displayName: 'events' });
topic.addSubscription(new subs.SqsSubscription(queue, { rawMessageDelivery: true }));

const worker = new lambda.Function(stack, 'Worker', {
  runtime: lambda.Runtime.NODEJS_22_X,
  handler: 'index.handler',
  code: lambda.Code.fromInline('exports.handler = async (e) => e.Records.length;'),
  memorySize: v2 ? 256 : 128,
  timeout: cdk.Duration.seconds(30),
});
worker.addEventSource(new sources.SqsEventSource(queue, { batchSize: 10 }));

new cdk.CfnOutput(stack, 'QueueUrl', { value: queue.queueUrl });
new cdk.CfnOutput(stack, 'QueueArn', { value: queue.queueArn });
new cdk.CfnOutput(stack, 'TopicArn', { value: topic.topicArn });
new cdk.CfnOutput(stack, 'WorkerArn', { value: worker.functionArn });
