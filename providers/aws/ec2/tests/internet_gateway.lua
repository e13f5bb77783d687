-- Contract-test fixture of AWS::EC2::InternetGateway (../internet_gateway.lua):
-- tags in place (its only property), twice.
return {
  create = { Tags = { { Key = "Name", Value = "gw" } } },
  updates = {
    { Tags = { { Key = "Name", Value = "gw2" } } },                                      -- none
    { Tags = { { Key = "Name", Value = "gw3" }, { Key = "team", Value = "net" } } },     -- none
  },
  verify = function(aws, id, props, attributes)
    local g = aws.ec2.DescribeInternetGateways({ InternetGatewayIds = { id } }).InternetGateways[1]
    assert(attributes.InternetGatewayId == id, "InternetGatewayId is " .. tostring(attributes.InternetGatewayId))
    assert(g.Tags[1].Value == props.Tags[1].Value, "wrong tags")
  end,
}
