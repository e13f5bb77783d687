-- Contract-test fixture of AWS::EC2::NetworkAcl (../network_acl.lua): tags in
-- place, then another VPC (replacement).
return {
  setup = function(aws)
    return { vpc1 = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId,
             vpc2 = aws.ec2.CreateVpc({ CidrBlock = "10.1.0.0/16" }).Vpc.VpcId }
  end,
  create = function(v) return { VpcId = v.vpc1 } end,
  updates = {
    function(v) return { VpcId = v.vpc1, Tags = { { Key = "Name", Value = "private" } } } end,  -- none
    function(v) return { VpcId = v.vpc2 } end,                                                 -- replace
  },
  verify = function(aws, id, props, attributes)
    local acl = aws.ec2.DescribeNetworkAcls({ NetworkAclIds = { id } }).NetworkAcls[1]
    assert(acl.VpcId == props.VpcId, "VpcId is " .. acl.VpcId)
    assert(attributes.Id == id, "Id is " .. tostring(attributes.Id))
  end,
}
