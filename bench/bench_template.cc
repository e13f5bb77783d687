// Parses, validates and evaluates a generated template of N resources
// (default 10,000) and prints the time of each phase. Target: <= 150 ms total.
//
// The template is shaped like real ones: parameters, a mapping, conditions,
// and resources that Ref, GetAtt and Sub their neighbours, with Fn::If,
// Fn::Join, Fn::Select and Fn::FindInMap in their properties.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "catalog/resource_catalog.h"
#include "eval/evaluator.h"
#include "eval/parameters.h"
#include "graph/graph.h"
#include "template/parse.h"
#include "template/template.h"

namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string GenerateJson(int n) {
  std::string s;
  s.reserve(static_cast<size_t>(n) * 600);
  s += R"({"AWSTemplateFormatVersion":"2010-09-09","Description":"generated",)";
  s += R"("Parameters":{"Env":{"Type":"String","Default":"dev","AllowedValues":["dev","prod"]},)";
  s += R"("Size":{"Type":"Number","Default":"8","MinValue":1,"MaxValue":100}},)";
  s += R"("Mappings":{"Sizes":{"dev":{"Type":"t3.micro"},"prod":{"Type":"m5.large"}}},)";
  s += R"("Conditions":{"IsProd":{"Fn::Equals":[{"Ref":"Env"},"prod"]},)";
  s += R"("NotProd":{"Fn::Not":[{"Condition":"IsProd"}]}},"Resources":{)";
  for (int i = 0; i < n; ++i) {
    std::string id = "R" + std::to_string(i);
    std::string prev = "R" + std::to_string(i > 0 ? i - 1 : 0);
    std::string far = "R" + std::to_string(i / 2);
    if (i) s += ",";
    s += "\"" + id + "\":{\"Type\":\"AWS::EC2::SecurityGroup\",";
    if (i > 0) s += "\"DependsOn\":[\"" + far + "\"],";
    s += "\"Properties\":{\"GroupDescription\":{\"Fn::Sub\":\"group ${Env} " + id + "\"},";
    if (i > 0) {
      s += "\"VpcId\":{\"Ref\":\"" + prev + "\"},";
      s += "\"Peer\":{\"Fn::GetAtt\":[\"" + prev + "\",\"GroupId\"]},";
      s += "\"Name\":{\"Fn::Join\":[\"-\",[{\"Ref\":\"AWS::StackName\"},\"" + id + "\",{\"Ref\":\"" +
           prev + "\"}]]},";
    }
    s += "\"InstanceType\":{\"Fn::FindInMap\":[\"Sizes\",{\"Ref\":\"Env\"},\"Type\"]},";
    s += "\"Zone\":{\"Fn::Select\":[0,{\"Fn::GetAZs\":\"\"}]},";
    s += "\"Extra\":{\"Fn::If\":[\"IsProd\",{\"Ref\":\"Size\"},{\"Ref\":\"AWS::NoValue\"}]},";
    s += "\"Tags\":[{\"Key\":\"Name\",\"Value\":\"" + id + "\"},{\"Key\":\"Index\",\"Value\":" +
         std::to_string(i) + "}]}}";
  }
  s += R"(},"Outputs":{"First":{"Value":{"Ref":"R0"}}}})";
  return s;
}

void Check(const ms::Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s failed: %s\n", what, s.message().c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  std::string text = GenerateJson(n);

  auto t0 = Clock::now();
  ms::Value root;
  Check(ms::ParseTemplateText(text, &root), "parse");
  auto t1 = Clock::now();
  ms::Template t;
  Check(ms::LoadTemplateFromValue(std::move(root), &t), "load");
  Check(ms::ValidateParameterDecls(t), "parameters");
  ms::DependencyGraph graph;
  Check(ms::DependencyGraph::Build(t, nullptr, nullptr, &graph), "graph");
  auto t2 = Clock::now();
  ms::ParameterValues params;
  Check(ms::ResolveParameters(t, {}, {}, &params), "resolve parameters");
  ms::PseudoParameters pseudo;
  ms::EvalEnvironment env;
  ms::Evaluator ev(t, params, pseudo, env);
  Check(ev.EvaluateConditions(), "conditions");
  size_t unknown = 0;
  for (const ms::ResourceDecl& r : t.resources) {
    ms::Value props;
    Check(ev.Evaluate(r.properties, ms::Section::kResourceProperties, &props), "evaluate");
    const ms::Value* vpc = props.find("VpcId");
    if (vpc && vpc->is_unknown()) ++unknown;
  }
  auto t3 = Clock::now();

  auto c0 = Clock::now();
  ms::ResourceCatalog catalog;
  std::string error;
  if (!ms::ResourceCatalog::Parse(ms::ResourceCatalog::AwsText(), &catalog, &error)) {
    std::fprintf(stderr, "catalog: %s\n", error.c_str());
    return 1;
  }
  auto c1 = Clock::now();

  std::printf("bench_template: %d resources, %.1f MB of JSON, %zu graph layers\n", n,
              text.size() / 1e6, graph.layers().size());
  std::printf("  parse             %8.1f ms\n", Ms(t0, t1));
  std::printf("  validate + graph  %8.1f ms\n", Ms(t1, t2));
  std::printf("  evaluate          %8.1f ms  (%zu unknown refs)\n", Ms(t2, t3), unknown);
  std::printf("  total             %8.1f ms  (target <= 150 ms)\n", Ms(t0, t3));
  std::printf("catalog load        %8.1f ms  (%zu resource types, once per process)\n", Ms(c0, c1),
              catalog.size());
  return 0;
}
