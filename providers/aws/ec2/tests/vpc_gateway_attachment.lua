-- Contract-test fixture of AWS::EC2::VPCGatewayAttachment (../vpc_gateway_attachment.lua):
-- another gateway in place, then another VPC (replacement; with another
-- gateway too: the new attachment is made while the old one still holds its
-- gateway, as on AWS, where a gateway attaches to one VPC).
return {
  setup = function(aws)
    local function vpc(cidr) return aws.ec2.CreateVpc({ CidrBlock = cidr }).Vpc.VpcId end
    local function igw() return aws.ec2.CreateInternetGateway({}).InternetGateway.InternetGatewayId end
    return { vpc1 = vpc("10.0.0.0/16"), vpc2 = vpc("10.1.0.0/16"), igw1 = igw(), igw2 = igw(), igw3 = igw() }
  end,
  create = function(v) return { VpcId = v.vpc1, InternetGatewayId = v.igw1 } end,
  updates = {
    function(v) return { VpcId = v.vpc1, InternetGatewayId = v.igw2 } end,  -- none
    function(v) return { VpcId = v.vpc2, InternetGatewayId = v.igw3 } end,  -- replace
  },
  verify = function(aws, id, props, attributes)
    local g = aws.ec2.DescribeInternetGateways({ InternetGatewayIds = { props.InternetGatewayId } }).InternetGateways[1]
    assert(g.Attachments[1] and g.Attachments[1].VpcId == props.VpcId, "the gateway is not attached to the VPC")
    assert(id == "IGW|" .. props.VpcId, "id is " .. id)
  end,
}
