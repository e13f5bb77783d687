// CDK's NestedStack: a parent (Parent) with two nested stacks, Queues and
// Alerts, and Alerts with a nested stack of its own, Settings. The parent's
// topic is passed down (CDK turns the reference into a Parameter of the
// nested stacks); Queues' queue URL comes back up (an Output of the nested
// stack the parent reads with Fn::GetAtt Queues.Outputs.<Key>) into an SSM
// parameter and an output of the parent. Each nested stack's template is a
// file asset (`*.nested.template.json`) whose TemplateURL names the
// bootstrap bucket: it must be in S3 before the parent deploys.
// Version 2 (-c version=2) changes the nested stacks only: Queues' queue
// gets a longer visibility timeout and Settings a second parameter.
const cdk = require('aws-cdk-lib');
const sns = require('aws-cdk-lib/aws-sns');
const sqs = require('aws-cdk-lib/aws-sqs');
const ssm = require('aws-cdk-lib/aws-ssm');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';

const parent = new cdk.Stack(app, 'Parent');
const topic = new sns.Topic(parent, 'Events');

const queues = new cdk.NestedStack(parent, 'Queues');
const work = new sqs.Queue(queues, 'Work', { visibilityTimeout: cdk.Duration.seconds(v2 ? 120 : 30) });
new ssm.StringParameter(queues, 'TopicArn', { stringValue: topic.topicArn });

const alerts = new cdk.NestedStack(parent, 'Alerts');
new sqs.Queue(alerts, 'Dead');
const settings = new cdk.NestedStack(alerts, 'Settings');
new ssm.StringParameter(settings, 'Level', { stringValue: 'warn' });
if (v2) new ssm.StringParameter(settings, 'Channel', { stringValue: 'ops' });

new ssm.StringParameter(parent, 'WorkQueueUrl', { stringValue: work.queueUrl });
new cdk.CfnOutput(parent, 'WorkQueue', { value: work.queueUrl });
new cdk.CfnOutput(parent, 'TopicArnOut', { value: topic.topicArn });
