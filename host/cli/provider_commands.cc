// provider list / describe: what the provider directories offer.
// provider test FILE: the contract test kit (lua-sdk/moonstack/contract.lua).
// provider new TYPE: a working provider and its fixture (moonstack.scaffold);
// --from-schema and describe --format: provider_schema_commands.cc.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/load_providers.h"
#include "cli/provider_schema_commands.h"
#include "cli/tool_runtime.h"
#include "lua/provider_host.h"

namespace fs = std::filesystem;

namespace ms::cli {
namespace {

struct ProviderArgs {
  std::vector<std::string> dirs;  // --providers DIR (repeatable)
  std::string type;               // describe TYPE
  std::string format = "json";    // describe --format: json, schema, markdown
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
  if (args.format != "json") return RunDescribeFormat(args.dirs, args.type, args.format);
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
    if (p.write_only) j["WriteOnly"] = true;
    if (!p.constraints.is_null()) j["Constraints"] = Json::parse(p.constraints.ToJson());
    props.push_back(j);
  }
  Json out{{"Type", schema->type}, {"Source", schema->source}, {"Properties", props},
           {"Attributes", schema->attributes}};
  // One identifier: its name; a compound one: the list of names.
  if (schema->primary_identifiers.size() > 1) {
    out["PrimaryIdentifier"] = schema->primary_identifiers;
  } else if (!schema->primary_identifier.empty()) {
    out["PrimaryIdentifier"] = schema->primary_identifier;
  }
  PrintJson(out);
  return 0;
}

struct TestArgs {
  std::string file;               // the provider file
  std::vector<std::string> dirs;  // --providers DIR (module roots)
};

// Exit status: 0 every check passed, 1 a check failed, 2 the kit could not run.
int RunTest(const TestArgs& args) {
  std::string code, fixture_code;
  if (!ReadText(args.file, &code)) {
    std::cerr << "moonstack: cannot read provider file " << args.file << "\n";
    return 2;
  }
  // A provider DIR/name.lua has its fixture in DIR/tests/name.lua.
  fs::path file(args.file);
  const std::string fixture = (file.parent_path() / "tests" / file.filename()).string();
  if (!ReadText(fixture, &fixture_code)) {
    std::cerr << "moonstack: no contract-test fixture for " << args.file << ": expected " << fixture
              << " (see lua-sdk/README.md, \"Contract tests\")\n";
    return 2;
  }
  std::vector<std::string> roots;
  if (!file.parent_path().empty()) roots.push_back(file.parent_path().string());
  ToolRuntime tool;
  Status s = tool.Open(args.dirs, roots);
  if (!s.ok()) {
    std::cerr << "moonstack: " << s.message() << "\n";
    return 2;
  }
  lua::CallResult kit = tool.rt().Require("moonstack.contract");
  if (!kit.ok()) {
    std::cerr << "moonstack: " << kit.error->message << "\n";
    return 2;
  }
  lua::CallResult r = tool.rt().CallField(
      kit.refs[0], "run_source",
      {Value::String(code), Value::String(args.file), Value::String(fixture_code), Value::String(fixture)});
  if (!r.ok()) {
    std::cerr << "moonstack: the contract run stopped after the checks above: " << r.error->message << "\n";
    return 1;
  }
  const Value* failed = r.value().find("failed");
  return failed != nullptr && failed->as_double().value_or(0) > 0 ? 1 : 0;
}

struct NewArgs {
  std::string type;        // Organization::Service::Resource
  std::string dir = ".";   // --dir
  std::string schema;      // --from-schema: a registry schema (JSON file)
};

int RunNew(const NewArgs& args) {
  if (!args.schema.empty()) return RunNewFromSchema(args.type, args.schema, args.dir);
  ToolRuntime tool;
  Status s = tool.Open({}, {});
  lua::CallResult scaffold;
  if (s.ok()) {
    scaffold = tool.rt().Require("moonstack.scaffold");
    if (!scaffold.ok()) s = scaffold.status();
  }
  if (!s.ok()) {
    std::cerr << "moonstack: " << s.message() << "\n";
    return 1;
  }
  lua::CallResult files = tool.rt().CallField(scaffold.refs[0], "files", {Value::String(args.type)});
  if (!files.ok()) {
    std::cerr << "moonstack: " << files.error->message << "\n";
    return 1;
  }
  return WriteProviderFiles(files.value(), args.dir);
}

void AddProviderOption(CLI::App* cmd, ProviderArgs* args) {
  cmd->add_option("--providers", args->dirs,
                  "A directory of provider files (repeatable; later ones override earlier ones)");
}

}  // namespace

void AddProviderCommands(CLI::App& app, int* exit_code) {
  CLI::App* provider = app.add_subcommand("provider", "Inspect, test and scaffold the Lua resource providers");
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
  describe
      ->add_option("--format", describe_args->format,
                   "json (default): the engine's view; schema: a CloudFormation registry schema; markdown: "
                   "the type documented")
      ->check(CLI::IsMember({"json", "schema", "markdown"}));
  describe->callback([describe_args, exit_code] { *exit_code = RunDescribe(*describe_args); });

  auto test_args = std::make_shared<TestArgs>();
  CLI::App* test = provider->add_subcommand(
      "test", "Run a provider through the contract test kit with its fixture DIR/tests/<name>.lua");
  test->add_option("file", test_args->file, "The provider file, e.g. providers/aws/ec2/subnet.lua")->required();
  test->add_option("--providers", test_args->dirs,
                   "A directory of provider code the provider requires (repeatable)");
  test->callback([test_args, exit_code] { *exit_code = RunTest(*test_args); });

  auto new_args = std::make_shared<NewArgs>();
  CLI::App* create = provider->add_subcommand(
      "new", "Write a working provider for TYPE and its contract-test fixture");
  create->add_option("type", new_args->type, "The resource type, e.g. Acme::Thing::Widget")->required();
  create->add_option("--dir", new_args->dir, "Where to write acme/thing/widget.lua (default: .)");
  create->add_option("--from-schema", new_args->schema,
                     "A CloudFormation registry schema (JSON) to declare every property, attribute and "
                     "identifier from");
  create->callback([new_args, exit_code] { *exit_code = RunNew(*new_args); });
}

}  // namespace ms::cli
