// cfn-response: the module AWS provides to inline (ZipFile) Node.js code of
// Lambda-backed custom resources, with its documented interface and
// behaviour ("cfn-response module", AWS CloudFormation User Guide): send()
// PUTs the response JSON to event.ResponseURL, logs it, then ends the
// invocation with context.done(). Written for moonstack (http or https by
// the URL's scheme).
'use strict';

exports.SUCCESS = 'SUCCESS';
exports.FAILED = 'FAILED';

exports.send = function (event, context, responseStatus, responseData, physicalResourceId, noEcho) {
  const responseBody = JSON.stringify({
    Status: responseStatus,
    Reason: 'See the details in CloudWatch Log Stream: ' + context.logStreamName,
    PhysicalResourceId: physicalResourceId || context.logStreamName,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    NoEcho: noEcho || false,
    Data: responseData,
  });
  console.log('Response body:\n', responseBody);
  const url = new URL(event.ResponseURL);
  const transport = url.protocol === 'https:' ? require('https') : require('http');
  const request = transport.request({
    hostname: url.hostname, port: url.port || (url.protocol === 'https:' ? 443 : 80),
    path: url.pathname + url.search, method: 'PUT',
    headers: { 'content-type': '', 'content-length': Buffer.byteLength(responseBody) },
  }, (response) => {
    console.log('Status code: ' + response.statusCode);
    console.log('Status message: ' + response.statusMessage);
    context.done();
  });
  request.on('error', (error) => {
    console.log('send(..) failed executing https.request(..): ' + error);
    context.done();
  });
  request.write(responseBody);
  request.end();
};
