// moonstack world list | show | call | load | reset: the simulated cloud,
// inspected and changed out of band (a test terminating an instance behind
// a stack's back, registering an instance-store image, ...). And `moonstack
// logs NAME`: a log group's events (a Lambda function's output).
//
// Each command opens the state file, loads the world, runs, and saves what
// changed. Actions run in the same sim (providers/sim/) the providers call,
// with AWS's action names and request/response shapes.
#include <fcntl.h>
#include <httplib.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/provider_log_command.h"
#include "lua/provider_host.h"
#include "lua/runtime.h"
#include "lua/world_binding.h"
#include "server/sim_call.h"
#include "store/blob_store.h"
#include "store/schema.h"
#include "store/state_lock.h"
#include "store/world_table.h"
#include "template/parse.h"

namespace ms::cli {
namespace {

// An account ID is 12 digits (as in an ARN); the simulated services act in
// that account (providers/sim/world.lua).
const CLI::Validator AccountId(
    [](const std::string& v) {
      const bool ok = v.size() == 12 && v.find_first_not_of("0123456789") == std::string::npos;
      return ok ? std::string() : "Invalid account ID '" + v + "': an account ID is 12 digits";
    },
    "ACCOUNT");

struct WorldArgs {
  std::string state;               // --state
  std::vector<std::string> dirs;   // --providers (a user's own sim services)
  std::string region = "us-east-1";
  std::string account;             // call/logs --account ("": the default account)
  std::string kind;                // list/show --kind
  std::string id;                  // show ID
  std::string service, action;     // call SERVICE ACTION
  std::string params = "{}";       // call ... JSON
  std::string file;                // load FILE
  std::string filter;              // logs --filter
};

// The world of the state file, and a Lua runtime whose `moonstack.world` is it.
class WorldSession {
 public:
  // A writer (call, load, reset) holds the state's lock (store/state_lock.h):
  // a running server's world is its own until it stops.
  Status Open(const WorldArgs& args, bool writes) {
    if (writes) {
      MS_RETURN_IF_ERROR(StateLock::Acquire(StatePath(args.state), "moonstack world", StateLock::Wait::kUnlessServed,
                                            &lock_));
    }
    MS_RETURN_IF_ERROR(OpenStore(StatePath(args.state), &db_));
    if (writes) MS_RETURN_IF_ERROR(DeletePendingBlobs(db_.get()));  // what a crash left half-written
    blobs_ = std::make_unique<StoreBlobSource>(StatePath(args.state));
    world_.set_blob_source(blobs_.get());
    MS_RETURN_IF_ERROR(LoadWorld(db_.get(), &world_));
    lua::ProviderPaths paths = lua::DefaultProviderPaths(Home(), args.dirs);
    lua::RuntimeOptions options;
    options.module_roots.push_back(paths.sdk_dir);
    for (const std::string& d : paths.dirs) options.module_roots.push_back(d);
    options.print = [](std::string_view line) { std::cerr << line << "\n"; };
    Status s;
    rt_ = lua::Runtime::Create(options, &s);
    if (!rt_) return s;
    MS_RETURN_IF_ERROR(lua::WorldBinding::Install(rt_.get(), &world_, &binding_));
    // Out-of-band changes happen now, in real time.
    binding_->set_now_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count());
    return Status::OK();
  }
  Status Save(size_t* written = nullptr) { return SaveWorld(db_.get(), &world_, written); }

  World& world() { return world_; }
  lua::Runtime& rt() { return *rt_; }

 private:
  std::unique_ptr<StateLock> lock_;
  std::unique_ptr<StoreBlobSource> blobs_;  // the world's blob reader (outlives it)
  World world_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<lua::Runtime> rt_;
  std::unique_ptr<lua::WorldBinding> binding_;
};

Json ToJson(const Value& v) { return Json::parse(v.ToJson()); }

std::string StripPrefix(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s;
}

int RunList(const WorldArgs& args) {
  WorldSession w;
  Status s = w.Open(args, /*writes=*/false);
  if (!s.ok()) return ReportError("ListWorld", s);
  auto lock = w.world().Lock();
  Json records = Json::array();
  for (const std::string& kind : w.world().Kinds()) {
    if (!args.kind.empty() && kind != args.kind) continue;
    for (const std::string& id : w.world().Ids(kind)) {
      records.push_back(Json{{"Kind", kind}, {"Id", id}, {"Live", w.world().Find(kind, id)->live}});
    }
  }
  PrintJson(Json{{"Records", records}});
  return 0;
}

int RunShow(const WorldArgs& args) {
  WorldSession w;
  Status s = w.Open(args, /*writes=*/false);
  if (!s.ok()) return ReportError("ShowWorld", s);
  auto lock = w.world().Lock();
  Json found = Json::array();
  for (const std::string& kind : w.world().Kinds()) {
    if (!args.kind.empty() && kind != args.kind) continue;
    if (const WorldRecord* r = w.world().Find(kind, args.id)) {
      found.push_back(Json{{"Kind", kind}, {"Id", args.id}, {"Live", r->live}, {"Refs", r->refs},
                           {"Data", ToJson(r->value())}});
    }
  }
  if (found.empty()) return ReportError("ShowWorld", Status::NotFound("No world record with id " + args.id));
  if (found.size() > 1) {
    return ReportError("ShowWorld", Status::Validation("Several world records have id " + args.id +
                                                       ": name one with --kind"));
  }
  PrintJson(found[0]);
  return 0;
}

// "host:port" of the `moonstack serve` holding the state file's lock, or ""
// when no server holds it (store/state_lock.h: the holder's text is
// "pid N: moonstack serve on HOST:PORT").
std::string ServingServer(const std::string& state_path) {
  if (state_path == ":memory:") return "";
  int fd = ::open((state_path + ".lock").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string address;
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0) {  // held: by whom?
    char buf[512];
    const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
    const std::string holder = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
    const std::string marker = std::string(StateLock::kServeHolder) + " on ";
    const size_t at = holder.find(marker);
    if (at != std::string::npos) address = holder.substr(at + marker.size());
    if (address.rfind("0.0.0.0:", 0) == 0) address = "127.0.0.1:" + address.substr(8);
  }
  ::close(fd);
  return address;
}

// The call run by the server that holds the state file, on its world
// (server/aws_routes.h): the same sim call, seen by the server at once.
int RunCallOnServer(const WorldArgs& args, const std::string& address, const Value& params) {
  const size_t colon = address.rfind(':');
  httplib::Client client(address.substr(0, colon), std::stoi(address.substr(colon + 1)));
  Value request = Value::MakeMap();
  request.set("Service", Value::String(args.service));
  request.set("Action", Value::String(args.action));
  request.set("Params", params);
  request.set("Region", Value::String(args.region));
  if (!args.account.empty()) request.set("Account", Value::String(args.account));
  auto res = client.Post("/moonstack/world/call", request.ToJson(), "application/json");
  if (!res) {
    return ReportError(args.action, Status::Internal("The state file is held by moonstack serve on " + address +
                                                        ", which does not answer"));
  }
  Json body = Json::parse(res->body, nullptr, false);
  if (res->status != 200 || !body.is_object() || !body.contains("Result")) {
    const std::string code = body.is_object() ? body.value("Code", "") : "";
    return ReportAwsError(args.action, code.empty() ? "InternalFailure" : code,
                          body.is_object() ? body.value("Message", res->body) : res->body);
  }
  PrintJson(body["Result"]);
  return 0;
}

int RunCall(const WorldArgs& args) {
  WorldSession w;
  Value params;
  Status s = ParseJson(args.params, &params);
  if (!s.ok()) {
    return ReportError(args.action, Status::Validation("Error parsing parameter: Invalid JSON: " + StripPrefix(s.message(), "Template format error: ")));
  }
  const std::string server = ServingServer(StatePath(args.state));
  if (!server.empty()) return RunCallOnServer(args, server, params);
  s = w.Open(args, /*writes=*/true);
  if (!s.ok()) return ReportError(args.action, s);
  server::SimOutcome r = server::RunSimAction(w.rt(), args.service, args.action, params, args.region, args.account);
  if (!r.ok) {
    // A failed call saves nothing.
    return ReportAwsError(args.action, r.code.empty() ? "InternalFailure" : r.code, r.message);
  }
  s = w.Save();
  if (!s.ok()) return ReportError(args.action, s);
  PrintJson(ToJson(server::ShapedSimResult(args.service, args.action, r.result)));
  return 0;
}

int RunLoad(const WorldArgs& args) {
  WorldSession w;
  std::string code;
  Status s = ReadFile(args.file, &code);
  if (s.ok()) s = w.Open(args, /*writes=*/true);
  if (!s.ok()) return ReportError("LoadWorld", s);
  // The script's globals: `aws` (the sim client), `sim`, and `world` (the store).
  lua::CallResult prelude = w.rt().Eval(
      "sim = require('sim'); world = require('moonstack.world'); aws = sim.client()",
      "=[world load]");
  if (!prelude.ok()) return ReportError("LoadWorld", prelude.status());
  lua::CallResult r = w.rt().Eval(code, "@" + args.file);
  if (!r.ok()) return ReportError("LoadWorld", r.status());  // nothing saved
  size_t written = 0;
  s = w.Save(&written);
  if (!s.ok()) return ReportError("LoadWorld", s);
  PrintJson(Json{{"File", args.file}, {"RecordsChanged", written}});
  return 0;
}

int RunReset(const WorldArgs& args) {
  WorldSession w;
  Status s = w.Open(args, /*writes=*/true);
  if (s.ok()) {
    w.world().Clear();
    s = w.Save();
  }
  return s.ok() ? 0 : ReportError("ResetWorld", s);
}

// "2024-01-31T12:00:00.123Z" for milliseconds since the epoch.
std::string IsoMs(int64_t ms) {
  const time_t secs = static_cast<time_t>(ms / 1000);
  struct tm t{};
  gmtime_r(&secs, &t);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
                t.tm_hour, t.tm_min, t.tm_sec, static_cast<int>(ms % 1000));
  return text;
}

// `moonstack logs NAME`: a log group's events, oldest first, one line each
// ("<time> <stream> <message>", as `aws logs tail` prints them). NAME is a
// Lambda function's name (its group /aws/lambda/NAME) or a group name.
int RunLogs(const WorldArgs& args) {
  WorldSession w;
  Status s = w.Open(args, /*writes=*/false);
  if (!s.ok()) return ReportError("FilterLogEvents", s);
  lua::CallResult sim = w.rt().Require("sim");
  if (!sim.ok()) return ReportError("FilterLogEvents", sim.status());
  Value params = Value::MakeMap();
  params.set("logGroupName", Value::String(args.id.rfind('/', 0) == 0 ? args.id : "/aws/lambda/" + args.id));
  if (!args.filter.empty()) params.set("filterPattern", Value::String(args.filter));
  Value opts = Value::MakeMap();
  opts.set("region", Value::String(args.region));
  if (!args.account.empty()) opts.set("account", Value::String(args.account));
  lua::CallResult r = w.rt().CallField(sim.refs[0], "call",
                                       {Value::String("logs"), Value::String("FilterLogEvents"), params, opts});
  if (!r.ok()) {
    return ReportAwsError("FilterLogEvents", r.error->code.empty() ? "InternalFailure" : r.error->code,
                          r.error->message);
  }
  for (const Json& e : ToJson(r.value()).value("events", Json::array())) {
    std::cout << IsoMs(e.value("timestamp", int64_t{0})) << " " << e.value("logStreamName", "") << " "
              << e.value("message", "") << "\n";
  }
  return 0;
}

void AddCommonOptions(CLI::App* cmd, WorldArgs* args) {
  cmd->add_option("--state", args->state, "The state file (default $MOONSTACK_STATE or .moonstack/state.db)");
  cmd->add_option("--providers", args->dirs, "A provider directory whose sim/ adds or overrides services");
}

}  // namespace

void AddWorldCommands(CLI::App& app, int* exit_code) {
  CLI::App* world = app.add_subcommand("world", "Inspect and change the simulated cloud out of band");
  world->require_subcommand(1);

  auto list_args = std::make_shared<WorldArgs>();
  CLI::App* list = world->add_subcommand("list", "List the world's records (kind, id, live)");
  list->add_option("--kind", list_args->kind, "Only this kind, e.g. ec2.instance");
  AddCommonOptions(list, list_args.get());
  list->callback([list_args, exit_code] { *exit_code = RunList(*list_args); });

  auto show_args = std::make_shared<WorldArgs>();
  CLI::App* show = world->add_subcommand("show", "Show one record: its data and what it depends on");
  show->add_option("id", show_args->id, "The record's id, e.g. i-0b22a22ee7a1b9c2f")->required();
  show->add_option("--kind", show_args->kind, "The record's kind, when several share the id");
  AddCommonOptions(show, show_args.get());
  show->callback([show_args, exit_code] { *exit_code = RunShow(*show_args); });

  auto call_args = std::make_shared<WorldArgs>();
  CLI::App* call = world->add_subcommand("call", "Run a simulated AWS action: call ec2 TerminateInstances '{...}'");
  call->add_option("service", call_args->service, "ec2, iam, ssm or cloudformation")->required();
  call->add_option("action", call_args->action, "AWS's action name, e.g. StopInstances")->required();
  call->add_option("params", call_args->params, "The request as JSON (default {})");
  call->add_option("--region", call_args->region, "The region (default us-east-1)");
  call->add_option("--account", call_args->account, "The account (12 digits, default 123456789012)")
      ->check(AccountId);
  AddCommonOptions(call, call_args.get());
  call->callback([call_args, exit_code] { *exit_code = RunCall(*call_args); });

  auto load_args = std::make_shared<WorldArgs>();
  CLI::App* load = world->add_subcommand("load", "Run a Lua script against the world (globals aws, sim, world)");
  load->add_option("file", load_args->file, "The script")->required();
  AddCommonOptions(load, load_args.get());
  load->callback([load_args, exit_code] { *exit_code = RunLoad(*load_args); });

  auto reset_args = std::make_shared<WorldArgs>();
  CLI::App* reset = world->add_subcommand("reset", "Forget every world record");
  AddCommonOptions(reset, reset_args.get());
  reset->callback([reset_args, exit_code] { *exit_code = RunReset(*reset_args); });

  auto logs_args = std::make_shared<WorldArgs>();
  auto stack_log = std::make_shared<ProviderLogArgs>();
  CLI::App* logs = app.add_subcommand(
      "logs", "Print a log group's events (a Lambda function's: /aws/lambda/NAME), or with --stack-name the "
              "provider log of a stack's operations");
  logs->add_option("name", logs_args->id, "A function name, or a log group name starting with /");
  logs->add_option("--filter", logs_args->filter, "Only events whose message holds this text");
  logs->add_option("--region", logs_args->region, "The region (default us-east-1)");
  logs->add_option("--account", logs_args->account, "The account (12 digits, default 123456789012)")
      ->check(AccountId);
  logs->add_option("--stack-name", stack_log->stack_name,
                   "The stack (name or ID) whose provider log to print: its hooks' ctx.log, print and errors");
  logs->add_option("--resource", stack_log->resource, "With --stack-name: only this logical ID's lines");
  logs->add_option("--output", stack_log->output, "With --stack-name: text (default) or json");
  logs->add_flag("--debug", stack_log->debug, "With --stack-name: the Lua traceback of a runtime error too");
  AddCommonOptions(logs, logs_args.get());
  logs->callback([logs_args, stack_log, exit_code] {
    if (!stack_log->stack_name.empty()) {
      stack_log->state = logs_args->state;
      stack_log->region = logs_args->region;
      *exit_code = RunProviderLog(*stack_log);
    } else if (logs_args->id.empty()) {
      *exit_code = ReportError("FilterLogEvents", Status::Validation("logs needs a function name or --stack-name"));
    } else {
      *exit_code = RunLogs(*logs_args);
    }
  });
}

}  // namespace ms::cli
