#include "cli/provider_schema_commands.h"

#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/editor_setup.h"
#include "cli/io.h"
#include "cli/load_providers.h"
#include "cli/tool_runtime.h"
#include "lua/provider_host.h"
#include "template/parse.h"

namespace fs = std::filesystem;

namespace ms::cli {
namespace {

int Fail(const std::string& message) {
  std::cerr << "moonstack: " << message << "\n";
  return 1;
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

}  // namespace

int WriteProviderFiles(const Value& f, const std::string& dir, lua::Runtime* rt) {
  const fs::path provider = fs::path(dir) / f.find("provider_path")->str();
  const fs::path fixture = fs::path(dir) / f.find("fixture_path")->str();
  for (const fs::path& p : {provider, fixture}) {
    std::error_code ec;
    if (fs::exists(p, ec)) return Fail(p.string() + " already exists; not overwriting it");
  }
  std::error_code ec;
  fs::create_directories(fixture.parent_path(), ec);
  if (ec || !WriteText(provider.string(), f.find("provider")->str()) ||
      !WriteText(fixture.string(), f.find("fixture")->str())) {
    return Fail("cannot write " + provider.string() + " and " + fixture.string() + (ec ? ": " + ec.message() : ""));
  }
  std::cout << "created " << provider.string() << "\ncreated " << fixture.string() << "\n";
  if (!RunEditorSetup(dir, rt)) return 1;
  std::cout << "test it: moonstack provider test " << provider.string() << "\n";
  return 0;
}

int RunNewFromSchema(const std::string& type, const std::string& schema_file, const std::string& dir) {
  std::string text;
  if (!ReadText(schema_file, &text)) return Fail("cannot read registry schema " + schema_file);
  Value schema;
  Status s = ParseJson(text, &schema);
  if (!s.ok()) return Fail(schema_file + ": not JSON: " + s.message());
  const Value* name = schema.is_map() ? schema.find("typeName") : nullptr;
  if (name != nullptr && name->is_string() && name->str() != type) {
    return Fail(schema_file + " describes " + name->str() + ", not " + type);
  }
  ToolRuntime tool;
  s = tool.Open({}, {});
  lua::CallResult mod;
  if (s.ok()) {
    mod = tool.rt().Require("moonstack.scaffold_schema");
    if (!mod.ok()) s = mod.status();
  }
  if (!s.ok()) return Fail(s.message());
  lua::CallResult files = tool.rt().CallField(mod.refs[0], "files", {schema});
  if (!files.ok()) return Fail(schema_file + ": " + files.error->message);
  return WriteProviderFiles(files.value(), dir, &tool.rt());
}

int RunDescribeFormat(const std::vector<std::string>& dirs, const std::string& type, const std::string& format) {
  std::unique_ptr<lua::LuaProviderRuntime> rt;
  Status s = LoadProviders(dirs, &rt);
  const TypeSchema* schema = s.ok() ? rt->Schema(type) : nullptr;
  if (s.ok() && schema == nullptr) s = Status::Validation("No provider for resource type " + type);
  std::string code;
  if (s.ok() && !ReadText(schema->source, &code)) {
    s = Status::Validation(type + " has no provider file to describe (" + schema->source + ")");
  }
  if (!s.ok()) return ReportError("DescribeProvider", s);

  // The declaration itself, loaded again: the engine's TypeSchema keeps what
  // the engine needs, not descriptions and constraints.
  ToolRuntime tool;
  std::vector<std::string> roots{fs::path(schema->source).parent_path().string()};
  s = tool.Open(dirs, roots);
  lua::CallOptions keep;
  keep.results = lua::Results::kRefs;
  lua::CallResult host, decl, mod;
  if (s.ok()) host = tool.rt().Require("moonstack.host");
  if (s.ok() && !host.ok()) s = host.status();
  if (s.ok()) decl = tool.rt().CallField(host.refs[0], "load", {Value::String(code), Value::String(schema->source)}, keep);
  if (s.ok() && !decl.ok()) s = decl.status();
  // What the engine checks: the registry schema's constraints the file does not declare too.
  if (s.ok()) lua::AdoptRegistryConstraints(&tool.rt(), host.refs[0], decl.refs[0], type);
  if (s.ok()) mod = tool.rt().Require("moonstack.registry_schema");
  if (s.ok() && !mod.ok()) s = mod.status();
  if (!s.ok()) return Fail(s.message());
  lua::CallResult out = tool.rt().CallField(mod.refs[0], format == "markdown" ? "markdown" : "export", {decl.refs[0]});
  if (!out.ok()) return Fail(out.error->message);
  if (format == "markdown") {
    std::cout << out.value().str();
    return 0;
  }
  PrintJson(Json::parse(out.value().ToJson()));
  return 0;
}

}  // namespace ms::cli
