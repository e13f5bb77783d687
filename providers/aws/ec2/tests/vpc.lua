-- Contract-test fixture of AWS::EC2::VPC (../vpc.lua): DNS settings and tags
-- in place, then a new CIDR block (replacement).
return {
  create = { CidrBlock = "10.0.0.0/16", Tags = { { Key = "Name", Value = "main" } } },
  updates = {
    { EnableDnsHostnames = true, Tags = { { Key = "Name", Value = "main2" } } },  -- none
    { CidrBlock = "10.1.0.0/16" },                                                 -- replace
  },
  verify = function(aws, id, props, attributes)
    local vpc = aws.ec2.DescribeVpcs({ VpcIds = { id } }).Vpcs[1]
    assert(vpc.CidrBlock == props.CidrBlock, "CidrBlock is " .. vpc.CidrBlock)
    assert(vpc.Tags[1].Value == props.Tags[1].Value, "wrong tags")
    local h = aws.ec2.DescribeVpcAttribute({ VpcId = id, Attribute = "enableDnsHostnames" }).EnableDnsHostnames.Value
    assert(h == (props.EnableDnsHostnames == true), "EnableDnsHostnames is " .. tostring(h))
    local sg = aws.ec2.DescribeSecurityGroups({ GroupIds = { attributes.DefaultSecurityGroup } }).SecurityGroups[1]
    assert(sg.GroupName == "default" and sg.VpcId == id, "DefaultSecurityGroup is not the VPC's default group")
  end,
}
