// AwsCustomResource (aws-cdk-lib/custom-resources): SDK calls made by CDK's
// own Node.js function on create, update and delete — here against SSM in
// the simulated cloud. `Greeting` writes a parameter (putParameter on create
// and update, deleteParameter on delete); `ReadBack` reads it again
// (getParameter, after Greeting) and its response field Parameter.Value is
// the stack's output.
//   -c version=1   the parameter's value "hello"
//   -c version=2   "goodbye" (both resources updated: new SDK calls)
const cdk = require('aws-cdk-lib');
const cr = require('aws-cdk-lib/custom-resources');

const app = new cdk.App();
const version = String(app.node.tryGetContext('version') || '1');
const stack = new cdk.Stack(app, 'AwsCustomResource');

const name = '/moonstack/aws-custom-resource/greeting';
const value = version === '2' ? 'goodbye' : 'hello';
const put = {
  service: 'SSM',
  action: 'putParameter',
  parameters: { Name: name, Value: value, Type: 'String', Overwrite: true },
  physicalResourceId: cr.PhysicalResourceId.of('greeting-parameter'),
};
const greeting = new cr.AwsCustomResource(stack, 'Greeting', {
  onCreate: put,
  onUpdate: put,
  onDelete: { service: 'SSM', action: 'deleteParameter', parameters: { Name: name } },
  policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: cr.AwsCustomResourcePolicy.ANY_RESOURCE }),
  installLatestAwsSdk: false,
});

// WithDecryption differs between the versions only so that ReadBack's
// properties change too: an update, so its getParameter runs again.
const get = {
  service: 'SSM',
  action: 'getParameter',
  parameters: { Name: name, WithDecryption: version === '2' },
  physicalResourceId: cr.PhysicalResourceId.fromResponse('Parameter.Name'),
};
const readBack = new cr.AwsCustomResource(stack, 'ReadBack', {
  onCreate: get,
  onUpdate: get,
  policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: cr.AwsCustomResourcePolicy.ANY_RESOURCE }),
  installLatestAwsSdk: false,
});
readBack.node.addDependency(greeting);

new cdk.CfnOutput(stack, 'Value', { value: readBack.getResponseField('Parameter.Value') });
