-- Contract-test fixture of AWS::EC2::VPCEndpoint (../vpc_endpoint.lua): route
-- tables in place, then another service (replacement).
return {
  setup = function(aws)
    local vpc = aws.ec2.CreateVpc({ CidrBlock = "10.0.0.0/16" }).Vpc.VpcId
    return { vpc = vpc, rt1 = aws.ec2.CreateRouteTable({ VpcId = vpc }).RouteTable.RouteTableId,
             rt2 = aws.ec2.CreateRouteTable({ VpcId = vpc }).RouteTable.RouteTableId }
  end,
  create = function(v) return { VpcId = v.vpc, ServiceName = "com.amazonaws.us-east-1.s3", RouteTableIds = { v.rt1 } } end,
  updates = {
    function(v) return { VpcId = v.vpc, ServiceName = "com.amazonaws.us-east-1.s3", RouteTableIds = { v.rt1, v.rt2 } } end,
    function(v) return { VpcId = v.vpc, ServiceName = "com.amazonaws.us-east-1.dynamodb", RouteTableIds = { v.rt2 } } end,
  },
  verify = function(aws, id, props, attributes)
    local e = aws.ec2.DescribeVpcEndpoints({ VpcEndpointIds = { id } }).VpcEndpoints[1]
    assert(e.ServiceName == props.ServiceName, "ServiceName is " .. e.ServiceName)
    assert(#e.RouteTableIds == #props.RouteTableIds, #e.RouteTableIds .. " route tables")
    assert(attributes.Id == id, "Id is " .. tostring(attributes.Id))
  end,
}
