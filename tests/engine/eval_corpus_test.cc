// Evaluator over the real templates of ../shared/corpus/good: every
// condition, rule, included resource's properties and output evaluates
// without error, with parameter defaults (or plausible values).
#include <catch2/catch.hpp>

#include <cctype>
#include <fstream>
#include <map>

#include "eval/evaluator.h"
#include "test_util.h"

using ms::Evaluator;
using ms::Section;
using ms::Status;
using ms::Template;
using ms::Value;

namespace {

std::vector<std::string> GoodTemplates() {
  std::ifstream in(std::string(MOONSTACK_SHARED_DIR) + "/corpus/MANIFEST.tsv");
  std::vector<std::string> paths;
  std::string line;
  while (std::getline(in, line)) {
    std::string path = line.substr(0, line.find('\t'));
    if (path.rfind("good/", 0) == 0) paths.push_back(path);
  }
  return paths;
}

bool IsList(const std::string& type) {
  return type == "CommaDelimitedList" || type.rfind("List<", 0) == 0 ||
         type.find("<List<") != std::string::npos || type.find("<CommaDelimitedList>") != std::string::npos;
}

bool NameHas(const std::string& name, const std::string& part) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find(part) != std::string::npos;
}

// A value for a parameter without a Default: the first AllowedValue, or
// something of the right shape.
std::string PlausibleValue(const ms::ParameterDecl& d) {
  if (d.default_value) return *d.default_value;
  if (!d.allowed_values.empty()) return d.allowed_values.front();
  if (NameHas(d.name, "cidr")) return "10.0.0.0/16";
  if (d.type.find("AvailabilityZone") != std::string::npos) return "us-east-1a,us-east-1b,us-east-1c";
  if (d.type.find("Number") != std::string::npos) return IsList(d.type) ? "1,2" : "1";
  if (IsList(d.type)) return "a,b,c";
  return "x";
}

// "OK", or where evaluation failed and why.
std::string EvaluateAll(const Template& t, const std::map<std::string, std::string>& given) {
  // Built directly, not by ResolveParameters: the plausible values only
  // have the right shape, not necessarily the declared constraints.
  ms::ParameterValues params;
  for (const ms::ParameterDecl& d : t.parameters) {
    ms::ResolvedParameter p;
    p.name = d.name;
    p.type = d.type;
    auto g = given.find(d.name);
    p.text = g != given.end() ? g->second : PlausibleValue(d);
    if (d.type.rfind("AWS::SSM::Parameter::Value<", 0) == 0) {
      p.value = Value::String(p.text);
      p.ssm_resolved = IsList(d.type) ? "a,b" : NameHas(d.name, "cidr") ? "10.0.0.0/16" : "resolved-1";
    } else {
      p.value = ms::ParameterValueOf(d.type, p.text);
    }
    params.list.push_back(std::move(p));
  }
  ms::PseudoParameters pseudo;
  ms::EvalEnvironment env;
  Evaluator ev(t, params, pseudo, env);
  Status s = ev.EvaluateConditions();
  if (!s.ok()) return "Conditions: " + s.message();
  s = ev.CheckRules();
  if (!s.ok()) return "Rules: " + s.message();
  Value out;
  for (const ms::ResourceDecl& r : t.resources) {
    if (!ev.Included(r.condition)) continue;
    for (const Value* v : {&r.properties, &r.metadata}) {
      s = ev.Evaluate(*v, Section::kResourceProperties, &out);
      if (!s.ok()) return r.logical_id + ": " + s.message();
    }
    for (const Value* v : {&r.deletion_policy, &r.update_replace_policy}) {
      s = ev.Evaluate(*v, Section::kResourcePolicy, &out);
      if (!s.ok()) return r.logical_id + " policy: " + s.message();
    }
  }
  for (const ms::OutputDecl& o : t.outputs) {
    if (!ev.Included(o.condition)) continue;
    for (const Value* v : {&o.value, &o.export_name, &o.description}) {
      s = ev.Evaluate(*v, Section::kOutputs, &out);
      if (!s.ok()) return "Outputs/" + o.name + ": " + s.message();
    }
  }
  return "OK";
}

}  // namespace

TEST_CASE("the good corpus evaluates", "[eval][corpus]") {
  // Failures AWS would report too (cfn-lint's "good" means lint-clean, not
  // deployable), and what moonstack does not do.
  const std::map<std::string, std::string> expected = {
      {"good/cfn-lint/good/functions/sub.yaml",
       "Template error: Fn::Transform is not supported: moonstack does not run macros (AWS::Include runs when a "
       "stack or a change set is created or updated)"},
      {"good/cfn-lint/good/functions_findinmap.yaml",
       "Template error: Unable to get mapping for myMap::us-east-1::us-east-1"},
      {"good/cfn-lint/good/resources_deletionpolicy.yaml",
       "Template error: Unable to get mapping for StackIdMap01::arn:aws:cloudformation:us-east-1:"},
      // Its condition named "Conditions" is a plain map, not a condition
      // function (an indentation slip that cfn-lint does not flag).
      {"good/cfn-lint/good/resource_properties.yaml",
       "Conditions: Template format error: Conditions can only be boolean operations on parameters "
       "and other conditions"},
      // `Resources: {}` is not a template AWS accepts.
      {"good/cfn-lint/integration/metdata.yaml",
       "Template format error: At least one Resources member must be defined."},
  };
  // Values the defaults do not provide.
  const std::map<std::string, std::map<std::string, std::string>> given = {
      // Its rule needs one of the two flow-log destinations.
      {"good/aws-cloudformation-templates/Solutions/VPCFlowLogs/templates/VPCFlowLogs-main.cfn.yaml",
       {{"CreateVPCFlowLogsToCloudWatch", "Yes"}}},
      {"good/cfn-lint/good/functions/cidr.yaml", {{"Size", "2"}, {"SubnetCount", "2"}}},
      // Three /16 subnets need more than a /16.
      {"good/cfn-lint/good/properties_ec2_vpc.yaml", {{"cidrBlockAllowedPattern", "10.0.0.0/8"}}},
  };
  std::vector<std::string> paths = GoodTemplates();
  REQUIRE(paths.size() > 40);
  for (const std::string& path : paths) {
    INFO(path);
    Template t;
    Status loaded = ms::LoadTemplate(ms::test::ReadFile(std::string(MOONSTACK_SHARED_DIR) + "/corpus/" + path), &t);
    auto g = given.find(path);
    std::string result = !loaded.ok() ? loaded.message()
                                      : EvaluateAll(t, g != given.end() ? g->second
                                                                        : std::map<std::string, std::string>{});
    auto it = expected.find(path);
    if (it != expected.end()) {
      INFO(result);
      CHECK(result.find(it->second) != std::string::npos);
    } else {
      CHECK(result == "OK");
    }
  }
}
