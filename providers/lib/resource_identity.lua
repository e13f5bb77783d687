-- lib.resource_identity: what a resource of a registry type is called and
-- how AWS refers to it, from data: its name (the schema's name property, or
-- CloudFormation's generated name cut to the schema's rules), its ARN (a
-- table of each service's real format), the values of attributes AWS
-- derives from the name (an SQS queue's URL, an S3 bucket's domain names),
-- and which property `Ref` returns.
--
-- Used by lib.generic; a hand-written provider may use it too.

local names = require("sim.cloudformation_names")
local sim = require("sim")
local validate = require("lib.schema_validate")

local M = {}

-- `Ref` is the primary identifier for most registry types. These return
-- another property. Source: each type's "Return values" section in the
-- CloudFormation User Guide's resource reference ("When you pass the
-- logical ID of this resource to the intrinsic Ref function, Ref returns ...").
M.REF_PROPERTY = {
  ["AWS::EC2::EIP"] = "PublicIp",            -- primaryIdentifier PublicIp + AllocationId
  ["AWS::Events::Rule"] = "Name",            -- "the rule name"; primaryIdentifier is Arn
  ["AWS::Lambda::Permission"] = "Id",        -- primaryIdentifier FunctionName + Id
  ["AWS::Lambda::Version"] = "FunctionArn",  -- "the ARN of the version"
  ["AWS::SNS::Subscription"] = "Arn",
  ["AWS::ApiGateway::Stage"] = "StageName",  -- primaryIdentifier RestApiId + StageName
  ["AWS::ApiGateway::Resource"] = "ResourceId",
  ["AWS::ApiGateway::Deployment"] = "DeploymentId",
}

-- ARN formats, {region} {account} {name} filled in. Source: the Service
-- Authorization Reference, "Resource types defined by <service>" (e.g.
-- Amazon S3: arn:${Partition}:s3:::${BucketName}; Amazon SQS:
-- arn:${Partition}:sqs:${Region}:${Account}:${QueueName}; AWS Lambda:
-- arn:${Partition}:lambda:${Region}:${Account}:function:${FunctionName}),
-- with the `Arn` return value each type's reference page shows (a log
-- group's ends ":*").
M.ARN_FORMATS = {
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
  ["AWS::Kinesis::Stream"] = "arn:aws:kinesis:{region}:{account}:stream/{name}",
  ["AWS::ECS::Cluster"] = "arn:aws:ecs:{region}:{account}:cluster/{name}",
  ["AWS::ECR::Repository"] = "arn:aws:ecr:{region}:{account}:repository/{name}",
  ["AWS::CodeBuild::Project"] = "arn:aws:codebuild:{region}:{account}:project/{name}",
  ["AWS::KMS::Key"] = "arn:aws:kms:{region}:{account}:key/{name}",
  ["AWS::SSM::Parameter"] = "arn:aws:ssm:{region}:{account}:parameter/{name}",
}

-- Attributes AWS derives from the name, by type. Source: each type's
-- "Return values" / Fn::GetAtt section (e.g. AWS::S3::Bucket DomainName
-- "amzn-s3-demo-bucket.s3.amazonaws.com"; AWS::SQS::Queue QueueUrl
-- "https://sqs.us-east-2.amazonaws.com/123456789012/MyQueue"; AWS::ECR::Repository
-- RepositoryUri "123456789012.dkr.ecr.us-west-2.amazonaws.com/test-repository").
M.ATTRIBUTE_FORMATS = {
  ["AWS::S3::Bucket"] = {
    DomainName = "{name}.s3.amazonaws.com",
    RegionalDomainName = "{name}.s3.{region}.amazonaws.com",
    DualStackDomainName = "{name}.s3.dualstack.{region}.amazonaws.com",
    WebsiteURL = "http://{name}.s3-website-{region}.amazonaws.com",
  },
  ["AWS::SQS::Queue"] = { QueueUrl = "https://sqs.{region}.amazonaws.com/{account}/{name}" },
  ["AWS::ECR::Repository"] = { RepositoryUri = "{account}.dkr.ecr.{region}.amazonaws.com/{name}" },
}

-- Types whose Ref is an EC2-style "<prefix>-0" + 16 hex ID.
M.EC2_PREFIX = {
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

-- The longest generated name when the schema gives no maxLength (the
-- resource-provider toolkit's default for physical names).
local DEFAULT_MAX_NAME = 64

local function fill(format, ctx, name)
  return (format:gsub("{(%w+)}", function(k)
    if k == "region" then return ctx.region or "us-east-1" end
    if k == "account" then return ctx.account or "123456789012" end
    if k == "name" then return name end
    return "{" .. k .. "}"
  end))
end

-- A name pattern that spells out lowercase letters and not capitals (S3's
-- "^([a-z0-9][a-z0-9.-]*[a-z0-9])?$", ECR's): read as text, since some
-- such patterns use what the regex engine cannot check (ECR's lookahead).
local function lowercase_only(pattern)
  if type(pattern) ~= "string" then return false end
  return pattern:find("a-z", 1, true) ~= nil and pattern:find("A-Z", 1, true) == nil
      and pattern:find("\\w", 1, true) == nil and pattern:find("(?i)", 1, true) == nil
end

---CloudFormation's generated name for a resource of the type with schema
---`schema` (nil: none): "<stack>-<logical>-<RANDOM>" cut to the name
---property's maxLength, lowercased when its pattern does not accept
---capitals (S3: at most 63, lowercase).
function M.generated_name(schema, ctx)
  local prop = schema and schema.nameProperty and schema.properties and schema.properties[schema.nameProperty]
  local max = (prop and tonumber(prop.maxLength)) or DEFAULT_MAX_NAME
  local name = names.physical(ctx.stack_name or "stack", ctx.logical_id or "Resource", max)
  if prop and (lowercase_only(prop.pattern) or #validate.errors({ properties = { N = prop } }, { N = name }) > 0) then
    name = name:lower()
  end
  return name
end

---The resource's name: the name property's value when the template sets
---it, else a generated one. Also the default physical ID of a type whose
---identifier is made up by AWS.
function M.name(type_name, schema, ctx, props)
  local prop = schema and schema.nameProperty
  if prop and type(props[prop]) == "string" and props[prop] ~= "" then return props[prop] end
  local prefix = M.EC2_PREFIX[type_name]
  if prefix and not prop then return sim.new_id("resource", prefix) end
  if type_name == "AWS::EC2::EIP" then  -- an EIP is known by its public address
    return "3." .. sim.new_id("int", 256) .. "." .. sim.new_id("int", 256) .. "." .. (sim.new_id("int", 254) + 1)
  end
  return M.generated_name(schema, ctx)
end

---The type's ARN for a resource called `name`.
function M.arn(type_name, ctx, name)
  local format = M.ARN_FORMATS[type_name]
  if format then return fill(format, ctx, name) end
  local service, resource = type_name:match("^%w+::(%w+)::(%w+)$")
  service, resource = (service or "service"):lower(), (resource or "resource"):lower()
  return fill("arn:aws:" .. service .. ":{region}:{account}:" .. resource .. "/{name}", ctx, name)
end

---The value of attribute `attr` AWS derives from the name, or nil.
function M.derived_attribute(type_name, ctx, name, attr)
  local formats = M.ATTRIBUTE_FORMATS[type_name]
  local format = formats and formats[attr]
  return format and fill(format, ctx, name) or nil
end

---The property whose value `Ref` returns: a documented exception, else the
---primary identifier (its first part when it has several).
function M.ref_property(type_name, schema)
  if M.REF_PROPERTY[type_name] then return M.REF_PROPERTY[type_name] end
  local ids = schema and schema.primaryIdentifier
  local first = ids and ids[1]
  return first and first:match("^/properties/([^/]+)$") or nil
end

return M
