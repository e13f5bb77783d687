-- lib.resource_formats: the data lib.resource_identity reads — which
-- property `Ref` returns, each service's ARN format, and the shapes of the
-- names, IDs and attributes AWS makes up — for the registry types that have
-- no provider of their own. Data only; the rules that apply it are in
-- lib/resource_identity.lua.
--
-- A format is text with placeholders, filled per resource:
--   {region} {account}     the resource's
--   {name}                 its name (the name property's value, or generated)
--   {lower:N} {upper:N} {alnum:N} {hex:N} {HEX:N} {digits:N} {base32:N}
--                          N random characters: lowercase letters and
--                          digits, capitals and digits, both cases, hex,
--                          uppercase hex, digits, capitals and 2-7
--   {uuid}                 a random UUID
-- A random placeholder is drawn once per resource: the same text in two
-- formats of one resource is the same value (an ALB's ARN and its
-- LoadBalancerFullName share "{hex:16}"); a third part tells draws of the
-- same kind apart ("{lower:10:root}"). A format may also be a list of
-- formats (a list attribute) or a function(m) given the resource's maker
-- (lib.resource_identity: m.ctx, m.props, m.name, m:fill(format)).
--
-- Sources: each type's "Return values" section in the CloudFormation User
-- Guide's resource reference (the Ref text and Fn::GetAtt examples quoted
-- below), the Service Authorization Reference ("Resource types defined by
-- <service>") for ARNs, and the AWS General Reference's endpoint pages for
-- the load balancers' hosted zone IDs.

local cidr = require("sim.ec2.cidr")
local sim = require("sim")

local F = {}

-- `Ref` is the primary identifier for most registry types ("When you pass
-- the logical ID of this resource to the intrinsic Ref function, Ref
-- returns ..."). These return another property.
F.REF_PROPERTY = {
  ["AWS::EC2::EIP"] = "PublicIp",            -- primaryIdentifier PublicIp + AllocationId
  ["AWS::Events::Rule"] = "Name",            -- "the rule name"; primaryIdentifier is Arn
  ["AWS::Lambda::Permission"] = "Id",        -- primaryIdentifier FunctionName + Id
  ["AWS::Lambda::Version"] = "FunctionArn",  -- "the ARN of the version"
  ["AWS::SNS::Subscription"] = "Arn",
  ["AWS::ApiGateway::Stage"] = "StageName",  -- primaryIdentifier RestApiId + StageName
  ["AWS::ApiGateway::Resource"] = "ResourceId",
  ["AWS::ApiGateway::Deployment"] = "DeploymentId",
  ["AWS::Cognito::UserPoolClient"] = "ClientId",  -- "the ID of the Amazon Cognito user pool client"
  ["AWS::ElasticLoadBalancing::LoadBalancer"] = "LoadBalancerName",  -- "the name of the load balancer"
  ["AWS::Route53::RecordSet"] = "Name",      -- "the domain name of the record"
  ["AWS::Cognito::UserPoolDomain"] = "Domain",  -- primaryIdentifier UserPoolId + Domain
  ["AWS::AppSync::GraphQLApi"] = "Arn",      -- "arn:aws:appsync:us-east-1:123456789012:apis/graphqlapiid"
  ["AWS::DocDB::DBCluster"] = "DBClusterIdentifier",  -- primaryIdentifier Id
}

-- The property that names a resource, where the catalog finds none (its
-- rule wants a create-only <Resource>Name or Name: a CodeCommit repository
-- can be renamed; a cluster's identifier has another spelling).
F.NAME_PROPERTY = {
  ["AWS::CodeCommit::Repository"] = "RepositoryName",
  ["AWS::DocDB::DBCluster"] = "DBClusterIdentifier",
  ["AWS::Neptune::DBCluster"] = "DBClusterIdentifier",
}

-- The longest name AWS takes where the registry schema gives no maxLength:
-- Elastic Load Balancing's names are at most 32 characters ("This name must
-- be unique per region per account, can have a maximum of 32 characters").
F.NAME_MAX = {
  ["AWS::ElasticLoadBalancingV2::LoadBalancer"] = 32,
  ["AWS::ElasticLoadBalancingV2::TargetGroup"] = 32,
  ["AWS::ElasticLoadBalancing::LoadBalancer"] = 32,
}

-- Types whose names AWS keeps in lowercase, given or generated ("The DB
-- instance identifier is stored as a lowercase string"; Redshift's cluster
-- identifiers "must contain only lowercase characters").
F.LOWERCASE_NAMES = {
  ["AWS::RDS::DBInstance"] = true, ["AWS::RDS::DBCluster"] = true,
  ["AWS::RDS::DBSubnetGroup"] = true, ["AWS::RDS::DBParameterGroup"] = true,
  ["AWS::RDS::DBClusterParameterGroup"] = true, ["AWS::RDS::OptionGroup"] = true,
  ["AWS::Redshift::Cluster"] = true, ["AWS::DocDB::DBCluster"] = true, ["AWS::Neptune::DBCluster"] = true,
}

-- Types whose Ref is an EC2-style "<prefix>-0" + 16 hex ID.
F.EC2_PREFIX = {
  ["AWS::EC2::RouteTable"] = "rtb", ["AWS::EC2::InternetGateway"] = "igw",
  ["AWS::EC2::EgressOnlyInternetGateway"] = "eigw", ["AWS::EC2::NatGateway"] = "nat",
  ["AWS::EC2::NetworkAcl"] = "acl", ["AWS::EC2::NetworkInterface"] = "eni",
  ["AWS::EC2::VPCEndpoint"] = "vpce", ["AWS::EC2::SubnetRouteTableAssociation"] = "rtbassoc",
  ["AWS::EC2::SubnetNetworkAclAssociation"] = "aclassoc", ["AWS::EC2::TransitGateway"] = "tgw",
  ["AWS::EC2::VPNGateway"] = "vgw", ["AWS::EC2::CustomerGateway"] = "cgw",
  ["AWS::EC2::LaunchTemplate"] = "lt", ["AWS::EC2::Volume"] = "vol",
  ["AWS::EC2::DHCPOptions"] = "dopt", ["AWS::EC2::VPCPeeringConnection"] = "pcx",
  ["AWS::EC2::FlowLog"] = "fl", ["AWS::EC2::PrefixList"] = "pl",
  ["AWS::EC2::NetworkInterfaceAttachment"] = "attach", ["AWS::EC2::VPNConnection"] = "vpn",
}

-- The hosted zone of each region's Application and Classic Load Balancers
-- (ALB) and Network Load Balancers (NLB), for alias records: the General
-- Reference's "Elastic Load Balancing endpoints and quotas".
F.ELB_HOSTED_ZONE = {
  ["us-east-1"] = { alb = "Z35SXDOTRQ7X7K", nlb = "Z26RNL4JYFTOTI" },
  ["us-east-2"] = { alb = "Z3AADJGX6KTTL2", nlb = "ZLMOA37VPKANP" },
  ["us-west-1"] = { alb = "Z368ELLRRE2KJ0", nlb = "Z24FKFUX50B4VW" },
  ["us-west-2"] = { alb = "Z1H1FL5HABSF5", nlb = "Z18D5FSROUN65G" },
  ["eu-west-1"] = { alb = "Z32O12XQLNTSW2", nlb = "Z2IFOLAFXWLO4F" },
  ["eu-central-1"] = { alb = "Z215JYRZR1TBD5", nlb = "Z3F0SRJ5LGBH90" },
  ["ap-southeast-1"] = { alb = "Z1LMS91P8CMLE5", nlb = "ZKVM4W9LS7TM" },
  ["ap-southeast-2"] = { alb = "Z1GM3OXH4ZPM65", nlb = "ZCT6FZBF4DROD" },
  ["ap-northeast-1"] = { alb = "Z14GRHDCWA56QT", nlb = "Z31USIVHYNEOWT" },
}

-- API Gateway's hosted zone in each region, for a custom domain's regional
-- endpoint (the General Reference's "Amazon API Gateway endpoints and
-- quotas"). An edge-optimized one is CloudFront's, Z2FDTNDATAQYW2 in all
-- regions ("The only valid value is Z2FDTNDATAQYW2 for all regions").
F.API_GATEWAY_HOSTED_ZONE = {
  ["us-east-1"] = "Z1UJRXOUMOOFQ8", ["us-east-2"] = "ZOJJZC49E0EPZ", ["us-west-1"] = "Z2MUQ32089INYE",
  ["us-west-2"] = "Z2OJLYMUO9EFXC", ["eu-west-1"] = "ZLY8HYME6SFDD", ["eu-central-1"] = "Z1U9ULNL0V5AJ3",
  ["ap-southeast-1"] = "ZL327KTPIQFUL", ["ap-southeast-2"] = "Z2RPCDW04V8134", ["ap-northeast-1"] = "Z1YSHQZHG15GKL",
}

local function api_gateway_zone(m)
  return F.API_GATEWAY_HOSTED_ZONE[m.ctx.region or "us-east-1"] or F.API_GATEWAY_HOSTED_ZONE["us-east-1"]
end

local function cluster_endpoint(service, ro)
  return ("{name}.cluster-" .. (ro and "ro-" or "") .. "{lower:12}.{region}." .. service .. ".amazonaws.com")
end

-- "app", "net" or "gwy": an ELBv2 load balancer's kind, in its ARN and name.
local function elb_kind(props)
  local t = props.Type
  if t == "network" then return "net" end
  if t == "gateway" then return "gwy" end
  return "app"
end

local function elb_zone(m, kind)
  local zones = F.ELB_HOSTED_ZONE[m.ctx.region or "us-east-1"] or F.ELB_HOSTED_ZONE["us-east-1"]
  return kind == "net" and zones.nlb or zones.alb
end

local function internal(props) return props.Scheme == "internal" and "internal-" or "" end

-- An ALB's or a Classic Load Balancer's DNS name: its name and a number of
-- 8 to 10 digits ("my-load-balancer-424835706",
-- "internal-ELB-DEVOPSTEAM13-10252911", "...-1198556003").
local function elb_dns(m)
  local number = tostring(10000000 + sim.new_id("int", 2147483647 - 10000000))
  return internal(m.props) .. m.name .. "-" .. number .. m:fill(".{region}.elb.amazonaws.com")
end

-- An address of subnet `subnet_id`'s block that AWS does not reserve (its
-- first four and its last), or nil when the subnet is not found.
local function address_in_subnet(m, subnet_id)
  local network = require("sim.ec2.network")
  local subnet = require("sim.world").with_account(m.ctx.account, network.subnet, subnet_id)
  local block = subnet and cidr.parse(subnet.CidrBlock)
  if not block or block.size < 8 then return nil end
  return cidr.ip_text(block.first + 4 + sim.new_id("int", block.size - 5))
end

-- The next revision of ECS task definition family `family` in the
-- resource's account and region: AWS numbers a family's revisions from 1
-- and never reuses one (a replaced task definition is a new revision).
local function next_revision(m, family)
  local world = require("moonstack.world")
  local kind = require("sim.world").kind_in(m.ctx.account, "generic.revisions")  -- per account, as generic.lua's records
  local key = (m.ctx.region or "") .. "/" .. family
  local counter = world.get(kind, key) or { Last = 0 }
  counter.Last = counter.Last + 1
  world.put(kind, key, counter, { live = false })
  return counter.Last
end

-- A DB engine's default port, as Endpoint.Port gives it (a string).
local function db_port(m)
  if m.props.Port ~= nil then return tostring(m.props.Port) end
  local engine = tostring(m.props.Engine or "")
  if engine:find("postgres", 1, true) then return "5432" end
  if engine:find("oracle", 1, true) then return "1521" end
  if engine:find("sqlserver", 1, true) then return "1433" end
  if engine:find("db2", 1, true) then return "50000" end
  return "3306"  -- mysql, mariadb, aurora-mysql
end

-- The ARN of something below an ELBv2 ARN: `arn` with its resource type
-- `from` ("loadbalancer") made `to` ("listener") and a new ID appended,
-- or nil when `arn` is not such an ARN.
local function below_arn(arn, from, to, m)
  if type(arn) ~= "string" then return nil end
  local head, tail = arn:match("^(arn:[^:]*:elasticloadbalancing:[^:]*:[^:]*:)" .. from .. "(/.+)$")
  if not head then return nil end
  return head .. to .. tail .. m:fill("/{hex:16}")
end

-- ARN formats. Source: the Service Authorization Reference (e.g. Amazon
-- S3: arn:${Partition}:s3:::${BucketName}; Amazon SQS:
-- arn:${Partition}:sqs:${Region}:${Account}:${QueueName}; AWS Lambda:
-- arn:${Partition}:lambda:${Region}:${Account}:function:${FunctionName}),
-- with the `Arn` return value each type's reference page shows (a log
-- group's ends ":*"). A type not listed gets
-- arn:aws:<service>:<region>:<account>:<resource>/<name>.
F.ARN_FORMATS = {
  ["AWS::S3::Bucket"] = "arn:aws:s3:::{name}",
  ["AWS::SQS::Queue"] = "arn:aws:sqs:{region}:{account}:{name}",
  ["AWS::SNS::Topic"] = "arn:aws:sns:{region}:{account}:{name}",
  ["AWS::Lambda::Function"] = "arn:aws:lambda:{region}:{account}:function:{name}",
  ["AWS::DynamoDB::Table"] = "arn:aws:dynamodb:{region}:{account}:table/{name}",
  ["AWS::Logs::LogGroup"] = "arn:aws:logs:{region}:{account}:log-group:{name}:*",
  ["AWS::IAM::Role"] = "arn:aws:iam::{account}:role/{name}",
  ["AWS::IAM::User"] = "arn:aws:iam::{account}:user/{name}",
  ["AWS::IAM::ManagedPolicy"] = "arn:aws:iam::{account}:policy/{name}",
  ["AWS::Events::Rule"] = "arn:aws:events:{region}:{account}:rule/{name}",
  ["AWS::Events::EventBus"] = "arn:aws:events:{region}:{account}:event-bus/{name}",
  ["AWS::StepFunctions::StateMachine"] = "arn:aws:states:{region}:{account}:stateMachine:{name}",
  ["AWS::StepFunctions::Activity"] = "arn:aws:states:{region}:{account}:activity:{name}",
  ["AWS::Kinesis::Stream"] = "arn:aws:kinesis:{region}:{account}:stream/{name}",
  ["AWS::KinesisFirehose::DeliveryStream"] = "arn:aws:firehose:{region}:{account}:deliverystream/{name}",
  ["AWS::ECS::Cluster"] = "arn:aws:ecs:{region}:{account}:cluster/{name}",
  ["AWS::ECR::Repository"] = "arn:aws:ecr:{region}:{account}:repository/{name}",
  ["AWS::CodeBuild::Project"] = "arn:aws:codebuild:{region}:{account}:project/{name}",
  ["AWS::KMS::Key"] = "arn:aws:kms:{region}:{account}:key/{name}",
  ["AWS::SSM::Parameter"] = "arn:aws:ssm:{region}:{account}:parameter/{name}",
  ["AWS::CloudWatch::Alarm"] = "arn:aws:cloudwatch:{region}:{account}:alarm:{name}",
  ["AWS::EKS::Cluster"] = "arn:aws:eks:{region}:{account}:cluster/{name}",
  ["AWS::ApiGateway::RestApi"] = "arn:aws:apigateway:{region}::/restapis/{lower:10}",
  ["AWS::Cognito::UserPool"] = "arn:aws:cognito-idp:{region}:{account}:userpool/{region}_{alnum:9}",
  ["AWS::AppSync::GraphQLApi"] = "arn:aws:appsync:{region}:{account}:apis/{lower:26}",
  ["AWS::EFS::FileSystem"] = "arn:aws:elasticfilesystem:{region}:{account}:file-system/fs-{hex:17}",
  ["AWS::EFS::AccessPoint"] = "arn:aws:elasticfilesystem:{region}:{account}:access-point/fsap-{hex:17}",
  ["AWS::CertificateManager::Certificate"] = "arn:aws:acm:{region}:{account}:certificate/{uuid}",
  ["AWS::CloudFront::Function"] = "arn:aws:cloudfront::{account}:function/{name}",
  ["AWS::CodeCommit::Repository"] = "arn:aws:codecommit:{region}:{account}:{name}",
  -- "arn:aws:kafka:us-east-1:123456789012:cluster/myCluster/abcd1234-abcd-dcba-4321-a1b2abcd9f9f-2"
  ["AWS::MSK::Cluster"] = "arn:aws:kafka:{region}:{account}:cluster/{name}/{uuid}-1",
  ["AWS::OpenSearchServerless::Collection"] = "arn:aws:aoss:{region}:{account}:collection/{lower:20}",
  ["AWS::RDS::DBInstance"] = "arn:aws:rds:{region}:{account}:db:{name}",
  ["AWS::RDS::DBCluster"] = "arn:aws:rds:{region}:{account}:cluster:{name}",
  ["AWS::ElasticLoadBalancingV2::LoadBalancer"] = function(m)
    return m:fill("arn:aws:elasticloadbalancing:{region}:{account}:loadbalancer/" .. elb_kind(m.props)
      .. "/{name}/{hex:16}")
  end,
  ["AWS::ElasticLoadBalancingV2::TargetGroup"] = "arn:aws:elasticloadbalancing:{region}:{account}:targetgroup/{name}/{hex:16}",
}

-- Attributes (and identifiers) AWS makes up, by type. A type's Ref property
-- listed here takes its value from here. Examples from the reference pages:
-- S3 DomainName "amzn-s3-demo-bucket.s3.amazonaws.com"; SQS QueueUrl
-- "https://sqs.us-east-2.amazonaws.com/123456789012/MyQueue"; ECR
-- RepositoryUri "123456789012.dkr.ecr.us-west-2.amazonaws.com/test-repository";
-- RestApi "a1bcdef2gh", RootResourceId "a0bc123d4e"; CloudFront DomainName
-- "d111111abcdef8.cloudfront.net", distribution ID "E2QWRUHAPOMQZL"; ALB
-- DNSName "my-load-balancer-424835706.us-west-2.elb.amazonaws.com"; RDS
-- Endpoint.Address "mystack-mydb-1apw1j4phylrk.cg034hpkmmjt.us-east-2.rds.amazonaws.com";
-- Cognito ProviderURL "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_123456789".
F.ATTRIBUTE_FORMATS = {
  ["AWS::S3::Bucket"] = {
    DomainName = "{name}.s3.amazonaws.com",
    RegionalDomainName = "{name}.s3.{region}.amazonaws.com",
    DualStackDomainName = "{name}.s3.dualstack.{region}.amazonaws.com",
    WebsiteURL = "http://{name}.s3-website-{region}.amazonaws.com",
  },
  ["AWS::SQS::Queue"] = { QueueUrl = "https://sqs.{region}.amazonaws.com/{account}/{name}" },
  ["AWS::ECR::Repository"] = { RepositoryUri = "{account}.dkr.ecr.{region}.amazonaws.com/{name}" },

  ["AWS::ApiGateway::RestApi"] = { RestApiId = "{lower:10}", RootResourceId = "{lower:10:root}" },
  ["AWS::ApiGateway::Resource"] = { ResourceId = "{lower:6}" },
  ["AWS::ApiGateway::Deployment"] = { DeploymentId = "{lower:6}" },
  ["AWS::ApiGateway::Authorizer"] = { AuthorizerId = "{lower:6}" },
  ["AWS::ApiGateway::ApiKey"] = { APIKeyId = "{lower:10}" },
  ["AWS::ApiGateway::UsagePlan"] = { Id = "{lower:6}" },
  ["AWS::ApiGateway::RequestValidator"] = { RequestValidatorId = "{lower:6}" },
  ["AWS::ApiGatewayV2::Api"] = {
    ApiId = "{lower:10}",
    ApiEndpoint = function(m)
      local scheme = m.props.ProtocolType == "WEBSOCKET" and "wss" or "https"
      return m:fill(scheme .. "://{lower:10}.execute-api.{region}.amazonaws.com")
    end,
  },
  ["AWS::ApiGatewayV2::Integration"] = { IntegrationId = "{lower:7}" },
  ["AWS::ApiGatewayV2::Route"] = { RouteId = "{lower:7}" },
  ["AWS::ApiGatewayV2::Authorizer"] = { AuthorizerId = "{lower:6}" },

  -- "d111111abcdef8.cloudfront.net"; a regional one "d-x4jexiktj7.execute-api.us-east-2.amazonaws.com".
  ["AWS::ApiGateway::DomainName"] = {
    DistributionDomainName = "d{lower:13}.cloudfront.net",
    DistributionHostedZoneId = "Z2FDTNDATAQYW2",
    RegionalDomainName = "d-{lower:10}.execute-api.{region}.amazonaws.com",
    RegionalHostedZoneId = api_gateway_zone,
  },
  ["AWS::ApiGatewayV2::DomainName"] = {
    RegionalDomainName = "d-{lower:10}.execute-api.{region}.amazonaws.com",
    RegionalHostedZoneId = api_gateway_zone,
  },

  ["AWS::CloudFront::Function"] = {
    FunctionARN = "arn:aws:cloudfront::{account}:function/{name}",
    ["FunctionMetadata.FunctionARN"] = "arn:aws:cloudfront::{account}:function/{name}",
    Stage = function(m) return m.props.AutoPublish == true and "LIVE" or "DEVELOPMENT" end,
  },
  ["AWS::CloudFront::Distribution"] = { Id = "E{upper:13}", DomainName = "d{lower:13}.cloudfront.net" },
  ["AWS::CloudFront::CloudFrontOriginAccessIdentity"] = { Id = "E{upper:13}", S3CanonicalUserId = "{hex:96}" },
  ["AWS::CloudFront::OriginAccessControl"] = { Id = "E{upper:13}" },
  ["AWS::CloudFront::CachePolicy"] = { Id = "{uuid}" },
  ["AWS::CloudFront::OriginRequestPolicy"] = { Id = "{uuid}" },
  ["AWS::CloudFront::ResponseHeadersPolicy"] = { Id = "{uuid}" },

  ["AWS::Cognito::UserPool"] = {
    UserPoolId = "{region}_{alnum:9}",
    ProviderName = "cognito-idp.{region}.amazonaws.com/{region}_{alnum:9}",
    ProviderURL = "https://cognito-idp.{region}.amazonaws.com/{region}_{alnum:9}",
  },
  ["AWS::Cognito::UserPoolClient"] = { ClientId = "{lower:26}" },
  ["AWS::Cognito::IdentityPool"] = { Id = "{region}:{uuid}" },
  ["AWS::Cognito::UserPoolDomain"] = { CloudFrontDistribution = "d{lower:13}.cloudfront.net" },

  ["AWS::ElasticLoadBalancingV2::LoadBalancer"] = {
    LoadBalancerName = "{name}",
    LoadBalancerFullName = function(m) return m:fill(elb_kind(m.props) .. "/{name}/{hex:16}") end,
    DNSName = function(m)
      if elb_kind(m.props) == "app" then return elb_dns(m) end
      return m:fill(internal(m.props) .. "{name}-{hex:16}.elb.{region}.amazonaws.com")
    end,
    CanonicalHostedZoneID = function(m) return elb_zone(m, elb_kind(m.props)) end,
  },
  ["AWS::ElasticLoadBalancingV2::TargetGroup"] = {
    TargetGroupName = "{name}",
    TargetGroupFullName = "targetgroup/{name}/{hex:16}",
  },
  ["AWS::ElasticLoadBalancingV2::Listener"] = {
    ListenerArn = function(m) return below_arn(m.props.LoadBalancerArn, "loadbalancer", "listener", m) end,
  },
  ["AWS::ElasticLoadBalancingV2::ListenerRule"] = {
    RuleArn = function(m) return below_arn(m.props.ListenerArn, "listener", "listener-rule", m) end,
  },
  -- In a VPC, SourceSecurityGroup is the load balancer's own group and its
  -- account ({"OwnerAlias": "123456789012", "GroupName": "my-elb-sg"});
  -- "amazon-elb" / "amazon-elb-sg" were EC2-Classic's.
  ["AWS::ElasticLoadBalancing::LoadBalancer"] = {
    DNSName = elb_dns,
    CanonicalHostedZoneName = function(m) return m:attribute("DNSName") end,
    CanonicalHostedZoneNameID = function(m) return elb_zone(m, "alb") end,
    ["SourceSecurityGroup.OwnerAlias"] = "{account}",
    ["SourceSecurityGroup.GroupName"] = function(m)
      local first = type(m.props.SecurityGroups) == "table" and m.props.SecurityGroups[1]
      local groups = require("sim.ec2.groups")
      local g = type(first) == "string" and require("sim.world").with_account(m.ctx.account, groups.group, first)
      return g and g.GroupName or "default"
    end,
  },

  ["AWS::RDS::DBInstance"] = {
    ["Endpoint.Address"] = "{name}.{lower:12}.{region}.rds.amazonaws.com",
    ["Endpoint.Port"] = db_port,
    DbiResourceId = "db-{base32:26}",  -- "db-4ZSFL2LGV5E5S6XXS6OMJSEB24"
  },
  ["AWS::RDS::DBCluster"] = {
    ["Endpoint.Address"] = "{name}.cluster-{lower:12}.{region}.rds.amazonaws.com",
    ["ReadEndpoint.Address"] = "{name}.cluster-ro-{lower:12}.{region}.rds.amazonaws.com",
    ["Endpoint.Port"] = db_port,
    DBClusterResourceId = "cluster-{base32:26}",
  },
  -- "sample-cluster.cluster-cozrlsfrcjoc.us-east-1.docdb.amazonaws.com", port 27017.
  ["AWS::DocDB::DBCluster"] = {
    Endpoint = cluster_endpoint("docdb"),
    ReadEndpoint = cluster_endpoint("docdb", true),
    Port = function(m) return tostring(m.props.Port or 27017) end,
    ClusterResourceId = "cluster-{base32:26}",
  },
  -- "neptune-dev.cluster-cz7fmvtxsrei.us-east-1.neptune.amazonaws.com", port 8182.
  ["AWS::Neptune::DBCluster"] = {
    Endpoint = cluster_endpoint("neptune"),
    ReadEndpoint = cluster_endpoint("neptune", true),
    Port = function(m) return tostring(m.props.DBPort or 8182) end,
    ClusterResourceId = "cluster-{base32:26}",
  },
  ["AWS::Redshift::Cluster"] = {
    ["Endpoint.Address"] = "{name}.{lower:12}.{region}.redshift.amazonaws.com",
    ["Endpoint.Port"] = function(m) return tostring(m.props.Port or 5439) end,
  },

  ["AWS::Route53::HostedZone"] = {
    Id = "Z{upper:20}",
    -- "ns-2048.awsdns-64.com", ".net", ".org", ".co.uk": a server 0-2047 of a set 00-63.
    NameServers = function()
      local out = {}
      for i, tld in ipairs({ "com", "net", "org", "co.uk" }) do
        out[i] = "ns-" .. sim.new_id("int", 2048) .. ".awsdns-" .. string.format("%02d", sim.new_id("int", 64)) .. "." .. tld
      end
      return out
    end,
  },
  ["AWS::CertificateManager::Certificate"] = { Id = "arn:aws:acm:{region}:{account}:certificate/{uuid}" },

  -- An address of the subnet's block that AWS does not reserve (its first
  -- four and its last), unless the template gives one.
  ["AWS::EC2::NetworkInterface"] = {
    PrimaryPrivateIpAddress = function(m)
      if type(m.props.PrivateIpAddress) == "string" then return m.props.PrivateIpAddress end
      return address_in_subnet(m, m.props.SubnetId)
    end,
  },

  ["AWS::EFS::FileSystem"] = { FileSystemId = "fs-{hex:17}" },
  ["AWS::EFS::AccessPoint"] = { AccessPointId = "fsap-{hex:17}" },
  ["AWS::EFS::MountTarget"] = {
    Id = "fsmt-{hex:17}",
    IpAddress = function(m)
      if type(m.props.IpAddress) == "string" then return m.props.IpAddress end
      return address_in_subnet(m, m.props.SubnetId)
    end,
  },

  ["AWS::AppSync::GraphQLApi"] = {
    ApiId = "{lower:26}",
    GraphQLUrl = "https://{lower:26:dns}.appsync-api.{region}.amazonaws.com/graphql",
    GraphQLDns = "{lower:26:dns}.appsync-api.{region}.amazonaws.com",
    RealtimeUrl = "wss://{lower:26:dns}.appsync-realtime-api.{region}.amazonaws.com/graphql",
    RealtimeDns = "{lower:26:dns}.appsync-realtime-api.{region}.amazonaws.com",
  },

  -- "arn:aws:ecs:us-west-2:123456789012:task-definition/TaskDefinitionFamily:1"
  ["AWS::ECS::TaskDefinition"] = {
    TaskDefinitionArn = function(m)
      local family = type(m.props.Family) == "string" and m.props.Family ~= "" and m.props.Family or m.name
      return m:fill("arn:aws:ecs:{region}:{account}:task-definition/") .. family .. ":" .. next_revision(m, family)
    end,
  },
  ["AWS::ECS::Service"] = {
    ServiceArn = function(m)
      local cluster = m.props.Cluster
      cluster = type(cluster) == "string" and (cluster:match("cluster/([^/]+)$") or cluster) or "default"
      return m:fill("arn:aws:ecs:{region}:{account}:service/") .. cluster .. m:fill("/{name}")
    end,
    Name = "{name}",
  },
  -- Ref "returns the repository ID": "f7579e13-b83e-4027-aaef-650c0EXAMPLE";
  -- "https://git-codecommit.us-east-1.amazonaws.com/v1/repos/MyDemoRepo".
  ["AWS::CodeCommit::Repository"] = {
    Id = "{uuid}",
    Name = "{name}",
    CloneUrlHttp = "https://git-codecommit.{region}.amazonaws.com/v1/repos/{name}",
    CloneUrlSsh = "ssh://git-codecommit.{region}.amazonaws.com/v1/repos/{name}",
  },
  -- "https://07tjusf2h91cunochc.us-east-1.aoss.amazonaws.com" and ".../_dashboards".
  ["AWS::OpenSearchServerless::Collection"] = {
    Id = "{lower:20}",
    CollectionEndpoint = "https://{lower:20}.{region}.aoss.amazonaws.com",
    DashboardEndpoint = "https://{lower:20}.{region}.aoss.amazonaws.com/_dashboards",
  },
  ["AWS::EKS::Cluster"] = { Endpoint = "https://{HEX:32}.gr7.{region}.eks.amazonaws.com" },
}

return F
