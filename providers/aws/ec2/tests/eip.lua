-- Contract-test fixture of AWS::EC2::EIP (../eip.lua): tags in place, then a
-- domain change (replacement).
return {
  create = { Domain = "vpc" },
  updates = {
    { Domain = "vpc", Tags = { { Key = "Name", Value = "nat" } } },  -- none
    { Domain = "standard" },                                         -- replace
  },
  verify = function(aws, id, props, attributes)
    local a = aws.ec2.DescribeAddresses({ PublicIps = { id } }).Addresses[1]
    assert(a.AllocationId == attributes.AllocationId, "AllocationId is " .. tostring(attributes.AllocationId))
    assert(a.Domain == props.Domain, "Domain is " .. tostring(a.Domain))
    assert(attributes.PublicIp == id, "PublicIp is " .. tostring(attributes.PublicIp))
  end,
}
