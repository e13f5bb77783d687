-- Contract-test fixture of AWS::EC2::Subnet (../subnet.lua): in a VPC made in
-- setup; public IPs and tags in place, then a new CIDR block (replacement).
return {
  setup = function(aws)
    return { vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId }
  end,
  create = function(v) return { VpcId = v.vpc, CidrBlock = "10.0.1.0/24" } end,
  updates = {
    { MapPublicIpOnLaunch = true, Tags = { { Key = "Name", Value = "public" } } },  -- none
    { CidrBlock = "10.0.2.0/24" },                                                  -- replace
  },
  verify = function(aws, id, props, attributes)
    local s = aws.ec2.DescribeSubnets({ SubnetIds = { id } }).Subnets[1]
    assert(s.CidrBlock == props.CidrBlock, "CidrBlock is " .. s.CidrBlock)
    assert(s.VpcId == props.VpcId and attributes.VpcId == props.VpcId, "wrong VPC")
    assert(s.MapPublicIpOnLaunch == (props.MapPublicIpOnLaunch == true), "MapPublicIpOnLaunch is " .. tostring(s.MapPublicIpOnLaunch))
    assert(attributes.AvailabilityZone == s.AvailabilityZone, "AvailabilityZone is " .. tostring(attributes.AvailabilityZone))
  end,
}
