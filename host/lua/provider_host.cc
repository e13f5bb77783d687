#include "lua/provider_host.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <sys/stat.h>

#include "catalog/resource_catalog.h"
#include "catalog/resource_schemas.h"
#include "template/parse.h"
#include "lua/hook_log.h"
#include "lua/log_binding.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"

namespace fs = std::filesystem;

namespace ms::lua {
namespace {

Status ReadText(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Validation(path + ": cannot read provider file");
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return Status::OK();
}

// Every provider file under `dir`, sorted, skipping lib/, sim/ (shared
// code), tests/ (contract fixtures), custom/ (custom-resource handlers) and
// scenarios/ (scenario scripts) and hidden directories (.moonstack/).
Status ProviderFiles(const std::string& dir, std::vector<std::string>* out) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::Validation(dir + ": no such provider directory");
  fs::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    // A hidden directory is never providers: .moonstack/stubs/ holds the
    // editor's LuaLS stubs (cli/editor_setup.h), .git/ and the like.
    const std::string name = p.filename().string();
    if (it->is_directory() && (IsSharedCodeDir(name) || name == "tests" || name == "custom" ||
                               name == "scenarios" || (name.size() > 1 && name[0] == '.'))) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && p.extension() == ".lua") out->push_back(p.string());
  }
  if (ec) return Status::Validation(dir + ": " + ec.message());
  std::sort(out->begin(), out->end());
  return Status::OK();
}

TypeSchema SchemaFrom(const Value& d) {
  TypeSchema s;
  s.type = d.find("type") ? d.find("type")->str() : "";
  s.source = d.find("source") ? d.find("source")->str() : "";
  if (const Value* attrs = d.find("attributes")) {
    for (const Value& a : attrs->list()) s.attributes.push_back(a.str());
  }
  if (const Value* pid = d.find("primary_identifier")) s.primary_identifier = pid->str();
  if (const Value* pids = d.find("primary_identifiers"); pids && pids->is_list()) {
    for (const Value& p : pids->list()) s.primary_identifiers.push_back(p.str());
  }
  s.accepts_undeclared_properties = d.find("additional_properties") != nullptr &&
                                    d.find("additional_properties")->is_string();
  s.accepts_any_attribute = d.find("any_attributes") != nullptr && d.find("any_attributes")->as_bool();
  s.leaves_partial_updates =
      d.find("leaves_partial_updates") != nullptr && d.find("leaves_partial_updates")->as_bool();
  s.has_read = d.find("has_read") == nullptr || d.find("has_read")->as_bool();
  if (const Value* t = d.find("timeout_minutes"); t != nullptr && t->as_integer()) {
    s.timeout_seconds = static_cast<int>(*t->as_integer()) * 60;
  }
  if (const Value* props = d.find("properties")) {
    for (const Value& p : props->list()) {
      PropertySchema ps;
      ps.name = p.find("name")->str();
      ps.type = p.find("type")->str();
      if (const Value* items = p.find("items"); items && items->is_map() && items->find("type")) {
        ps.item_type = items->find("type")->str();
      }
      ps.required = p.find("required") && p.find("required")->as_bool();
      if (const Value* def = p.find("default")) ps.default_value = *def;
      ps.write_only = p.find("write_only") && p.find("write_only")->as_bool();
      if (const Value* c = p.find("constraints")) ps.constraints = *c;
      const std::string update = p.find("update") ? p.find("update")->str() : "replace";
      ps.conditional = update == "conditional";
      if (!ps.conditional) ParseUpdateBehavior(update, &ps.update);
      s.properties.push_back(std::move(ps));
    }
  }
  return s;
}

constexpr const char* kCustomResource = "AWS::CloudFormation::CustomResource";

// A name moonstack.stub can declare: Service::Category::Resource, alphanumeric.
bool StubbableType(std::string_view type) {
  int parts = 0;
  size_t start = 0;
  while (true) {
    size_t sep = type.find("::", start);
    std::string_view part = type.substr(start, sep == std::string_view::npos ? std::string_view::npos : sep - start);
    if (part.empty()) return false;
    for (char ch : part) {
      if (!std::isalnum(static_cast<unsigned char>(ch))) return false;
    }
    ++parts;
    if (sep == std::string_view::npos) break;
    start = sep + 2;
  }
  return parts == 3;
}

// An AWS type without a Lua provider is served by providers/lib/generic.lua,
// made from the type's registry schema in the catalog: every top-level
// property a template may set (read-only ones are outputs), "replace" when
// create-only, conditional when a path below it is, "none" otherwise.
// CatalogSchema is what that declaration describes, built here so the
// runtime can answer Schema() without Lua.
TypeSchema CatalogSchema(const ResourceTypeInfo& info) {
  TypeSchema s;
  s.type = info.type;
  s.source = "generic provider for " + info.type;
  for (const ResourceTypeInfo::Property& p : info.properties) {
    if (p.read_only) continue;
    PropertySchema ps;
    ps.name = p.name;
    ps.type = "json";
    ps.required = p.required;
    ps.update = p.create_only ? UpdateBehavior::kReplace : UpdateBehavior::kNone;
    // A create-only path below it: lib.generic compares that path at run time.
    ps.conditional = !p.create_only && p.create_only_nested;
    s.properties.push_back(std::move(ps));
  }
  s.attributes = info.attributes;
  s.accepts_any_attribute = !info.attribute_patterns.empty();
  return s;
}

// The argument of lib.generic's define() for `info`.
Value CatalogInfoValue(const ResourceTypeInfo& info) {
  Value::List props;
  for (const ResourceTypeInfo::Property& p : info.properties) {
    if (p.read_only) continue;
    Value prop = Value::MakeMap();
    prop.set("name", Value::String(p.name));
    prop.set("required", Value::Bool(p.required));
    prop.set("create_only", Value::Bool(p.create_only));
    props.push_back(std::move(prop));
  }
  Value v = Value::MakeMap();
  v.set("type", Value::String(info.type));
  v.set("properties", Value::MakeList(std::move(props)));
  v.set("attributes", Value::StringList(info.attributes));
  v.set("any_attributes", Value::Bool(!info.attribute_patterns.empty()));
  // The registry schema (tools/gen_resource_catalog.py's JSON lines), parsed
  // here, once per type and session, when the type is first served: what
  // lib.generic validates properties against and makes its values from.
  Value schema;
  std::string_view json = ResourceSchemas::Json(info.type);
  if (!json.empty() && ParseJson(json, &schema).ok()) v.set("schema", std::move(schema));
  return v;
}

// Keys in sorted order, so marshalling needs no side table for their order.
// `resource_type` (hook calls only) is the template's type: Custom::X for a
// custom resource served by AWS::CloudFormation::CustomResource's provider.
Value ContextValue(const HookContext& c, const std::string& resource_type = "") {
  Value::Map m;
  m.reserve(12);
  m.push_back({"account", Value::String(c.account_id)});
  m.push_back({"logical_id", Value::String(c.logical_id)});
  m.push_back({"now_ms", Value::Integer(c.now_ms)});
  if (!c.progress.is_null()) m.push_back({"progress", c.progress});
  m.push_back({"region", Value::String(c.region)});
  if (!resource_type.empty()) m.push_back({"resource_type", Value::String(resource_type)});
  m.push_back({"stack_id", Value::String(c.stack_id)});
  m.push_back({"stack_name", Value::String(c.stack_name)});
  if (!c.stack_tags.is_null()) m.push_back({"stack_tags", c.stack_tags});
  if (!c.old_stack_tags.is_null()) m.push_back({"old_stack_tags", c.old_stack_tags});
  if (!c.update_policy.is_null()) m.push_back({"update_policy", c.update_policy});
  if (!c.old_update_policy.is_null()) m.push_back({"old_update_policy", c.old_update_policy});
  if (!c.creation_policy.is_null()) m.push_back({"creation_policy", c.creation_policy});
  return Value::MakeMap(std::move(m));
}

// Hook calls: key order is not kept (see MarshalOptions::keep_key_order).
CallOptions HookCallOptions() {
  CallOptions o;
  o.marshal.keep_key_order = false;
  return o;
}

HookOutcome Failed(const LuaError& e) {
  HookOutcome o;
  o.kind = HookOutcome::Kind::kFailed;
  o.reason = e.message;
  o.error_code = e.code;
  o.diagnostic = e.Diagnostic();
  return o;
}

// One Runtime with the winning providers loaded.
class LuaProviderSession : public ProviderSession {
 public:
  // Loads `files`; two of them declaring one type is an error naming both.
  static Status Open(const ProviderPaths& paths, const Limits& limits, World* world,
                     const std::vector<std::string>& files, std::unique_ptr<LuaProviderSession>* out);
  // A session that loads each provider of `files` (type -> file, as
  // discovery found them) when its type is first used: a stack of two types
  // does not load the other fifty in each worker.
  static Status OpenLazy(const ProviderPaths& paths, const Limits& limits, World* world,
                         std::map<std::string, std::string> files, std::unique_ptr<LuaProviderSession>* out);

  // type -> schema of every loaded provider, and the stamp of its file as it was read.
  std::map<std::string, std::pair<const TypeSchema*, FileStamp>> LoadedSchemas() const {
    std::map<std::string, std::pair<const TypeSchema*, FileStamp>> out;
    for (const auto& [type, p] : providers_) out.emplace(type, std::make_pair(&p.schema, p.stamp));
    return out;
  }

  // Each type the next operation uses has its provider file stat'ed once
  // (in Own) and reloaded when it changed: `moonstack serve` picks up an
  // edited provider without a restart, in every worker's session.
  void NextOperation() override { checked_.clear(); }

  const TypeSchema* Schema(std::string_view type) override {
    const Loaded* p = Find(type);
    return p == nullptr ? nullptr : &p->schema;
  }

  Status Validate(std::string_view type, const HookContext& ctx, const Value& properties,
                  Value* coerced) override {
    log_->Begin("validate", ctx.logical_id);  // its prints: the engine takes them (TakeLog, Call)
    const Loaded* p = Find(type);
    if (p == nullptr) return NoProvider(type);
    // Declaration:validate reads only the logical ID (AWS's messages name
    // the resource), and it runs once per resource (a create's first call,
    // an update's plan): the whole ctx would be built and marshalled for
    // nothing.
    Value c = Value::MakeMap({{"logical_id", Value::String(ctx.logical_id)}});
    world_->set_now_ms(ctx.now_ms);
    CallResult r = rt_->CallField(host_, "validate", {p->decl, properties, c});
    if (!r.ok()) return Status::Validation(r.error->message);
    *coerced = r.value();
    return Status::OK();
  }

  Status DecideUpdate(std::string_view type, std::string_view property, const Value& old_value,
                      const Value& new_value, const HookContext& ctx, UpdateBehavior* out) override {
    log_->Begin("decide_update", ctx.logical_id);
    const Loaded* p = Find(type);
    if (p == nullptr) return NoProvider(type);
    Value name = Value::String(std::string(property));
    Value c = ContextValue(ctx);
    world_->set_now_ms(ctx.now_ms);
    static const Value kNone = Value::MakeMap();
    const Value& old_props = ctx.old_properties != nullptr ? *ctx.old_properties : kNone;
    const Value& new_props = ctx.new_properties != nullptr ? *ctx.new_properties : kNone;
    CallResult r =
        rt_->CallField(host_, "decide_update", {p->decl, name, old_value, new_value, c, old_props, new_props});
    if (!r.ok()) return Status::Validation(r.error->message);
    if (!ParseUpdateBehavior(r.value().str(), out)) {
      return Status::Validation(p->schema.source + ": update function for " + std::string(property) +
                                " returned " + r.value().ToJson());
    }
    return Status::OK();
  }

  // The world questions below are asked in the stack's region and account
  // (lua-sdk/moonstack/host.lua passes both to the sim service).
  bool ValueExists(std::string_view aws_type, std::string_view value, std::string_view region,
                   std::string_view account) override {
    Value t = Value::String(std::string(aws_type)), v = Value::String(std::string(value)),
          r = Value::String(std::string(region)), a = Value::String(std::string(account));
    CallResult res = rt_->CallField(host_, "value_exists", {t, v, r, a});
    return !res.ok() || !res.value().is_bool() || res.value().as_bool();
  }

  bool SsmParameter(std::string_view name, std::string_view region, std::string_view account,
                    std::string* value) override {
    Value n = Value::String(std::string(name)), r = Value::String(std::string(region)),
          a = Value::String(std::string(account));
    CallResult res = rt_->CallField(host_, "ssm_parameter", {n, r, a});
    if (!res.ok() || !res.value().is_string()) return false;
    *value = res.value().str();
    return true;
  }

  bool SecureSsmParameter(std::string_view name, std::string_view region, std::string_view account,
                          std::string* value) override {
    Value n = Value::String(std::string(name)), r = Value::String(std::string(region)),
          a = Value::String(std::string(account));
    CallResult res = rt_->CallField(host_, "ssm_secure_parameter", {n, r, a});
    if (!res.ok() || !res.value().is_string()) return false;
    *value = res.value().str();
    return true;
  }

  bool SecretString(std::string_view secret_id, std::string_view version_stage, std::string_view version_id,
                    std::string_view region, std::string_view account, std::string* value,
                    std::string* error) override {
    Value id = Value::String(std::string(secret_id)), stage = Value::String(std::string(version_stage)),
          version = Value::String(std::string(version_id)), r = Value::String(std::string(region)),
          a = Value::String(std::string(account));
    CallResult res = rt_->CallField(host_, "secret_string", {id, stage, version, r, a});
    if (!res.ok()) {
      *error = res.error->message;
      return false;
    }
    const Value& v = res.value();
    const Value* got = v.is_map() ? v.find("SecretString") : nullptr;
    if (got != nullptr && got->is_string()) {
      *value = got->str();
      return true;
    }
    const Value* message = v.is_map() ? v.find("Message") : nullptr;
    *error = message != nullptr && message->is_string() ? message->str() : "Secrets Manager can't find the specified secret.";
    return false;
  }

  bool S3BucketHasObjects(std::string_view bucket, std::string_view account) override {
    CallResult res = rt_->CallField(host_, "s3_bucket_has_objects",
                                    {Value::String(std::string(bucket)), Value::String(std::string(account))});
    return res.ok() && res.value().is_bool() && res.value().as_bool();
  }

  bool S3Object(std::string_view bucket, std::string_view key, std::string_view account, std::string* body,
                std::string* error_code, std::string* error_message) override {
    Value b = Value::String(std::string(bucket)), k = Value::String(std::string(key));
    CallResult res = rt_->CallField(host_, "s3_object", {b, k, Value::String(std::string(account))});
    if (!res.ok()) {
      *error_code = "InternalError";
      *error_message = res.error->message;
      return false;
    }
    const Value& v = res.value();
    const Value* got = v.is_map() ? v.find("Body") : nullptr;
    if (got != nullptr && got->is_string()) {
      *body = got->str();
      return true;
    }
    const Value* code = v.is_map() ? v.find("Code") : nullptr;
    const Value* message = v.is_map() ? v.find("Message") : nullptr;
    *error_code = code != nullptr && code->is_string() ? code->str() : "InternalError";
    *error_message = message != nullptr && message->is_string() ? message->str() : "";
    return false;
  }

  HookOutcome Call(const HookCall& call) override {
    log_->Begin("", "");  // after what an earlier Validate or DecideUpdate printed, which names itself
    const Loaded* p = Find(call.type);
    if (p == nullptr) {
      HookOutcome o;
      o.kind = HookOutcome::Kind::kFailed;
      o.reason = NoProvider(call.type).message();
      log_->MoveInto(&o);
      return o;
    }
    HookOutcome o = RunHook(*p, call);
    log_->MoveInto(&o);
    return o;
  }

  void TakeLog(std::vector<ProviderLogLine>* lines, int64_t* dropped) override { log_->MoveInto(lines, dropped); }

 private:
  struct Loaded {
    Ref decl;
    TypeSchema schema;
    std::string file;  // the provider file it came from (empty: a generic or stub fallback)
    FileStamp stamp;   // that file as it was just before it was read
  };

  struct LoadError {
    std::string file;
    std::string message;  // the load's error, "file:line: ..." for a Lua error in the file
  };

  HookOutcome RunHook(const Loaded& loaded, const HookCall& call) {
    const Loaded* p = &loaded;
    Value hook = Value::String(HookName(call.hook));
    Value ctx = ContextValue(call.ctx, call.type);
    world_->set_now_ms(call.ctx.now_ms);  // the world's clock is the engine's
    Value id = call.physical_id.empty() ? Value() : Value::String(call.physical_id);
    Value changed = Value::StringList(call.changed);
    static const CallOptions kHookOptions = HookCallOptions();
    CallResult r = rt_->CallField(host_, "call",
                                  {p->decl, hook, ctx, id, call.properties, call.old_properties, changed},
                                  kHookOptions);
    if (!r.ok()) {
      log_->AppendError(*r.error);
      return Failed(*r.error);
    }
    if (call.hook == Hook::kRead && r.value().find("gone") != nullptr) return NotFound(call);
    return OutcomeFrom(r.value());
  }

  // The provider of `type`: its own, else (Custom::X) the custom-resource
  // provider, else a generic one (an AWS type: lib.generic; any other type
  // when stubbing unknown types: moonstack.stub). Fallbacks are made once.
  const Loaded* Find(std::string_view type) {
    if (const Loaded* p = Own(std::string(type))) return p;
    if (ResourceCatalog::IsCustomType(type)) {
      if (const Loaded* p = Own(kCustomResource)) return p;
    }
    auto it = fallbacks_.find(std::string(type));
    if (it != fallbacks_.end()) return &it->second;
    return MakeFallback(std::string(type));
  }

  // The provider file declaring `type`, loaded now if it was not yet, or
  // again if it changed since (checked once per operation).
  const Loaded* Own(const std::string& type) {
    if (checked_.insert(type).second) ForgetIfChanged(type);
    auto it = providers_.find(type);
    if (it != providers_.end()) return &it->second;
    auto file = unloaded_.find(type);
    if (file == unloaded_.end()) return nullptr;
    const std::string path = file->second;
    unloaded_.erase(file);
    Status s = LoadFile(path);
    if (!s.ok()) {
      load_errors_[type] = LoadError{path, s.message()};
      return nullptr;
    }
    it = providers_.find(type);
    return it == providers_.end() ? nullptr : &it->second;
  }

  // A loaded provider whose file changed since, or one whose file failed to
  // load, goes back to the files to load: the next Own loads it again. A
  // failed reload leaves the type without a provider for this operation
  // (its calls fail with the load's error); the next operation tries again.
  void ForgetIfChanged(const std::string& type) {
    auto it = providers_.find(type);
    if (it != providers_.end()) {
      if (it->second.file.empty() || StampOf(it->second.file) == it->second.stamp) return;
      unloaded_[type] = it->second.file;
      providers_.erase(it);
      return;
    }
    auto e = load_errors_.find(type);
    if (e != load_errors_.end()) {
      unloaded_[type] = e->second.file;
      load_errors_.erase(e);
    }
  }

  Status NoProvider(std::string_view type) const {
    auto e = load_errors_.find(std::string(type));
    if (e != load_errors_.end()) return Status::Validation(e->second.message);
    return Status::Validation("No provider for resource type " + std::string(type));
  }

  // Runs one provider file and keeps its declaration under the type it declares.
  Status LoadFile(const std::string& file) {
    CallOptions keep;
    keep.results = Results::kRefs;
    std::string code;
    const FileStamp stamp = StampOf(file);  // before the read: a write during it shows next time
    MS_RETURN_IF_ERROR(ReadText(file, &code));
    CallResult decl = rt_->CallField(host_, "load", {Value::String(code), Value::String(file)}, keep);
    if (!decl.ok()) return Status::Validation(decl.error->message);
    CallResult described = rt_->CallField(host_, "describe", {decl.refs[0]});
    if (!described.ok()) return Status::Validation(described.error->message);
    if (AdoptRegistryConstraints(rt_.get(), host_, decl.refs[0], SchemaFrom(described.value()).type)) {
      described = rt_->CallField(host_, "describe", {decl.refs[0]});
      if (!described.ok()) return Status::Validation(described.error->message);
    }
    Loaded loaded{std::move(decl.refs[0]), SchemaFrom(described.value()), file, stamp};
    const std::string type = loaded.schema.type;
    auto [it, inserted] = providers_.emplace(type, std::move(loaded));
    if (!inserted) {
      return Status::Validation(file + ": declares " + type + ", already declared by " + it->second.schema.source);
    }
    return Status::OK();
  }

  const Loaded* MakeFallback(const std::string& type) {
    CallOptions keep;
    keep.results = Results::kRefs;
    CallResult decl;
    if (const ResourceTypeInfo* info = ResourceCatalog::Aws().Find(type)) {
      if (!generic_module_.valid()) {
        CallResult m = rt_->Require("lib.generic");
        if (!m.ok()) return nullptr;  // providers/ not on the path (tests)
        generic_module_ = std::move(m.refs[0]);
      }
      decl = rt_->CallField(generic_module_, "define", {CatalogInfoValue(*info)}, keep);
    } else if (stub_unknown_types_ && StubbableType(type)) {
      if (!stub_module_.valid()) {
        CallResult m = rt_->Require("moonstack.stub");
        if (!m.ok()) return nullptr;
        stub_module_ = std::move(m.refs[0]);
      }
      Value opts = Value::MakeMap();
      opts.set("attributes", Value::MakeList());
      decl = rt_->CallField(stub_module_, "define", {Value::String(type), opts}, keep);
    } else {
      return nullptr;
    }
    if (!decl.ok()) return nullptr;
    CallResult described = rt_->CallField(host_, "describe", {decl.refs[0]});
    if (!described.ok()) return nullptr;
    Loaded loaded{std::move(decl.refs[0]), SchemaFrom(described.value()), "", FileStamp()};
    return &fallbacks_.emplace(type, std::move(loaded)).first->second;
  }

  // A read that found no resource (the hook answered nil), as cloudformation-cli's
  // contract has a read handler answer: NotFound, with the registry handlers' text.
  static HookOutcome NotFound(const HookCall& call) {
    HookOutcome o;
    o.kind = HookOutcome::Kind::kFailed;
    o.error_code = "NotFound";
    o.reason = "Resource of type '" + call.type + "' with identifier '" + call.physical_id + "' was not found.";
    return o;
  }

  static HookOutcome OutcomeFrom(const Value& v) {
    HookOutcome o;
    const Value* state = v.find("state");
    if (state && state->str() == "in_progress") {
      o.kind = HookOutcome::Kind::kInProgress;
      o.after_seconds = v.find("after") ? v.find("after")->as_double().value_or(0) : 0;
      if (const Value* progress = v.find("progress")) o.progress = *progress;
      if (const Value* id = v.find("id")) o.physical_id = id->str();
      if (const Value* reasons = v.find("reasons"); reasons != nullptr && reasons->is_list()) {
        for (const Value& r : reasons->list()) o.progress_reasons.push_back(r.str());
      }
      return o;
    }
    if (const Value* id = v.find("id")) o.physical_id = id->str();
    if (const Value* attrs = v.find("attributes")) o.attributes = *attrs;
    if (const Value* props = v.find("properties")) o.properties = *props;
    return o;
  }

  std::unique_ptr<HookLog> log_;  // the running hook's log: ctx.log (log_binding_) and print
  std::unique_ptr<Runtime> rt_;
  std::unique_ptr<WorldBinding> world_;
  std::unique_ptr<LogBinding> log_binding_;
  Ref host_;
  std::map<std::string, Loaded> providers_;
  std::map<std::string, std::string> unloaded_;     // type -> provider file not loaded yet (OpenLazy)
  std::map<std::string, LoadError> load_errors_;    // type -> why its file failed to load
  std::set<std::string> checked_;                  // types whose file was checked in this operation
  bool stub_unknown_types_ = false;
  Ref generic_module_;                       // lib.generic, loaded on first use
  Ref stub_module_;                          // moonstack.stub, loaded on first use
  std::map<std::string, Loaded> fallbacks_;  // type -> generic or stub declaration
};

Status LuaProviderSession::Open(const ProviderPaths& paths, const Limits& limits, World* world,
                                const std::vector<std::string>& files,
                                std::unique_ptr<LuaProviderSession>* out) {
  auto session = std::unique_ptr<LuaProviderSession>(new LuaProviderSession());
  session->log_ = std::make_unique<HookLog>(paths);
  HookLog* log = session->log_.get();
  auto sink = [log](LogLevel level, std::string_view text) { log->Append(level, text); };
  MS_RETURN_IF_ERROR(OpenProviderState(paths, limits, world, &session->rt_, &session->world_,
                                       // print: the hook's log, never the process's stdout
                                       [sink](std::string_view line) { sink(LogLevel::kInfo, line); }));
  MS_RETURN_IF_ERROR(LogBinding::Install(session->rt_.get(), sink, &session->log_binding_));
  CallResult host = session->rt_->Require("moonstack.host");
  if (!host.ok()) return host.status();
  session->host_ = std::move(host.refs[0]);
  session->stub_unknown_types_ = paths.stub_unknown_types;
  for (const std::string& file : files) MS_RETURN_IF_ERROR(session->LoadFile(file));
  *out = std::move(session);
  return Status::OK();
}

Status LuaProviderSession::OpenLazy(const ProviderPaths& paths, const Limits& limits, World* world,
                                    std::map<std::string, std::string> files,
                                    std::unique_ptr<LuaProviderSession>* out) {
  MS_RETURN_IF_ERROR(Open(paths, limits, world, {}, out));
  (*out)->unloaded_ = std::move(files);
  return Status::OK();
}

}  // namespace

FileStamp StampOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return {};
  return {static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
          static_cast<int64_t>(st.st_size)};
}

bool AdoptRegistryConstraints(Runtime* rt, const Ref& host, const Ref& decl, const std::string& type) {
  std::string_view json = ResourceSchemas::Json(type);
  Value schema;
  if (json.empty() || !ParseJson(json, &schema).ok()) return false;
  const Value* properties = schema.find("properties");
  if (properties == nullptr || !properties->is_map()) return false;
  // The registry's checks inside a property the provider takes as plain JSON
  // come from the providers' schema validator (providers/lib), when it is
  // on the module path; without it, the top-level constraints alone.
  CallResult validator = rt->Require("lib.schema_validate");
  const bool nested = validator.ok() && !validator.refs.empty();
  return rt->CallField(host, "adopt_registry_constraints", {decl, schema, nested ? Arg(validator.refs[0]) : Arg::Nil()})
      .ok();
}

bool IsSharedCodeDir(std::string_view name) {
  for (const char* dir : kSharedCodeDirs) {
    if (name == dir) return true;
  }
  return false;
}

Status OpenProviderState(const ProviderPaths& paths, const Limits& limits, World* world,
                         std::unique_ptr<Runtime>* rt, std::unique_ptr<WorldBinding>* binding,
                         std::function<void(std::string_view)> print) {
  RuntimeOptions options;
  options.limits = limits;
  options.print = std::move(print);
  options.module_roots.push_back(paths.sdk_dir);
  // Providers `require` their shared code (lib/, sim/) from their own dirs.
  for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
  Status s;
  *rt = Runtime::Create(options, &s);
  if (!*rt) return s;
  return WorldBinding::Install(rt->get(), world, binding);
}

ProviderPaths DefaultProviderPaths(const std::string& home, const std::vector<std::string>& extra) {
  ProviderPaths paths;
  paths.sdk_dir = home + "/lua-sdk";
  paths.dirs.push_back(home + "/providers");
  if (const char* env = std::getenv("MOONSTACK_PROVIDER_PATH")) {
    std::string list = env;
    size_t start = 0;
    while (start <= list.size()) {
      size_t colon = list.find(':', start);
      std::string dir = list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty()) paths.dirs.push_back(dir);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  for (const std::string& d : extra) paths.dirs.push_back(d);
  return paths;
}

Status LuaProviderRuntime::Create(const ProviderPaths& paths, const Limits& limits,
                                  std::unique_ptr<LuaProviderRuntime>* out, World* world) {
  auto rt = std::unique_ptr<LuaProviderRuntime>(new LuaProviderRuntime());
  rt->paths_ = paths;
  rt->limits_ = limits;
  if (world == nullptr) {
    rt->own_world_ = std::make_unique<World>();
    world = rt->own_world_.get();
  }
  rt->world_ = world;

  // Each directory is probed alone: a type declared twice in one directory
  // is an error, while a later directory overrides an earlier one.
  for (const std::string& dir : paths.dirs) {
    std::vector<std::string> files;
    MS_RETURN_IF_ERROR(ProviderFiles(dir, &files));
    std::unique_ptr<LuaProviderSession> probe;
    MS_RETURN_IF_ERROR(LuaProviderSession::Open(paths, limits, rt->world_, files, &probe));
    for (const auto& [type, loaded] : probe->LoadedSchemas()) {
      const TypeSchema* schema = loaded.first;
      auto previous = rt->files_.find(type);
      if (previous != rt->files_.end()) {
        rt->notes_.push_back("provider for " + type + " from " + schema->source + " overrides " +
                             previous->second);
      }
      rt->files_[type] = schema->source;
      rt->schemas_[type] = std::make_unique<TypeSchema>(*schema);
      rt->stamps_[type] = loaded.second;
    }
  }
  *out = std::move(rt);
  return Status::OK();
}

Status LuaProviderRuntime::NewSession(std::unique_ptr<ProviderSession>* out) {
  std::unique_ptr<LuaProviderSession> session;
  MS_RETURN_IF_ERROR(LuaProviderSession::OpenLazy(paths_, limits_, world_, files_, &session));
  *out = std::move(session);
  return Status::OK();
}

std::vector<std::string> LuaProviderRuntime::Types() const {
  std::vector<std::string> types;
  for (const auto& [type, _] : files_) types.push_back(type);
  return types;
}

void LuaProviderRuntime::ReloadChanged() {
  std::vector<std::pair<std::string, FileStamp>> changed;  // type, its file's stamp now
  {
    std::lock_guard<std::mutex> lock(schema_mu_);
    for (const auto& [type, stamp] : stamps_) {
      const FileStamp now = StampOf(files_.at(type));
      if (!(now == stamp)) changed.emplace_back(type, now);
    }
  }
  for (const auto& [type, stamp] : changed) {
    std::unique_ptr<LuaProviderSession> probe;
    // Not loaded (a broken edit): the old schema stays, and this stamp, so
    // the file is not loaded again before it changes again.
    Status s = LuaProviderSession::Open(paths_, limits_, world_, {files_.at(type)}, &probe);
    std::lock_guard<std::mutex> lock(schema_mu_);
    stamps_[type] = stamp;
    if (!s.ok()) continue;
    const auto schemas = probe->LoadedSchemas();
    auto loaded = schemas.find(type);
    if (loaded == schemas.end()) continue;  // the file declares another type now
    std::unique_ptr<TypeSchema>& slot = schemas_[type];
    retired_.push_back(std::move(slot));
    slot = std::make_unique<TypeSchema>(*loaded->second.first);
  }
}

const TypeSchema* LuaProviderRuntime::Schema(std::string_view type) const {
  {
    std::lock_guard<std::mutex> lock(schema_mu_);
    auto it = schemas_.find(std::string(type));
    if (it != schemas_.end()) return it->second.get();
    if (ResourceCatalog::IsCustomType(type)) {
      it = schemas_.find(kCustomResource);
      if (it != schemas_.end()) return it->second.get();
    }
  }
  const ResourceTypeInfo* info = ResourceCatalog::Aws().Find(type);
  if (info == nullptr && (!paths_.stub_unknown_types || !StubbableType(type))) return nullptr;
  std::lock_guard<std::mutex> lock(fallback_mu_);
  auto [fallback, inserted] = fallback_schemas_.try_emplace(std::string(type));
  if (inserted) {
    if (info != nullptr) {
      fallback->second = CatalogSchema(*info);
    } else {  // what moonstack.stub declares: no properties, any property and attribute
      fallback->second.type = std::string(type);
      fallback->second.source = "moonstack.stub (" + std::string(type) + ")";
      fallback->second.accepts_undeclared_properties = true;
      fallback->second.accepts_any_attribute = true;
    }
  }
  return &fallback->second;
}

}  // namespace ms::lua
