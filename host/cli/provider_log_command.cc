#include "cli/provider_log_command.h"

#include <iostream>
#include <memory>

#include "cli/io.h"
#include "cli/stack_json.h"
#include "run/clock.h"
#include "stack/provider_log_format.h"
#include "store/provider_log_table.h"
#include "store/schema.h"
#include "store/stack_tables.h"

namespace ms::cli {
namespace {

constexpr const char* kOperation = "GetProviderLog";

Json LineJson(const ProviderLogRecord& l) {
  Json j = {{"Timestamp", FormatTimestamp(l.timestamp_ms)},
            {"StackName", l.stack_name},
            {"Operation", l.operation},
            {"Level", LogLevelName(l.level)},
            {"Message", l.message}};
  if (!l.logical_id.empty()) j["LogicalResourceId"] = l.logical_id;
  if (!l.hook.empty()) j["Hook"] = l.hook;
  if (!l.detail.empty()) j["Traceback"] = l.detail;
  return j;
}

}  // namespace

int RunProviderLog(const ProviderLogArgs& args) {
  if (args.output != "text" && args.output != "json") {
    return ReportError(kOperation, Status::Validation("--output must be text or json, not " + args.output));
  }
  std::unique_ptr<Database> db;
  Status s = OpenStore(StatePath(args.state), &db);
  StackRecord stack;
  bool found = false;
  if (s.ok()) {
    s = args.stack_name.rfind("arn:", 0) == 0
            ? LoadStack(db.get(), args.stack_name, &stack, &found)
            : FindActiveStack(db.get(), StackScope{args.region, StackScope().account}, args.stack_name, &stack, &found);
  }
  if (s.ok() && !found) s = Status::Validation("Stack with id " + args.stack_name + " does not exist");
  std::vector<ProviderLogRecord> lines;
  if (s.ok()) s = LoadProviderLog(db.get(), stack.id, args.resource, &lines);
  if (!s.ok()) return ReportError(kOperation, s);
  if (args.output == "json") {
    Json list = Json::array();
    for (const ProviderLogRecord& l : lines) list.push_back(LineJson(l));
    std::cout << Json{{"ProviderLogLines", list}}.dump(4) << "\n";
    return 0;
  }
  for (const ProviderLogRecord& l : lines) std::cout << FormatProviderLogLine(l, args.debug) << "\n";
  return 0;
}

}  // namespace ms::cli
