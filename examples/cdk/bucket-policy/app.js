// An encrypted, private S3 bucket whose policy refuses non-TLS requests and
// lets one role read it. Version 2 (-c version=2) turns versioning on and
// adds a lifecycle rule.
const cdk = require('aws-cdk-lib');
const s3 = require('aws-cdk-lib/aws-s3');
const iam = require('aws-cdk-lib/aws-iam');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';
const stack = new cdk.Stack(app, 'BucketPolicy');

const bucket = new s3.Bucket(stack, 'Assets', {
  encryption: s3.BucketEncryption.S3_MANAGED,
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  versioned: v2,
  lifecycleRules: v2 ? [{ expiration: cdk.Duration.days(30), prefix: 'tmp/' }] : undefined,
});
const reader = new iam.Role(stack, 'Reader', { assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com') });
bucket.grantRead(reader);

new cdk.CfnOutput(stack, 'BucketName', { value: bucket.bucketName });
new cdk.CfnOutput(stack, 'BucketArn', { value: bucket.bucketArn });
new cdk.CfnOutput(stack, 'BucketDomain', { value: bucket.bucketRegionalDomainName });
