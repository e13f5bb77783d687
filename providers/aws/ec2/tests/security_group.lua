-- Contract-test fixture of AWS::EC2::SecurityGroup (../security_group.lua):
-- a VPC group; its rules and tags in place, then a new description
-- (replacement, with a new generated name).
local SSH = { IpProtocol = "tcp", FromPort = 22, ToPort = 22, CidrIp = "0.0.0.0/0" }
local HTTPS = { IpProtocol = "tcp", FromPort = 443, ToPort = 443, CidrIp = "10.0.0.0/8" }

return {
  setup = function(aws)
    return { vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId }
  end,
  create = function(v) return { GroupDescription = "web", VpcId = v.vpc, SecurityGroupIngress = { SSH } } end,
  updates = {
    { SecurityGroupIngress = { HTTPS }, SecurityGroupEgress = { HTTPS } },  -- none
    { Tags = { { Key = "Name", Value = "web" } } },                         -- none
    { GroupDescription = "web v2" },                                        -- replace
  },
  verify = function(aws, id, props, attributes)
    local g = aws.ec2.DescribeSecurityGroups({ GroupIds = { id } }).SecurityGroups[1]
    assert(g.GroupId == attributes.GroupId, "GroupId is " .. tostring(attributes.GroupId))
    assert(g.Description == props.GroupDescription, "Description is " .. g.Description)
    local want = props.SecurityGroupIngress or {}
    assert(#g.IpPermissions == #want, #g.IpPermissions .. " ingress permissions")
    for i, r in ipairs(want) do
      assert(g.IpPermissions[i].FromPort == r.FromPort and g.IpPermissions[i].IpRanges[1].CidrIp == r.CidrIp,
        "ingress rule " .. i .. " differs")
    end
    local egress = props.SecurityGroupEgress and props.SecurityGroupEgress[1] or { IpProtocol = "-1", CidrIp = "0.0.0.0/0" }
    assert(#g.IpPermissionsEgress == 1 and g.IpPermissionsEgress[1].IpRanges[1].CidrIp == egress.CidrIp, "egress differs")
  end,
}
