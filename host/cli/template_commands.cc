// validate-template and graph: commands on a template alone, no stack.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/load_providers.h"
#include "cli/stack_session.h"
#include "stack/template_url.h"
#include "eval/validate.h"
#include "graph/graph.h"

namespace ms::cli {
namespace {

struct TemplateArgs {
  std::string body;                // --template-body
  std::string file;                // --template-file
  std::string url;                 // --template-url: the simulated S3's object (or file://PATH)
  std::string state;               // --state: whose simulated S3 --template-url reads
  std::vector<std::string> providers;  // --providers DIR (repeatable)
  bool stub_unknown_types = false;     // --stub-unknown-types
};

void AddTemplateOptions(CLI::App* cmd, TemplateArgs* args) {
  auto* body = cmd->add_option("--template-body", args->body,
                               "Template text, or file://PATH to read it from a file");
  auto* file = cmd->add_option("--template-file", args->file, "Path of the template file");
  auto* url = cmd->add_option("--template-url", args->url,
                              "An S3 URL of the template (read from the state's simulated S3), or file://PATH");
  body->excludes(file);
  file->excludes(body);
  url->excludes(body);
  url->excludes(file);
  cmd->add_option("--state", args->state, "The state file whose simulated S3 --template-url reads");
  cmd->add_option("--providers", args->providers,
                  "A directory of Lua providers whose types the template may use (repeatable)");
  cmd->add_flag("--stub-unknown-types", args->stub_unknown_types,
                "Accept resource types no provider implements: a stub deploys them (any property, "
                "updates in place, placeholder attributes)");
}


Status ReadTemplate(const TemplateArgs& args, std::string* text) {
  if (!args.file.empty()) return ReadFile(args.file, text);
  if (!args.body.empty()) return ReadTemplateBody(args.body, text);
  if (!args.url.empty()) {  // a reader of the state: its world's S3
    SessionOptions options;
    options.state = args.state;
    options.providers = args.providers;
    options.stub_unknown_types = args.stub_unknown_types;
    StackSession session;
    MS_RETURN_IF_ERROR(session.Open(options, nullptr, Access::kRead));
    return ReadTemplateUrl(session.service().context(), args.url, text);
  }
  return Status::Validation("Either Template URL or Template Body must be specified.");
}

// Reads and validates the template, knowing the providers' types.
Status LoadAndValidate(const TemplateArgs& args, Template* t, TemplateSummary* summary) {
  std::string text;
  MS_RETURN_IF_ERROR(ReadTemplate(args, &text));
  std::unique_ptr<lua::LuaProviderRuntime> providers;
  MS_RETURN_IF_ERROR(LoadProviders(args.providers, &providers, args.stub_unknown_types));
  return ValidateTemplate(text, t, summary, providers.get());
}

int RunValidate(const TemplateArgs& args) {
  Template t;
  TemplateSummary summary;
  Status s = LoadAndValidate(args, &t, &summary);
  if (!s.ok()) return ReportError("ValidateTemplate", s);

  Json out;
  Json params = Json::array();
  for (const auto& p : summary.parameters) {
    Json j;
    j["ParameterKey"] = p.key;
    if (p.default_value) j["DefaultValue"] = p.no_echo ? "****" : *p.default_value;
    j["NoEcho"] = p.no_echo;
    if (!p.description.empty()) j["Description"] = p.description;
    params.push_back(j);
  }
  out["Parameters"] = params;
  if (summary.description) out["Description"] = *summary.description;
  if (!summary.capabilities.empty()) {
    out["Capabilities"] = summary.capabilities;
    out["CapabilitiesReason"] = summary.capabilities_reason;
  }
  if (!summary.declared_transforms.empty()) out["DeclaredTransforms"] = summary.declared_transforms;
  PrintJson(out);
  return 0;
}

int RunGraph(const TemplateArgs& args, const std::string& format) {
  Template t;
  TemplateSummary summary;
  Status s = LoadAndValidate(args, &t, &summary);
  DependencyGraph g;
  if (s.ok()) s = DependencyGraph::Build(t, nullptr, nullptr, &g);
  if (!s.ok()) return ReportError("ValidateTemplate", s);
  std::cout << (format == "mermaid" ? GraphToMermaid(g) : GraphToDot(g));
  return 0;
}

}  // namespace

void AddTemplateCommands(CLI::App& app, int* exit_code) {
  auto validate_args = std::make_shared<TemplateArgs>();
  CLI::App* validate = app.add_subcommand(
      "validate-template", "Validate a template; prints what `aws cloudformation validate-template` prints");
  AddTemplateOptions(validate, validate_args.get());
  validate->callback([validate_args, exit_code] { *exit_code = RunValidate(*validate_args); });

  auto graph_args = std::make_shared<TemplateArgs>();
  auto format = std::make_shared<std::string>("dot");
  CLI::App* graph = app.add_subcommand("graph", "Print the template's resource dependency graph");
  AddTemplateOptions(graph, graph_args.get());
  graph->add_option("--format", *format, "Output format")
      ->check(CLI::IsMember({"dot", "mermaid"}))
      ->capture_default_str();
  graph->callback([graph_args, format, exit_code] { *exit_code = RunGraph(*graph_args, *format); });
}

}  // namespace ms::cli
