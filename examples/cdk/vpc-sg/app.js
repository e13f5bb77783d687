// A VPC with public and private subnets over two zones, one NAT gateway, and
// a web security group. Version 2 (-c version=2) opens HTTPS as well as HTTP
// and tags the VPC.
const cdk = require('aws-cdk-lib');
const ec2 = require('aws-cdk-lib/aws-ec2');

const app = new cdk.App();
const v2 = app.node.tryGetContext('version') === '2';
const stack = new cdk.Stack(app, 'VpcSg');

const vpc = new ec2.Vpc(stack, 'Vpc', {
  ipAddresses: ec2.IpAddresses.cidr('10.10.0.0/16'),
  maxAzs: 2,
  natGateways: 1,
});
if (v2) cdk.Tags.of(vpc).add('tier', 'network');

const web = new ec2.SecurityGroup(stack, 'Web', { vpc, description: 'web servers', allowAllOutbound: true });
web.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(80), 'http');
if (v2) web.addIngressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'https');

new cdk.CfnOutput(stack, 'VpcId', { value: vpc.vpcId });
new cdk.CfnOutput(stack, 'WebGroupId', { value: web.securityGroupId });
new cdk.CfnOutput(stack, 'PrivateSubnet', { value: vpc.privateSubnets[0].subnetId });
