// CDK's Provider framework with an isCompleteHandler: the framework's
// onEvent function calls the user's onEvent (inline Python), then starts the
// framework's waiter, a Step Functions state machine whose Task invokes the
// framework's isComplete function every queryInterval (Retry on States.ALL)
// until the user's isComplete says IsComplete; the framework then answers
// CloudFormation. Past totalTimeout the Catch runs onTimeout, which fails the
// resource with "Operation timed out".
// The user's isComplete reports not-complete twice for each request, then
// complete (it counts the polls of each RequestId in the warm environment).
//   -c version=1   Name "world"
//   -c version=2   Name "moon" (same PhysicalResourceId: an update in place)
//   -c version=3   Name "mars", Never "true": isComplete never completes,
//                  onTimeout fails the update after totalTimeout (1 minute),
//                  and it rolls back to version 2
const cdk = require('aws-cdk-lib');
const lambda = require('aws-cdk-lib/aws-lambda');
const cr = require('aws-cdk-lib/custom-resources');

const app = new cdk.App();
const version = String(app.node.tryGetContext('version') || '1');
const stack = new cdk.Stack(app, 'ProviderWaiter');

const onEvent = new lambda.Function(stack, 'OnEvent', {
  functionName: 'cdk-example-waiter-on-event',
  runtime: lambda.Runtime.PYTHON_3_12,
  handler: 'index.handler',
  code: lambda.Code.fromInline(`
def handler(event, context):
    props = event["ResourceProperties"]
    print("onEvent", event["RequestType"], event.get("PhysicalResourceId"), props["Name"])
    if event["RequestType"] == "Delete":
        return {}
    return {"PhysicalResourceId": "slow-greeting"}
`),
});

const isComplete = new lambda.Function(stack, 'IsComplete', {
  functionName: 'cdk-example-waiter-is-complete',
  runtime: lambda.Runtime.PYTHON_3_12,
  handler: 'index.handler',
  code: lambda.Code.fromInline(`
polls = {}
def handler(event, context):
    props = event["ResourceProperties"]
    n = polls.get(event["RequestId"], 0) + 1
    polls[event["RequestId"]] = n
    done = n >= 3 and props.get("Never") != "true"
    print("isComplete", event["RequestType"], event["PhysicalResourceId"], props["Name"], n, done)
    if not done:
        return {"IsComplete": False}
    if event["RequestType"] == "Delete":
        return {"IsComplete": True}
    return {"IsComplete": True, "Data": {"Message": "Hello, " + props["Name"] + "!"}}
`),
});

const provider = new cr.Provider(stack, 'Provider', {
  onEventHandler: onEvent,
  isCompleteHandler: isComplete,
  queryInterval: cdk.Duration.seconds(10),
  totalTimeout: cdk.Duration.minutes(1),
});

const name = { 1: 'world', 2: 'moon', 3: 'mars' }[version];
const greeting = new cdk.CustomResource(stack, 'Greeting', {
  serviceToken: provider.serviceToken,
  resourceType: 'Custom::SlowGreeting',
  properties: version === '3' ? { Name: name, Never: 'true' } : { Name: name },
});

new cdk.CfnOutput(stack, 'GreetingId', { value: greeting.ref });
new cdk.CfnOutput(stack, 'Message', { value: greeting.getAttString('Message') });
