// DependencyGraph: edges from every kind of reference, unresolved references,
// cycles and layers.
#include <catch2/catch.hpp>

#include "graph/graph.h"
#include "template/template.h"

using ms::DependencyGraph;
using ms::Status;
using ms::Template;

namespace {

Status Build(const std::string& text, Template* t, DependencyGraph* g,
             const ms::ConditionOracle* oracle = nullptr) {
  Status s = ms::LoadTemplate(text, t);
  if (!s.ok()) return s;
  return DependencyGraph::Build(*t, nullptr, oracle, g);
}

std::vector<std::string> Deps(const DependencyGraph& g, const std::string& id) {
  std::vector<std::string> out;
  for (int d : g.dependencies(g.Find(id))) out.push_back(g.name(d));
  return out;
}

}  // namespace

TEST_CASE("edges come from Ref, GetAtt, Sub and DependsOn", "[graph]") {
  Template t;
  DependencyGraph g;
  Status s = Build(R"(
Parameters: {P: {Type: String}}
Resources:
  A: {Type: AWS::EC2::VPC}
  B: {Type: AWS::EC2::Subnet, Properties: {VpcId: !Ref A, Name: !Ref P, R: !Ref AWS::Region}}
  C: {Type: AWS::EC2::Subnet, Properties: {X: !GetAtt B.Outputs.Nested, Y: !GetAtt [A, CidrBlock]}}
  D:
    Type: AWS::SNS::Topic
    Properties:
      N: !Sub '${C}-${A.CidrBlock}-${AWS::StackName}-${!Literal}'
      M: !Sub ['${Local}', {Local: !Ref B}]
  E: {Type: AWS::SNS::Topic, DependsOn: D}
  F: {Type: AWS::SNS::Topic, DependsOn: [A, E], Metadata: {X: !Ref C}}
)",
                   &t, &g);
  INFO(s.message());
  REQUIRE(s.ok());
  CHECK(Deps(g, "A").empty());
  CHECK(Deps(g, "B") == std::vector<std::string>{"A"});
  CHECK(Deps(g, "C") == std::vector<std::string>{"A", "B"});
  CHECK(Deps(g, "D") == std::vector<std::string>{"A", "B", "C"});
  CHECK(Deps(g, "E") == std::vector<std::string>{"D"});
  CHECK(Deps(g, "F") == std::vector<std::string>{"A", "C", "E"});
  REQUIRE(g.layers().size() == 6);
  CHECK(g.order() == std::vector<int>{0, 1, 2, 3, 4, 5});
  std::vector<std::string> dependents;
  for (int d : g.dependents(g.Find("A"))) dependents.push_back(g.name(d));
  CHECK(dependents == std::vector<std::string>{"B", "C", "D", "F"});
}

TEST_CASE("independent resources share a layer", "[graph]") {
  Template t;
  DependencyGraph g;
  REQUIRE(Build(R"(
Resources:
  Vpc: {Type: AWS::EC2::VPC}
  S1: {Type: AWS::EC2::Subnet, Properties: {VpcId: !Ref Vpc}}
  S2: {Type: AWS::EC2::Subnet, Properties: {VpcId: !Ref Vpc}}
  Sg: {Type: AWS::EC2::SecurityGroup, Properties: {VpcId: !Ref Vpc}}
  I: {Type: AWS::EC2::Instance, Properties: {SubnetId: !Ref S2, Sg: !Ref Sg}}
  Lone: {Type: AWS::SNS::Topic}
)",
                &t, &g)
              .ok());
  REQUIRE(g.layers().size() == 3);
  CHECK(g.layers()[0] == std::vector<int>{g.Find("Vpc"), g.Find("Lone")});
  CHECK(g.layers()[1] == std::vector<int>{g.Find("S1"), g.Find("S2"), g.Find("Sg")});
  CHECK(g.layers()[2] == std::vector<int>{g.Find("I")});
}

TEST_CASE("unresolved references use AWS's messages", "[graph]") {
  Template t;
  DependencyGraph g;
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic, Properties: {X: !Ref InvalidRef}}}", &t, &g).message() ==
        "Template format error: Unresolved resource dependencies [InvalidRef] in the Resources block of the "
        "template");
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic, DependsOn: [NonExistingResource]}}", &t, &g).message() ==
        "Template format error: Unresolved resource dependencies [NonExistingResource] in the Resources block "
        "of the template");
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic, Properties: {X: !Sub '${B}${C}${B}'}}}", &t, &g).message() ==
        "Template format error: Unresolved resource dependencies [B, C] in the Resources block of the template");
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic, Properties: {X: !GetAtt Nope.Arn}}}", &t, &g).message() ==
        "Template error: instance of Fn::GetAtt references undefined resource Nope");
  CHECK(Build("Parameters: {P: {Type: String}}\nResources: {A: {Type: AWS::SNS::Topic, Properties: {X: "
              "!GetAtt P.Arn}}}",
              &t, &g)
            .message() == "Template error: instance of Fn::GetAtt references undefined resource P");
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic}}\nOutputs: {O: {Value: !Ref MyTopic}}", &t, &g).message() ==
        "Unresolved resource dependencies [MyTopic] in the Outputs block of the template");
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic, Properties: {X: !If [Missing, a, b]}}}", &t, &g).message() ==
        "Template error: unresolved condition dependency Missing in Fn::If");
}

TEST_CASE("cycles name the resources that cannot be ordered", "[graph]") {
  Template t;
  DependencyGraph g;
  CHECK(Build(R"(
Resources:
  A: {Type: AWS::SNS::Topic, DependsOn: B}
  B: {Type: AWS::SNS::Topic, Properties: {X: !Ref A}}
  C: {Type: AWS::SNS::Topic}
)",
              &t, &g)
            .message() == "Circular dependency between resources: [A, B]");
  CHECK(Build("Resources: {A: {Type: AWS::SNS::Topic, DependsOn: A}}", &t, &g).message() ==
        "Circular dependency between resources: [A]");
  // D is not in the cycle but waits on it, so it cannot be ordered either.
  CHECK(Build(R"(
Resources:
  A: {Type: AWS::SNS::Topic, Properties: {X: !GetAtt C.Arn}}
  B: {Type: AWS::SNS::Topic, Properties: {X: !Sub '${A}'}}
  C: {Type: AWS::SNS::Topic, Properties: {X: !Ref B}}
  D: {Type: AWS::SNS::Topic, Properties: {X: !Ref C}}
)",
              &t, &g)
            .message() == "Circular dependency between resources: [A, B, C, D]");
}

TEST_CASE("a condition oracle prunes the Fn::If branch not taken", "[graph]") {
  const std::string text = R"(
Conditions: {Yes: !Equals [a, a]}
Resources:
  A: {Type: AWS::SNS::Topic}
  B: {Type: AWS::SNS::Topic}
  C: {Type: AWS::SNS::Topic, Properties: {X: !If [Yes, !Ref A, !Ref B]}}
)";
  Template t;
  DependencyGraph g;
  REQUIRE(Build(text, &t, &g).ok());
  CHECK(Deps(g, "C") == std::vector<std::string>{"A", "B"});
  ms::ConditionOracle yes = [](std::string_view) { return std::optional<bool>(true); };
  REQUIRE(Build(text, &t, &g, &yes).ok());
  CHECK(Deps(g, "C") == std::vector<std::string>{"A"});
}

TEST_CASE("excluded resources cannot be referenced", "[graph]") {
  Template t;
  REQUIRE(ms::LoadTemplate(R"(
Conditions: {No: !Equals [a, b]}
Resources:
  MyTopic: {Type: AWS::SNS::Topic, Condition: No}
  Q: {Type: AWS::SQS::Queue, Properties: {X: !Ref MyTopic}}
)",
                           &t)
              .ok());
  DependencyGraph g;
  DependencyGraph::Inclusion included = [](const ms::ResourceDecl& r) { return r.condition.empty(); };
  CHECK(DependencyGraph::Build(t, &included, nullptr, &g).message() ==
        "Template format error: Unresolved resource dependencies [MyTopic] in the Resources block of the "
        "template");
}

TEST_CASE("dot and mermaid name every node and edge", "[graph]") {
  Template t;
  DependencyGraph g;
  REQUIRE(Build("Resources: {Vpc: {Type: AWS::EC2::VPC}, Sub: {Type: AWS::EC2::Subnet, Properties: {V: !Ref Vpc}}}",
                &t, &g)
              .ok());
  std::string dot = ms::GraphToDot(g);
  CHECK(dot.find("\"Sub\" -> \"Vpc\";") != std::string::npos);
  CHECK(dot.find("\"Vpc\" [label=\"Vpc\\nAWS::EC2::VPC\"];") != std::string::npos);
  std::string mermaid = ms::GraphToMermaid(g);
  CHECK(mermaid.rfind("graph BT\n", 0) == 0);
  CHECK(mermaid.find("  Sub --> Vpc\n") != std::string::npos);
}
