#include "lua/scenario.h"

#include <cctype>
#include <ctime>
#include <fstream>
#include <sstream>

namespace ms::lua {
namespace {

// The script's chunk name. Short and fixed, so Lua never truncates it
// (LUA_IDSIZE) and positions read "scenario:12"; messages put the real path
// back (ScriptPosition).
constexpr const char* kChunkName = "=scenario";
constexpr const char* kChunkShort = "scenario:";

// "2026-01-02T03:04:05.678000+00:00": DescribeStackEvents' Timestamp as the
// aws CLI prints it.
std::string Timestamp(int64_t ms) {
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03d000+00:00", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

// The line number after "scenario:" at `pos` in `text`, or "".
std::string LineAt(const std::string& text, size_t pos) {
  size_t i = pos + std::char_traits<char>::length(kChunkShort);
  size_t j = i;
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
  return text.substr(i, j - i);
}

Value EventValue(const StackEvent& e) {
  Value v = Value::MakeMap();
  v.set("StackId", Value::String(e.stack_id));
  v.set("EventId", Value::String(e.event_id));
  v.set("StackName", Value::String(e.stack_name));
  v.set("LogicalResourceId", Value::String(e.logical_id));
  v.set("PhysicalResourceId", Value::String(e.physical_id));
  v.set("ResourceType", Value::String(e.type));
  v.set("Timestamp", Value::String(Timestamp(e.timestamp_ms)));
  v.set("ResourceStatus", Value::String(e.status));
  if (!e.reason.empty()) v.set("ResourceStatusReason", Value::String(e.reason));
  if (!e.properties.empty()) v.set("ResourceProperties", Value::String(e.properties));
  if (!e.client_request_token.empty()) v.set("ClientRequestToken", Value::String(e.client_request_token));
  return v;
}

Value CallValue(const HookCall& call) {
  Value v = Value::MakeMap();
  v.set("action", Value::String(HookName(call.hook)));
  v.set("logical_id", Value::String(call.ctx.logical_id));
  // A hook called again after answering "in progress" carries its progress.
  v.set("phase", Value::String(call.ctx.progress.is_null() ? "start" : "poll"));
  if (!call.physical_id.empty()) v.set("physical_id", Value::String(call.physical_id));
  v.set("stack_name", Value::String(call.ctx.stack_name));
  v.set("type", Value::String(call.type));
  return v;
}

}  // namespace

Status ScenarioObserver::Load(const ScenarioOptions& options, std::unique_ptr<ScenarioObserver>* out) {
  const std::string& file = options.file;
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::Validation("Scenario script " + file + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string code = text.str();

  auto sc = std::unique_ptr<ScenarioObserver>(new ScenarioObserver(options));
  RuntimeOptions ro;
  ro.limits = options.limits;
  ro.module_roots = options.module_roots;
  ScenarioObserver* raw = sc.get();
  // print (INFO) and the script's `log` go to the operation's provider log.
  ro.print = [raw](std::string_view line) { raw->Append(LogLevel::kInfo, line); };
  Status s;
  sc->rt_ = Runtime::Create(ro, &s);
  if (!sc->rt_) return s;
  MS_RETURN_IF_ERROR(WorldBinding::Install(sc->rt_.get(), options.world, &sc->binding_));
  MS_RETURN_IF_ERROR(LogBinding::Install(
      sc->rt_.get(), [raw](LogLevel level, std::string_view text) { raw->Append(level, text); },
      &sc->log_binding_));
  sc->binding_->set_now_ms(options.now_ms);

  CallResult mod = sc->rt_->Require("moonstack.scenario");
  if (!mod.ok()) return mod.status();
  Value setup = Value::MakeMap();
  setup.set("account", Value::String(options.account_id));
  setup.set("region", Value::String(options.region));
  CallOptions keep;
  keep.results = Results::kRefs;
  // The script runs in the state's globals (Eval): the scenario's functions
  // go there, not into the module's own globals.
  CallResult globals = sc->rt_->Eval("return _G", "=[scenario globals]", keep);
  if (!globals.ok()) return globals.status();
  CallResult made = sc->rt_->CallField(mod.refs[0], "setup", {setup, globals.refs[0]}, keep);
  if (!made.ok()) return made.status();
  sc->scenario_ = std::move(made.refs[0]);

  CallResult ran = sc->rt_->Eval(code, kChunkName);
  if (!ran.ok()) return Status::Validation(sc->Describe(*ran.error, ""));
  *out = std::move(sc);
  return Status::OK();
}

ScenarioObserver::~ScenarioObserver() {
  scenario_.Reset();  // before the Runtime it belongs to
}

std::string ScenarioObserver::Describe(const LuaError& e, const std::string& what) const {
  // Where in the script: the error's own position when it is the script's,
  // else (an error raised inside sim code the script called) the script's
  // innermost frame in the traceback; a syntax error carries it in its text.
  std::string message = e.message;
  std::string line;
  if (e.location.rfind(kChunkShort, 0) == 0) {
    line = LineAt(e.location, 0);
  } else if (message.rfind(kChunkShort, 0) == 0) {
    line = LineAt(message, 0);
    const std::string prefix = std::string(kChunkShort) + line + ": ";
    if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
  } else {
    size_t at = e.traceback.find(std::string("\t") + kChunkShort);
    if (at != std::string::npos) line = LineAt(e.traceback, at + 1);
  }
  // The limits' messages speak of providers ("provider call exceeded its
  // deadline of 2 s"): here it is the script.
  const std::string provider_call = "provider call ";
  if ((e.kind == LuaErrorKind::kDeadline || e.kind == LuaErrorKind::kMemory) &&
      message.rfind(provider_call, 0) == 0) {
    message = "the script " + message.substr(provider_call.size());
  }
  std::string out = "Scenario script " + options_.file + (line.empty() ? "" : ":" + line) + ": ";
  if (!what.empty()) out += what + ": ";
  out += message;
  if (!e.code.empty()) out += " (" + e.code + ")";
  return out;
}

void ScenarioObserver::Failed(const LuaError& e, const std::string& what) {
  failed_ = true;
  std::lock_guard<std::mutex> lock(mu_);
  if (error_.ok()) error_ = Status::Validation(Describe(e, what));
}

Status ScenarioObserver::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

void ScenarioObserver::Append(LogLevel level, std::string_view text) {
  std::vector<ProviderLogLine>& lines = lines_[stack_id_];
  if (lines.size() >= kProviderLogMaxLines) return;  // the operation's cap; a runaway script's rest is dropped
  ProviderLogLine line;
  line.level = level;
  line.message.assign(text.substr(0, kProviderLogMaxLineBytes + 1));
  line.logical_id = logical_id_;
  line.function = "scenario";
  lines.push_back(std::move(line));
}

void ScenarioObserver::TakeLog(const std::string& stack_id, std::vector<ProviderLogLine>* lines) {
  for (const std::string& id : {std::string(), stack_id}) {  // the top level's first
    auto it = lines_.find(id);
    if (it == lines_.end()) continue;
    for (ProviderLogLine& line : it->second) lines->push_back(std::move(line));
    lines_.erase(it);
  }
}

void ScenarioObserver::OnEvent(const StackEvent& event) {
  if (failed_) return;
  stack_id_ = event.stack_id;
  logical_id_ = event.logical_id;
  binding_->set_now_ms(event.timestamp_ms);  // what the handler's actions see as "now"
  Value ev = EventValue(event);
  CallResult r = rt_->CallMethod(scenario_, "event", {ev});
  if (!r.ok()) {
    Failed(*r.error, "in the handler of " + event.logical_id + " " + event.status);
    return;
  }
  if (r.value().is_bool() && r.value().as_bool()) cancel_requested_ = true;  // a handler called cancel_update()
}

bool ScenarioObserver::TakeCancelRequest() {
  const bool requested = cancel_requested_;
  cancel_requested_ = false;
  return requested;
}

bool ScenarioObserver::BeforeCall(const HookCall& call, HookOutcome* injected, double* latency_seconds) {
  if (failed_) return false;
  stack_id_ = call.ctx.stack_id;
  logical_id_ = call.ctx.logical_id;
  binding_->set_now_ms(call.ctx.now_ms);
  Value c = CallValue(call);
  CallResult r = rt_->CallMethod(scenario_, "before_call", {c});
  if (!r.ok()) {
    Failed(*r.error, std::string("matching the ") + HookName(call.hook) + " call of " + call.ctx.logical_id);
    return false;
  }
  const Value& v = r.value();
  if (!v.is_map()) return false;
  if (const Value* latency = v.find("latency")) *latency_seconds = latency->as_double().value_or(0);
  const Value* fail = v.find("fail");
  if (fail == nullptr || !fail->is_map()) return false;
  injected->kind = HookOutcome::Kind::kFailed;
  injected->reason = fail->find("message") ? fail->find("message")->str() : "";
  const Value* code = fail->find("code");
  injected->diagnostic = "injected by scenario script " + options_.file +
                         (code != nullptr && code->is_string() ? " (" + code->str() + ")" : "");
  return true;
}

}  // namespace ms::lua
