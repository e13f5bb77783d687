// CDK's Provider framework (aws-cdk-lib/custom-resources `Provider`): the
// custom resource's ServiceToken is the framework's own Node.js function
// (framework-onEvent, code in a CDK asset), which calls the user's onEvent
// function — here inline Python — through the Lambda API and answers
// CloudFormation for it. The onEvent function names its resource after the
// Name property and hands out a greeting (Fn::GetAtt Greeting.Message).
//   -c version=1   Name "world"
//   -c version=2   Name "moon": a new PhysicalResourceId (the old one is
//                  deleted in cleanup)
//   -c version=3   Name "mars" and Fail "true": onEvent raises, the update
//                  fails and rolls back to version 2
const cdk = require('aws-cdk-lib');
const lambda = require('aws-cdk-lib/aws-lambda');
const cr = require('aws-cdk-lib/custom-resources');

const app = new cdk.App();
const version = String(app.node.tryGetContext('version') || '1');
const stack = new cdk.Stack(app, 'ProviderFramework');

const onEvent = new lambda.Function(stack, 'OnEvent', {
  functionName: 'cdk-example-greeting-on-event',
  runtime: lambda.Runtime.PYTHON_3_12,
  handler: 'index.handler',
  code: lambda.Code.fromInline(`
def handler(event, context):
    props = event["ResourceProperties"]
    print(event["RequestType"], event.get("PhysicalResourceId"), props["Name"])
    if event["RequestType"] == "Delete":
        return {}
    if props.get("Fail") == "true":
        raise Exception("no greeting for " + props["Name"])
    return {"PhysicalResourceId": "greeting-" + props["Name"],
            "Data": {"Message": "Hello, " + props["Name"] + "!"}}
`),
});
const provider = new cr.Provider(stack, 'Provider', { onEventHandler: onEvent });

const name = { 1: 'world', 2: 'moon', 3: 'mars' }[version];
const greeting = new cdk.CustomResource(stack, 'Greeting', {
  serviceToken: provider.serviceToken,
  resourceType: 'Custom::Greeting',
  properties: version === '3' ? { Name: name, Fail: 'true' } : { Name: name },
});

new cdk.CfnOutput(stack, 'GreetingId', { value: greeting.ref });
new cdk.CfnOutput(stack, 'Message', { value: greeting.getAttString('Message') });
