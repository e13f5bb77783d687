// moonstack deploy: `aws cloudformation deploy` — through a change set, as
// the aws CLI does — with live progress: a line per event as it happens,
// statuses coloured on a terminal, a count of resources done, a summary, and
// a non-zero exit status on failure.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/stack_json.h"
#include "cli/stack_session.h"
#include "run/clock.h"
#include "stack/change_sets.h"
#include "template/template.h"

namespace ms::cli {
namespace {

struct DeployArgs {
  SessionOptions session;
  std::string stack_name, template_file;
  std::vector<std::string> overrides, capabilities, tags;
  bool disable_rollback = false;
  bool no_fail_on_empty_changeset = false;
  bool no_execute_changeset = false;
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

// The parameters of the change set, as aws cloudformation deploy makes them
// (awscli customizations/cloudformation/deploy.py merge_parameters and
// deployer.py create_changeset): the overrides, and for an update every
// parameter of the new template that the stack already has and that is not
// overridden keeps its value (UsePreviousValue).
std::vector<ParameterInput> ChangeSetParameters(const std::vector<ParameterInput>& overrides, const std::string& body,
                                                const StackRecord* existing) {
  std::vector<ParameterInput> out = overrides;
  if (existing == nullptr) return out;
  Template t;
  if (!LoadTemplate(body, &t).ok()) return out;
  for (const StackParameterValue& p : existing->parameters) {
    bool given = false;
    for (const ParameterInput& g : overrides) given = given || g.key == p.key;
    if (!given && t.FindParameter(p.key) != nullptr) out.push_back({p.key, std::nullopt, true});
  }
  return out;
}

// A name per deploy, as the aws CLI's "awscli-cloudformation-package-deploy-
// <unix seconds>"; in milliseconds, so two deploys in one second (scripts,
// virtual time) do not collide.
std::string ChangeSetName() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return "moonstack-deploy-" + std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
}

// aws cloudformation deploy: create a change set, wait for it, execute it,
// wait for the stack — here with a line per event as the operation runs.
// Messages are the aws CLI's (deploy.py, deployer.py, exceptions.py).
int RunDeploy(const DeployArgs& a) {
  const char* op = "Deploy";
  std::string body;
  std::vector<ParameterInput> overrides;
  std::vector<StackTag> tags;
  Status s = ReadFile(a.template_file, &body);
  if (s.ok()) s = ParseParameterOverrides(a.overrides, &overrides);
  if (s.ok()) s = ParseTags(a.tags, &tags);
  if (!s.ok()) return ReportError(op, s);

  size_t total = 0;
  {
    Template t;
    if (LoadTemplate(body, &t).ok()) total = t.resources.size();
  }
  ProgressPrinter progress(a.stack_name, total, isatty(STDOUT_FILENO) != 0);
  StackSession session;
  s = session.Open(a.session, &progress);
  if (!s.ok()) return ReportError(op, s);
  // deployer.py has_stack: a stack in REVIEW_IN_PROGRESS counts as missing.
  StackRecord existing;
  const bool update = session.service().FindStack(a.stack_name, &existing).ok() &&
                      existing.status != StackStatus::kReviewInProgress &&
                      existing.status != StackStatus::kDeleteComplete;
  std::unique_ptr<StackLock> lock;
  s = session.Lock(a.stack_name, &lock);
  if (!s.ok()) return ReportError(op, s);

  ChangeSetService change_sets(session.service().context());
  CreateChangeSetInput in;
  in.stack_name = a.stack_name;
  in.change_set_name = ChangeSetName();
  in.change_set_type = update ? "UPDATE" : "CREATE";
  in.template_body = body;
  in.parameters = ChangeSetParameters(overrides, body, update ? &existing : nullptr);
  in.capabilities = a.capabilities;
  if (!tags.empty()) in.tags = tags;  // none: an update keeps the stack's
  in.description = "Created by moonstack deploy";
  std::string change_set_id, stack_id;
  s = change_sets.Create(in, &change_set_id, &stack_id);
  if (!s.ok()) return ReportError("CreateChangeSet", s);
  std::printf("\nWaiting for changeset to be created..\n");
  std::fflush(stdout);
  ChangeSetRecord cs;
  s = change_sets.Describe(change_set_id, "", &cs);
  if (!s.ok()) return ReportError("DescribeChangeSet", s);
  if (cs.status == "FAILED") {
    if (cs.status_reason == kNoChangesReason) {
      // exceptions.py ChangeEmptyError: an error (stderr, 255), or with
      // --no-fail-on-empty-changeset written to stdout with exit status 0.
      const std::string msg = "\nNo changes to deploy. Stack " + a.stack_name + " is up to date\n";
      std::fputs(msg.c_str(), a.no_fail_on_empty_changeset ? stdout : stderr);
      return a.no_fail_on_empty_changeset ? 0 : 255;
    }
    std::fprintf(stderr, "\nFailed to create the changeset: Status: %s. Reason: %s\n", cs.status.c_str(),
                 cs.status_reason.c_str());
    return 255;
  }
  if (a.no_execute_changeset) {
    std::printf("Changeset created successfully. Run the following command to review changes:\n"
                "aws cloudformation describe-change-set --change-set-name %s\n",
                change_set_id.c_str());
    return session.Close().ok() ? 0 : 255;
  }
  ExecuteChangeSetInput exec;
  exec.change_set_name = change_set_id;
  exec.disable_rollback = a.disable_rollback;
  s = change_sets.Execute(exec, &stack_id);
  if (!s.ok()) return ReportError("ExecuteChangeSet", s);
  std::printf("Waiting for stack create/update to complete\n");
  std::fflush(stdout);
  s = session.service().Run(stack_id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return ReportError(op, s);
  StackRecord done;
  s = session.service().FindStack(stack_id, &done);
  if (!s.ok()) return ReportError(op, s);
  if (done.status == StackStatus::kCreateComplete || done.status == StackStatus::kUpdateComplete) {
    std::printf("Successfully created/updated stack - %s (%zu resources)\n", a.stack_name.c_str(), progress.done());
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
  cmd->add_flag("--no-execute-changeset", a->no_execute_changeset,
                "Create the change set and stop (execute it with execute-change-set)");
  cmd->add_flag("--fail-on-empty-changeset", "Exit 255 when there is nothing to deploy (the default)");
  AddSessionOptions(cmd, &a->session);
  cmd->add_option("--scenario", a->session.scenario,
                  "A Lua scenario script: fail(match), latency(match, s), on(event_match, fn)");
  AddLogOptions(cmd, &a->session);
  cmd->callback([a, exit_code] { *exit_code = RunDeploy(*a); });
}

}  // namespace ms::cli
