-- Contract-test fixture of AWS::AppStream::Fleet: a stopped fleet; its
-- instance type in place (a stopped fleet takes any change), its name and type
-- (replacement). The update policy: tests/providers/test_aws_appstream.lua.
return {
  create = { Name = "contract", InstanceType = "stream.standard.small", ImageName = "AppStream-WinServer2019",
             ComputeCapacity = { DesiredInstances = 1 } },
  updates = {
    { InstanceType = "stream.standard.medium", DisplayName = "c" },  -- none
    { Name = "contract-renamed", FleetType = "ALWAYS_ON" },          -- replace
  },
  verify = function(aws, id, props, attributes)
    local f = aws.appstream.DescribeFleets({ Names = { id } }).Fleets[1]
    assert(f.InstanceType == props.InstanceType, "instance type " .. f.InstanceType)
    assert(attributes.Id == id, "Id")
  end,
}
