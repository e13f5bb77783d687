// A Lambda-backed custom resource (the provider framework's plain form: a
// CustomResource whose service token is the function's ARN) that hands out a
// value, and an SSM parameter holding it. The function has a fixed name,
// cdk-example-issuer: moonstack runs the handler custom/cdk-example-issuer.lua
// (tests/cdk/fixtures/custom-resource/custom/) instead of the Lambda code.
// Version 2 (-c version=2) changes the resource's Prefix (an Update request).
const cdk = require('aws-cdk-lib');
const lambda = require('aws-cdk-lib/aws-lambda');
const ssm = require('aws-cdk-lib/aws-ssm');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';
const stack = new cdk.Stack(app, 'CustomResource');

const issuer = new lambda.Function(stack, 'Issuer', {
  functionName: 'cdk-example-issuer',
  runtime: lambda.Runtime.NODEJS_22_X,
  handler: 'index.handler',
  code: lambda.Code.fromInline('exports.handler = async () => ({});'),
});
const ticket = new cdk.CustomResource(stack, 'Ticket', {
  serviceToken: issuer.functionArn,
  resourceType: 'Custom::Ticket',
  properties: { Prefix: v2 ? 'blue' : 'green' },
});
new ssm.StringParameter(stack, 'TicketValue', {
  parameterName: '/cdk-example/ticket',
  stringValue: ticket.getAttString('Value'),
});

new cdk.CfnOutput(stack, 'TicketId', { value: ticket.ref });
new cdk.CfnOutput(stack, 'TicketValueOut', { value: ticket.getAttString('Value') });
