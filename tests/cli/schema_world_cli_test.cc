// The schema-driven world as a user meets it: AWS types without a Lua
// provider of their own (served by providers/lib/generic.lua from their
// registry schemas) validate their properties with the registry's messages,
// take AWS's names, Refs and ARNs, carry the stack's tags, and a
// custom-named resource is not replaced (engine: stack/custom_names).
// The types used here have no hand-written provider.
#include <catch2/catch.hpp>

#include "cli_fixture.h"

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace {

using Run = ms::test::CommandResult;

struct Cli : ms::test::CliFixture {
  explicit Cli(const std::string& name) : CliFixture("schema_world_cli", name) {}

  std::vector<std::string> WorldIds(const std::string& kind) const {
    std::vector<std::string> ids;
    const nlohmann::json list = Json("world list --kind " + kind);  // kept: the loop reads into it
    for (const auto& r : list["Records"]) {
      if (r.value("Live", false)) ids.push_back(r.value("Id", ""));
    }
    return ids;
  }
  std::string Output(const std::string& stack, const std::string& key) const {
    const nlohmann::json stacks = Json("describe-stacks --stack-name " + stack);  // kept: the loop reads into it
    for (const auto& o : stacks["Stacks"][0]["Outputs"]) {
      if (o["OutputKey"] == key) return o["OutputValue"];
    }
    return "<no output " + key + ">";
  }
};

}  // namespace

TEST_CASE("an invalid nested property fails the create with the registry's message, nothing is created",
          "[cli][schema]") {
  Cli cli("invalid_nested");
  std::string t = cli.Write("t.json", R"({"Resources": {"Repo": {"Type": "AWS::ECR::Repository", "Properties": {
      "ImageScanningConfiguration": {"ScanOnPush": "maybe", "Extra": 1},
      "ImageTagMutability": "SOMETIMES"}}}})");
  cli("create-stack --stack-name app --template-body file://" + t);
  CHECK(cli.Status("app") == "ROLLBACK_COMPLETE");
  CHECK(cli.Events("app", 0) == std::vector<std::string>{
                                    "app CREATE_IN_PROGRESS User Initiated",
                                    "Repo CREATE_IN_PROGRESS ",
                                    "Repo CREATE_FAILED Properties validation failed for resource Repo with message: ["
                                    "#/ImageScanningConfiguration: extraneous key [Extra] is not permitted, "
                                    "#/ImageScanningConfiguration/ScanOnPush: expected type: Boolean, found: String, "
                                    "#/ImageTagMutability: failed validation constraint for keyword [enum]]",
                                    "app ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Repo]. ",
                                    "Repo DELETE_COMPLETE ",
                                    "app ROLLBACK_COMPLETE ",
                                });
  CHECK(cli.WorldIds("generic.AWS::ECR::Repository").empty());
}

TEST_CASE("Ref, ARNs and names of generic types follow AWS's formats", "[cli][schema]") {
  Cli cli("refs");
  std::string t = cli.Write("t.json", R"({"Resources": {
      "Repo": {"Type": "AWS::ECR::Repository", "Properties": {"RepositoryName": "repo-a"}},
      "Stream": {"Type": "AWS::Kinesis::Stream", "Properties": {"ShardCount": 1}},
      "Cluster": {"Type": "AWS::ECS::Cluster", "Properties": {"ClusterName": "c1"}}},
    "Outputs": {
      "RepoRef": {"Value": {"Ref": "Repo"}}, "RepoArn": {"Value": {"Fn::GetAtt": ["Repo", "Arn"]}},
      "RepoUri": {"Value": {"Fn::GetAtt": ["Repo", "RepositoryUri"]}},
      "StreamRef": {"Value": {"Ref": "Stream"}}, "StreamArn": {"Value": {"Fn::GetAtt": ["Stream", "Arn"]}},
      "ClusterRef": {"Value": {"Ref": "Cluster"}}, "ClusterArn": {"Value": {"Fn::GetAtt": ["Cluster", "Arn"]}}}})");
  Run created = cli("create-stack --stack-name shop --template-body file://" + t);
  INFO(created.out);
  REQUIRE(cli.Status("shop") == "CREATE_COMPLETE");
  const std::string account = "123456789012";
  CHECK(cli.Output("shop", "RepoRef") == "repo-a");
  CHECK(cli.Output("shop", "RepoArn") == "arn:aws:ecr:us-east-1:" + account + ":repository/repo-a");
  CHECK(cli.Output("shop", "RepoUri") == account + ".dkr.ecr.us-east-1.amazonaws.com/repo-a");
  const std::string stream = cli.Output("shop", "StreamRef");
  CHECK(std::regex_match(stream, std::regex("shop-Stream-[A-Za-z0-9]{12}")));
  CHECK(cli.Output("shop", "StreamArn") == "arn:aws:kinesis:us-east-1:" + account + ":stream/" + stream);
  CHECK(cli.Output("shop", "ClusterRef") == "c1");
  CHECK(cli.Output("shop", "ClusterArn") == "arn:aws:ecs:us-east-1:" + account + ":cluster/c1");
  CHECK(cli.WorldIds("generic.AWS::ECR::Repository") == std::vector<std::string>{"repo-a"});
}

TEST_CASE("the IDs and URLs and DNS names AWS makes up for generic types have AWS's shapes", "[cli][schema]") {
  Cli cli("made_up");
  std::string t = cli.Write("t.yaml", R"(Resources:
  Vpc: {Type: AWS::EC2::VPC, Properties: {CidrBlock: 10.0.0.0/16}}
  Sub: {Type: AWS::EC2::Subnet, Properties: {VpcId: !Ref Vpc, CidrBlock: 10.0.1.0/24}}
  Eni: {Type: AWS::EC2::NetworkInterface, Properties: {SubnetId: !Ref Sub}}
  Api: {Type: AWS::ApiGateway::RestApi, Properties: {Name: api}}
  Ws: {Type: AWS::ApiGatewayV2::Api, Properties: {Name: ws, ProtocolType: WEBSOCKET, RouteSelectionExpression: $request.body.action}}
  Alb: {Type: AWS::ElasticLoadBalancingV2::LoadBalancer, Properties: {Subnets: [!Ref Sub]}}
  Nlb: {Type: AWS::ElasticLoadBalancingV2::LoadBalancer, Properties: {Type: network, Scheme: internal, Subnets: [!Ref Sub]}}
  Tg: {Type: AWS::ElasticLoadBalancingV2::TargetGroup, Properties: {VpcId: !Ref Vpc, Port: 80, Protocol: HTTP}}
  Listener:
    Type: AWS::ElasticLoadBalancingV2::Listener
    Properties:
      LoadBalancerArn: !Ref Alb
      Port: 80
      Protocol: HTTP
      DefaultActions: [{Type: forward, TargetGroupArn: !Ref Tg}]
  Cdn:
    Type: AWS::CloudFront::Distribution
    Properties:
      DistributionConfig:
        Enabled: true
        DefaultCacheBehavior: {TargetOriginId: o, ViewerProtocolPolicy: allow-all, CachePolicyId: 658327ea-f89d-4fab-a63d-7e88639e58f6}
        Origins: [{Id: o, DomainName: example.com, CustomOriginConfig: {OriginProtocolPolicy: https-only}}]
  Db: {Type: AWS::RDS::DBInstance, Properties: {DBInstanceIdentifier: OrdersDB, Engine: postgres, DBInstanceClass: db.t3.micro, AllocatedStorage: "20", MasterUsername: u, MasterUserPassword: passwordpassword}}
  Pool: {Type: AWS::Cognito::UserPool}
  Client: {Type: AWS::Cognito::UserPoolClient, Properties: {UserPoolId: !Ref Pool}}
  Zone: {Type: AWS::Route53::HostedZone, Properties: {Name: example.com}}
  Sg: {Type: AWS::EC2::SecurityGroup, Properties: {GroupName: web-lb, GroupDescription: lb, VpcId: !Ref Vpc}}
  Clb:
    Type: AWS::ElasticLoadBalancing::LoadBalancer
    Properties:
      Scheme: internal
      Subnets: [!Ref Sub]
      SecurityGroups: [!Ref Sg]
      Listeners: [{LoadBalancerPort: "80", InstancePort: "80", Protocol: HTTP}]
  Task1: {Type: AWS::ECS::TaskDefinition, Properties: {Family: orders, ContainerDefinitions: [{Name: app, Image: nginx, Memory: 512}]}}
  Task2: {Type: AWS::ECS::TaskDefinition, Properties: {Family: orders, ContainerDefinitions: [{Name: app, Image: httpd, Memory: 512}]}}
Outputs:
  EniIp: {Value: !GetAtt Eni.PrimaryPrivateIpAddress}
  Api: {Value: !Ref Api}
  ApiRoot: {Value: !GetAtt Api.RootResourceId}
  Ws: {Value: !Ref Ws}
  WsEndpoint: {Value: !GetAtt Ws.ApiEndpoint}
  Alb: {Value: !Ref Alb}
  AlbName: {Value: !GetAtt Alb.LoadBalancerName}
  AlbFullName: {Value: !GetAtt Alb.LoadBalancerFullName}
  AlbDns: {Value: !GetAtt Alb.DNSName}
  AlbZone: {Value: !GetAtt Alb.CanonicalHostedZoneID}
  NlbDns: {Value: !GetAtt Nlb.DNSName}
  NlbZone: {Value: !GetAtt Nlb.CanonicalHostedZoneID}
  Tg: {Value: !Ref Tg}
  TgFullName: {Value: !GetAtt Tg.TargetGroupFullName}
  Listener: {Value: !Ref Listener}
  Cdn: {Value: !Ref Cdn}
  CdnDomain: {Value: !GetAtt Cdn.DomainName}
  Db: {Value: !Ref Db}
  DbAddress: {Value: !GetAtt Db.Endpoint.Address}
  DbPort: {Value: !GetAtt Db.Endpoint.Port}
  Pool: {Value: !Ref Pool}
  PoolUrl: {Value: !GetAtt Pool.ProviderURL}
  PoolArn: {Value: !GetAtt Pool.Arn}
  Client: {Value: !Ref Client}
  Zone: {Value: !Ref Zone}
  ZoneNs: {Value: !Join [",", !GetAtt Zone.NameServers]}
  ClbDns: {Value: !GetAtt Clb.DNSName}
  ClbZoneName: {Value: !GetAtt Clb.CanonicalHostedZoneName}
  ClbGroup: {Value: !GetAtt Clb.SourceSecurityGroup.GroupName}
  ClbOwner: {Value: !GetAtt Clb.SourceSecurityGroup.OwnerAlias}
  Tasks: {Value: !Join [",", [!Ref Task1, !Ref Task2]]}
)");
  Run created = cli("create-stack --stack-name web --template-body file://" + t);
  INFO(created.out);
  REQUIRE(cli.Status("web") == "CREATE_COMPLETE");
  auto out = [&](const std::string& key) { return cli.Output("web", key); };
  auto shaped = [&](const std::string& key, const std::string& pattern) {
    INFO(key << " = " << out(key));
    CHECK(std::regex_match(out(key), std::regex(pattern)));
  };
  const std::string account = "123456789012";
  shaped("EniIp", R"(10\.0\.1\.\d{1,3})");
  shaped("Api", "[a-z0-9]{10}");
  shaped("ApiRoot", "[a-z0-9]{10}");
  CHECK(out("Api") != out("ApiRoot"));
  CHECK(out("WsEndpoint") == "wss://" + out("Ws") + ".execute-api.us-east-1.amazonaws.com");
  // An ALB's ARN, full name and name agree; its DNS name is "<name>-<digits>.<region>.elb.amazonaws.com".
  const std::string alb_name = out("AlbName");
  shaped("AlbName", "web-Alb-[A-Za-z0-9]{12}");
  shaped("Alb", "arn:aws:elasticloadbalancing:us-east-1:" + account + ":loadbalancer/app/" + alb_name + "/[0-9a-f]{16}");
  CHECK("arn:aws:elasticloadbalancing:us-east-1:" + account + ":loadbalancer/" + out("AlbFullName") == out("Alb"));
  shaped("AlbDns", alb_name + R"(-[1-9]\d{7,9}\.us-east-1\.elb\.amazonaws\.com)");
  CHECK(out("AlbZone") == "Z35SXDOTRQ7X7K");
  // An internal NLB's: "internal-<name>-<its ARN's ID>.elb.<region>.amazonaws.com".
  shaped("NlbDns", R"(internal-web-Nlb-[A-Za-z0-9]{12}-[0-9a-f]{16}\.elb\.us-east-1\.amazonaws\.com)");
  CHECK(out("NlbZone") == "Z26RNL4JYFTOTI");
  shaped("Tg", "arn:aws:elasticloadbalancing:us-east-1:" + account + ":targetgroup/web-Tg-[A-Za-z0-9]{12}/[0-9a-f]{16}");
  CHECK("arn:aws:elasticloadbalancing:us-east-1:" + account + ":" + out("TgFullName") == out("Tg"));
  // A listener's ARN is its load balancer's, "listener" for "loadbalancer", and an ID of its own.
  const std::string alb_tail = out("Alb").substr(out("Alb").find(":loadbalancer/") + 14);
  shaped("Listener", "arn:aws:elasticloadbalancing:us-east-1:" + account + ":listener/" + alb_tail + "/[0-9a-f]{16}");
  shaped("Cdn", "E[A-Z0-9]{13}");
  shaped("CdnDomain", R"(d[a-z0-9]{13}\.cloudfront\.net)");
  CHECK(out("Db") == "ordersdb");  // RDS keeps identifiers in lowercase
  shaped("DbAddress", R"(ordersdb\.[a-z0-9]{12}\.us-east-1\.rds\.amazonaws\.com)");
  CHECK(out("DbPort") == "5432");
  shaped("Pool", "us-east-1_[A-Za-z0-9]{9}");
  CHECK(out("PoolUrl") == "https://cognito-idp.us-east-1.amazonaws.com/" + out("Pool"));
  CHECK(out("PoolArn") == "arn:aws:cognito-idp:us-east-1:" + account + ":userpool/" + out("Pool"));
  shaped("Client", "[a-z0-9]{26}");
  shaped("Zone", "Z[A-Z0-9]{20}");
  shaped("ZoneNs", R"(ns-\d+\.awsdns-\d\d\.com,ns-\d+\.awsdns-\d\d\.net,ns-\d+\.awsdns-\d\d\.org,ns-\d+\.awsdns-\d\d\.co\.uk)");
  // A Classic Load Balancer in a VPC: its own group and account as SourceSecurityGroup.
  shaped("ClbDns", R"(internal-web-Clb-[A-Za-z0-9]{12}-[1-9]\d{7,9}\.us-east-1\.elb\.amazonaws\.com)");
  CHECK(out("ClbZoneName") == out("ClbDns"));
  CHECK(out("ClbGroup") == "web-lb");
  CHECK(out("ClbOwner") == account);
  // Two task definitions of one family are its revisions 1 and 2.
  const std::string family = "arn:aws:ecs:us-east-1:" + account + ":task-definition/orders:";
  const std::string tasks = out("Tasks");
  CHECK((tasks == family + "1," + family + "2" || tasks == family + "2," + family + "1"));
}

TEST_CASE("a custom domain and a repository and database clusters take AWS's endpoints and the names given", "[cli][schema]") {
  Cli cli("endpoints");
  std::string t = cli.Write("t.yaml", R"(Resources:
  Dom:
    Type: AWS::ApiGateway::DomainName
    Properties:
      DomainName: api.example.com
      RegionalCertificateArn: arn:aws:acm:us-east-1:123456789012:certificate/1954f095-11b6-4daf-9952-0c308a00944d
      EndpointConfiguration: {Types: [REGIONAL]}
  Repo: {Type: AWS::CodeCommit::Repository, Properties: {RepositoryName: demo}}
  Doc: {Type: AWS::DocDB::DBCluster, Properties: {DBClusterIdentifier: Orders, MasterUsername: u, MasterUserPassword: passwordpassword}}
  Graph: {Type: AWS::Neptune::DBCluster}
Outputs:
  Dom: {Value: !Ref Dom}
  DomRegional: {Value: !GetAtt Dom.RegionalDomainName}
  DomZone: {Value: !GetAtt Dom.RegionalHostedZoneId}
  DomEdgeZone: {Value: !GetAtt Dom.DistributionHostedZoneId}
  Repo: {Value: !Ref Repo}
  RepoHttp: {Value: !GetAtt Repo.CloneUrlHttp}
  RepoArn: {Value: !GetAtt Repo.Arn}
  Doc: {Value: !Ref Doc}
  DocEndpoint: {Value: !GetAtt Doc.Endpoint}
  DocReader: {Value: !GetAtt Doc.ReadEndpoint}
  DocPort: {Value: !GetAtt Doc.Port}
  Graph: {Value: !Ref Graph}
  GraphEndpoint: {Value: !GetAtt Graph.Endpoint}
  GraphPort: {Value: !GetAtt Graph.Port}
)");
  Run created = cli("create-stack --stack-name data --template-body file://" + t);
  INFO(created.out);
  REQUIRE(cli.Status("data") == "CREATE_COMPLETE");
  auto out = [&](const std::string& key) { return cli.Output("data", key); };
  auto shaped = [&](const std::string& key, const std::string& pattern) {
    INFO(key << " = " << out(key));
    CHECK(std::regex_match(out(key), std::regex(pattern)));
  };
  CHECK(out("Dom") == "api.example.com");
  shaped("DomRegional", R"(d-[a-z0-9]{10}\.execute-api\.us-east-1\.amazonaws\.com)");
  CHECK(out("DomZone") == "Z1UJRXOUMOOFQ8");
  CHECK(out("DomEdgeZone") == "Z2FDTNDATAQYW2");
  shaped("Repo", "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");  // Ref: the repository ID
  CHECK(out("RepoHttp") == "https://git-codecommit.us-east-1.amazonaws.com/v1/repos/demo");
  CHECK(out("RepoArn") == "arn:aws:codecommit:us-east-1:123456789012:demo");
  CHECK(out("Doc") == "orders");
  shaped("DocEndpoint", R"(orders\.cluster-[a-z0-9]{12}\.us-east-1\.docdb\.amazonaws\.com)");
  CHECK(out("DocReader") == "orders.cluster-ro-" + out("DocEndpoint").substr(15));
  CHECK(out("DocPort") == "27017");
  shaped("Graph", "data-graph-[a-z0-9]{12}");  // generated, in lowercase
  shaped("GraphEndpoint", out("Graph") + R"(\.cluster-[a-z0-9]{12}\.us-east-1\.neptune\.amazonaws\.com)");
  CHECK(out("GraphPort") == "8182");
}

TEST_CASE("a custom-named resource that needs replacing fails the update as AWS does, and the stack rolls back",
          "[cli][schema][update]") {
  Cli cli("custom_named");
  auto repo = [](const std::string& name_prop, const std::string& encryption) {
    return R"({"Resources": {"Repo": {"Type": "AWS::ECR::Repository", "Properties": {)" + name_prop +
           R"("EncryptionConfiguration": {"EncryptionType": ")" + encryption + R"("}}}},
              "Outputs": {"Ref": {"Value": {"Ref": "Repo"}}}})";
  };
  const std::string named = R"("RepositoryName": "images", )";
  cli("create-stack --stack-name app --template-body file://" + cli.Write("v1.json", repo(named, "AES256")));
  REQUIRE(cli.Status("app") == "CREATE_COMPLETE");
  const size_t created = cli.Events("app", 0).size();
  Run updated = cli("update-stack --stack-name app --template-body file://" + cli.Write("v2.json", repo(named, "KMS")));
  INFO(updated.out);
  CHECK(updated.exit_code == 0);
  CHECK(cli.Status("app") == "UPDATE_ROLLBACK_COMPLETE");
  const std::string refusal =
      "CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename images and "
      "update the stack again.";
  CHECK(cli.Events("app", created) == std::vector<std::string>{
                                          "app UPDATE_IN_PROGRESS User Initiated",
                                          "Repo UPDATE_FAILED " + refusal,
                                          "app UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to "
                                          "update: [Repo]. ",
                                          "Repo UPDATE_COMPLETE ",
                                          "app UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS ",
                                          "app UPDATE_ROLLBACK_COMPLETE ",
                                      });
  CHECK(cli.WorldIds("generic.AWS::ECR::Repository") == std::vector<std::string>{"images"});

  // Without a custom name the same change replaces the repository.
  cli("create-stack --stack-name anon --template-body file://" + cli.Write("a1.json", repo("", "AES256")));
  const std::string before = cli.Output("anon", "Ref");
  CHECK(std::regex_match(before, std::regex("anon-repo-[a-z0-9]{12}")));  // ECR names are lowercase
  cli("update-stack --stack-name anon --template-body file://" + cli.Write("a2.json", repo("", "KMS")));
  CHECK(cli.Status("anon") == "UPDATE_COMPLETE");
  CHECK(cli.Output("anon", "Ref") != before);
}

TEST_CASE("the stack's tags reach a generic resource's world record with CloudFormation's own",
          "[cli][schema][tags]") {
  Cli cli("stack_tags");
  std::string t = cli.Write("t.json", R"({"Resources": {"Cluster": {"Type": "AWS::ECS::Cluster", "Properties": {
      "ClusterName": "c1", "Tags": [{"Key": "env", "Value": "prod"}]}}}})");
  const std::string id = cli.Json("create-stack --stack-name tagged --template-body file://" + t +
                                  " --tags Key=team,Value=blue Key=env,Value=dev")["StackId"];
  REQUIRE(cli.Status("tagged") == "CREATE_COMPLETE");
  auto record = cli.Json("world show c1");
  CHECK(record["Kind"] == "generic.AWS::ECS::Cluster");
  CHECK(record["Data"]["Tags"] == nlohmann::json{{"team", "blue"},
                                                 {"env", "prod"},
                                                 {"aws:cloudformation:stack-name", "tagged"},
                                                 {"aws:cloudformation:logical-id", "Cluster"},
                                                 {"aws:cloudformation:stack-id", id}});
}
