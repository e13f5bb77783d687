// provider list / describe: what the provider directories offer.
// provider test FILE: the contract test kit (lua-sdk/moonstack/contract.lua).
// provider new TYPE: a working provider and its fixture (moonstack.scaffold),
// and the editor's stubs beside them (editor_setup.h).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/editor_setup.h"
#include "cli/io.h"
#include "cli/load_providers.h"
#include "lua/provider_host.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "world/world.h"

namespace fs = std::filesystem;

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

// A Lua runtime for the provider tooling: the lua-sdk and the provider
// directories on the module path (so `require("sim")` and a provider's lib/
// work), and `moonstack.world` a fresh, empty World on virtual time. What Lua
// prints goes to stdout: the contract kit prints its report that way.
class ToolRuntime {
 public:
  Status Open(const std::vector<std::string>& dirs, const std::vector<std::string>& extra_roots) {
    lua::ProviderPaths paths = lua::DefaultProviderPaths(Home(), dirs);
    lua::RuntimeOptions options;
    // One call runs a provider's whole contract (milliseconds for a sound
    // one); a hook that never returns stops the run at this deadline.
    options.limits.deadline = std::chrono::milliseconds(20000);
    options.limits.memory_bytes = size_t{256} << 20;
    options.module_roots.push_back(paths.sdk_dir);
    for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
    for (const std::string& d : extra_roots) options.module_roots.push_back(d);
    options.print = [](std::string_view line) { std::cout << line << std::endl; };
    Status s;
    rt_ = lua::Runtime::Create(options, &s);
    if (!rt_) return s;
    return lua::WorldBinding::Install(rt_.get(), &world_, &binding_);
  }
  lua::Runtime& rt() { return *rt_; }

 private:
  World world_;
  std::unique_ptr<lua::Runtime> rt_;
  std::unique_ptr<lua::WorldBinding> binding_;
};

bool ReadText(const std::string& path, std::string* text) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
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
};

bool WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

// The editor's files beside a new provider (editor_setup.h); false when
// they could not be written.
bool RunEditorSetup(const std::string& dir, lua::Runtime* rt) {
  EditorSetup setup;
  Status s = WriteEditorSetup(dir, lua::DefaultProviderPaths(Home(), {}), rt, &setup);
  if (!s.ok()) {
    std::cerr << "moonstack: cannot write the editor setup in " << dir << ": " << s.message() << "\n";
    return false;
  }
  for (const auto& [module, stub] : setup.missing) {
    std::cerr << "moonstack: no LuaLS stub for module " << module << " (add " << stub << ")\n";
  }
  std::cout << "created " << (fs::path(dir) / kStubDir).string() << "/ (" << setup.written.size() - !setup.kept_luarc
            << " LuaLS stubs)\n";
  if (setup.kept_luarc) {
    std::cout << "kept " << (fs::path(dir) / ".luarc.json").string() << " (workspace.library: " << kStubDir << ")\n";
  } else {
    std::cout << "created " << (fs::path(dir) / ".luarc.json").string() << "\n";
  }
  return true;
}

int RunNew(const NewArgs& args) {
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
  const Value& f = files.value();
  const fs::path provider = fs::path(args.dir) / f.find("provider_path")->str();
  const fs::path fixture = fs::path(args.dir) / f.find("fixture_path")->str();
  for (const fs::path& p : {provider, fixture}) {
    std::error_code ec;
    if (fs::exists(p, ec)) {
      std::cerr << "moonstack: " << p.string() << " already exists; not overwriting it\n";
      return 1;
    }
  }
  std::error_code ec;
  fs::create_directories(fixture.parent_path(), ec);
  if (ec || !WriteText(provider, f.find("provider")->str()) || !WriteText(fixture, f.find("fixture")->str())) {
    std::cerr << "moonstack: cannot write " << provider.string() << " and " << fixture.string()
              << (ec ? ": " + ec.message() : "") << "\n";
    return 1;
  }
  std::cout << "created " << provider.string() << "\ncreated " << fixture.string() << "\n";
  if (!RunEditorSetup(args.dir, &tool.rt())) return 1;
  std::cout << "test it: moonstack provider test " << provider.string() << "\n";
  return 0;
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
  create->callback([new_args, exit_code] { *exit_code = RunNew(*new_args); });
}

}  // namespace ms::cli
