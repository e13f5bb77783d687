// moonstack deploy: `aws cloudformation deploy` with live progress — a line
// per event as it happens, statuses coloured on a terminal, a count of
// resources done, a summary, and a non-zero exit status on failure.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <set>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/io.h"
#include "cli/stack_json.h"
#include "cli/stack_session.h"
#include "run/clock.h"
#include "template/template.h"

namespace ms::cli {
namespace {

struct DeployArgs {
  SessionOptions session;
  std::string stack_name, template_file;
  std::vector<std::string> overrides, capabilities, tags;
  bool disable_rollback = false;
  bool no_fail_on_empty_changeset = false;
};

// Prints each event as a line: "12:00:31  [2/5]  Subnet  CREATE_COMPLETE  AWS::EC2::Subnet  reason".
class ProgressPrinter : public OperationObserver {
 public:
  ProgressPrinter(std::string stack_name, size_t total, bool color)
      : stack_name_(std::move(stack_name)), total_(total), color_(color) {}

  void OnEvent(const StackEvent& e) override {
    const bool stack_event = e.logical_id == stack_name_ && e.type == "AWS::CloudFormation::Stack";
    if (!stack_event && (e.status == "CREATE_COMPLETE" || e.status == "UPDATE_COMPLETE")) {
      done_.insert(e.logical_id);
    }
    if (stack_event && failure_.empty() && !e.reason.empty() && e.reason != "User Initiated" &&
        (e.status.find("ROLLBACK_IN_PROGRESS") != std::string::npos || e.status.find("FAILED") != std::string::npos)) {
      failure_ = e.reason;  // why the stack failed: later statuses have no reason
    }
    std::string time = FormatTimestamp(e.timestamp_ms).substr(11, 8);
    std::printf("%s  [%zu/%zu]  %-28s %s%-24s%s %-34s %s\n", time.c_str(), done_.size(), total_,
                e.logical_id.c_str(), Color(e.status), e.status.c_str(), color_ ? "\033[0m" : "", e.type.c_str(),
                e.reason.c_str());
    std::fflush(stdout);
  }

  const std::string& failure() const { return failure_; }
  size_t done() const { return done_.size(); }

 private:
  static bool EndsWith(const std::string& s, const char* suffix) {
    const std::string x(suffix);
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
  }
  const char* Color(const std::string& status) const {
    if (!color_) return "";
    if (status.find("FAILED") != std::string::npos || status.find("ROLLBACK") != std::string::npos) return "\033[31m";
    if (EndsWith(status, "_COMPLETE") || status == "DELETE_SKIPPED") return "\033[32m";
    return "\033[33m";
  }

  std::string stack_name_;
  size_t total_;
  bool color_;
  std::set<std::string> done_;
  std::string failure_;
};

int RunDeploy(const DeployArgs& a) {
  const char* op = "Deploy";
  CreateStackInput in;
  in.stack_name = a.stack_name;
  Status s = ReadFile(a.template_file, &in.template_body);
  if (s.ok()) s = ParseParameterOverrides(a.overrides, &in.parameters);
  if (s.ok()) s = ParseTags(a.tags, &in.tags);
  if (!s.ok()) return ReportError(op, s);
  in.capabilities = a.capabilities;
  in.disable_rollback = a.disable_rollback;

  size_t total = 0;
  {
    Template t;
    if (LoadTemplate(in.template_body, &t).ok()) total = t.resources.size();
  }
  ProgressPrinter progress(a.stack_name, total, isatty(STDOUT_FILENO) != 0);
  StackSession session;
  s = session.Open(a.session, &progress);
  if (!s.ok()) return ReportError(op, s);
  StackRecord existing;
  const bool update = session.service().FindStack(a.stack_name, &existing).ok();
  std::unique_ptr<StackLock> lock;
  s = session.Lock(a.stack_name, &lock);
  if (!s.ok()) return ReportError(op, s);
  std::string id;
  if (update) {
    // An existing stack is updated; parameters not overridden keep their
    // values (aws cloudformation deploy does the same).
    UpdateStackInput u;
    u.stack_name = existing.id;
    u.template_body = in.template_body;
    u.parameters = in.parameters;
    for (const StackParameterValue& p : existing.parameters) {
      bool given = false;
      for (const ParameterInput& g : in.parameters) given = given || g.key == p.key;
      Template t;
      if (!given && LoadTemplate(in.template_body, &t).ok() && t.FindParameter(p.key) != nullptr) {
        u.parameters.push_back({p.key, std::nullopt, true});
      }
    }
    u.capabilities = a.capabilities;
    u.disable_rollback = a.disable_rollback;
    s = session.service().StartUpdate(u, &id);
    if (!s.ok() && s.message() == "No updates are to be performed.") {
      std::printf("\nNo changes to deploy. Stack %s is up to date\n", a.stack_name.c_str());
      return a.no_fail_on_empty_changeset ? 0 : 255;
    }
    if (!s.ok()) return ReportError(op, s);
    std::printf("\nWaiting for stack create/update to complete\n");
  } else {
    std::printf("\nWaiting for stack create to complete\n");
    s = session.service().StartCreate(in, &id);
    if (!s.ok()) return ReportError(op, s);
  }
  s = session.service().Run(id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return ReportError(op, s);
  StackRecord done;
  s = session.service().FindStack(id, &done);
  if (!s.ok()) return ReportError(op, s);
  if (done.status == StackStatus::kCreateComplete || done.status == StackStatus::kUpdateComplete) {
    std::printf("\nSuccessfully created/updated stack - %s (%zu resources)\n", a.stack_name.c_str(), progress.done());
    for (const StackOutputValue& o : done.outputs) std::printf("  %s = %s\n", o.key.c_str(), o.value.c_str());
    return 0;
  }
  std::fprintf(stderr,
               "\nFailed to create/update the stack (%s%s%s). Run the following command\n"
               "to fetch the list of events leading up to the failure\n"
               "aws cloudformation describe-stack-events --stack-name %s\n",
               StackStatusName(done.status), progress.failure().empty() ? "" : ": ", progress.failure().c_str(),
               a.stack_name.c_str());
  return 255;
}

}  // namespace

void AddDeployCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<DeployArgs>();
  CLI::App* cmd = app.add_subcommand("deploy", "Create a stack from a template file, with live progress");
  cmd->add_option("--template-file", a->template_file, "The template file")->required();
  cmd->add_option("--stack-name", a->stack_name, "The stack's name")->required();
  cmd->add_option("--parameter-overrides", a->overrides, "Key=Value ...");
  cmd->add_option("--capabilities", a->capabilities, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, ...");
  cmd->add_option("--tags", a->tags, "Key=Value ...");
  cmd->add_flag("--disable-rollback", a->disable_rollback, "Keep what was created when the create fails");
  cmd->add_flag("--no-fail-on-empty-changeset", a->no_fail_on_empty_changeset,
                "Exit 0 when there is nothing to deploy");
  cmd->add_flag("--fail-on-empty-changeset", "Exit 255 when there is nothing to deploy (the default)");
  cmd->add_option("--state", a->session.state, "The state file (default $MOONSTACK_STATE or .moonstack/state.db)");
  cmd->add_option("--providers", a->session.providers, "A directory of Lua providers (repeatable)");
  cmd->add_option("--time-scale", a->session.time_scale,
                  "0: virtual time (default); 1: real time; X: X real seconds per simulated second");
  cmd->add_option("--region", a->session.region, "The region (default us-east-1)");
  cmd->add_option("--scenario", a->session.scenario,
                  "A Lua scenario script: fail(match), latency(match, s), on(event_match, fn)");
  cmd->callback([a, exit_code] { *exit_code = RunDeploy(*a); });
}

}  // namespace ms::cli
