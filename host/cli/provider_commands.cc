// provider list / describe: what the provider directories offer.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/load_providers.h"
#include "lua/provider_host.h"

namespace ms::cli {
namespace {

struct ProviderArgs {
  std::vector<std::string> dirs;  // --providers DIR (repeatable)
  std::string type;               // describe TYPE
};

int RunList(const ProviderArgs& args) {
  std::unique_ptr<lua::LuaProviderRuntime> rt;
  Status s = LoadProviders(args.dirs, &rt);
  if (!s.ok()) return ReportError("ListProviders", s);
  Json list = Json::array();
  for (const std::string& type : rt->Types()) {
    list.push_back(Json{{"Type", type}, {"Source", rt->Schema(type)->source}});
  }
  PrintJson(Json{{"Providers", list}});
  return 0;
}

int RunDescribe(const ProviderArgs& args) {
  std::unique_ptr<lua::LuaProviderRuntime> rt;
  Status s = LoadProviders(args.dirs, &rt);
  const TypeSchema* schema = s.ok() ? rt->Schema(args.type) : nullptr;
  if (s.ok() && schema == nullptr) s = Status::Validation("No provider for resource type " + args.type);
  if (!s.ok()) return ReportError("DescribeProvider", s);
  Json props = Json::array();
  for (const PropertySchema& p : schema->properties) {
    Json j{{"Name", p.name}, {"Type", p.type}};
    if (!p.item_type.empty()) j["ItemType"] = p.item_type;
    j["Required"] = p.required;
    j["UpdateRequires"] = p.conditional ? "Conditional" : UpdateBehaviorAwsName(p.update);
    props.push_back(j);
  }
  Json out{{"Type", schema->type}, {"Source", schema->source}, {"Properties", props},
           {"Attributes", schema->attributes}};
  if (!schema->primary_identifier.empty()) out["PrimaryIdentifier"] = schema->primary_identifier;
  PrintJson(out);
  return 0;
}

void AddProviderOption(CLI::App* cmd, ProviderArgs* args) {
  cmd->add_option("--providers", args->dirs,
                  "A directory of provider files (repeatable; later ones override earlier ones)");
}

}  // namespace

void AddProviderCommands(CLI::App& app, int* exit_code) {
  CLI::App* provider = app.add_subcommand("provider", "Inspect the Lua resource providers");
  provider->require_subcommand(1);

  auto list_args = std::make_shared<ProviderArgs>();
  CLI::App* list = provider->add_subcommand("list", "List every resource type a provider implements");
  AddProviderOption(list, list_args.get());
  list->callback([list_args, exit_code] { *exit_code = RunList(*list_args); });

  auto describe_args = std::make_shared<ProviderArgs>();
  CLI::App* describe =
      provider->add_subcommand("describe", "Show a type's properties, how each is updated, and its attributes");
  describe->add_option("type", describe_args->type, "The resource type, e.g. AWS::EC2::Subnet")->required();
  AddProviderOption(describe, describe_args.get());
  describe->callback([describe_args, exit_code] { *exit_code = RunDescribe(*describe_args); });
}

}  // namespace ms::cli
