// The stack commands of `aws cloudformation`, run embedded: a workflow
// command (create-stack, delete-stack) runs its operation to the end before
// it returns, so a script can follow it with describe calls.
#include <iostream>
#include <map>
#include <memory>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/output.h"
#include "cli/stack_json.h"
#include "cli/stack_session.h"
#include "stack/drift_detection.h"
#include "stack/operation_events.h"
#include "stack/template_stage.h"
#include "stack/template_url.h"
#include "template/parse.h"

namespace ms::cli {
namespace {

struct StackArgs {
  SessionOptions session;
  std::string output = "json";
  std::string stack_name;
  std::string template_body, template_file, template_url;
  std::vector<std::string> parameters, capabilities, tags, retain_resources, status_filter;
  std::vector<std::string> resources_to_skip;  // continue-update-rollback
  std::string on_failure;
  std::optional<int64_t> timeout_in_minutes;
  bool disable_rollback = false;
  bool use_previous_template = false;
  bool termination_protection = false;
  std::string client_request_token;
  std::string role_arn;
  std::vector<std::string> notification_arns;
  std::string logical_id;
  std::string export_name;
  std::string template_stage;  // get-template
  std::string change_set_name, operation_id;  // describe-events
  bool failed_events = false;
  // Stack policies: text or file://PATH; the URLs are refused (never fetched).
  std::string stack_policy_body, stack_policy_url;
  std::string stack_policy_during_update_body, stack_policy_during_update_url;
};

// Reads a --stack-policy-*-body argument (file://PATH as the aws CLI reads it).
Status ReadPolicyBody(const std::string& arg, std::string* text) {
  text->clear();
  return arg.empty() ? Status::OK() : ReadTemplateBody(arg, text);
}

void AddSessionOptions(CLI::App* cmd, StackArgs* a) {
  cli::AddSessionOptions(cmd, &a->session);
  AddOutputOption(cmd, &a->output);
}

// Workflow commands only: a Lua script injecting faults and reacting to
// events while the workflow runs (lua-sdk/README.md, "Scenario scripts").
void AddScenarioOption(CLI::App* cmd, StackArgs* a) {
  cmd->add_option("--scenario", a->session.scenario,
                  "A Lua scenario script: fail(match), latency(match, s), on(event_match, fn)");
  AddLogOptions(cmd, &a->session);
}

int Fail(const std::string& op, const Status& s) { return ReportError(op, s); }

void Emit(const StackArgs& a, const Json& response, const std::string& op) { cli::Emit(a.output, response, op); }

// --template-file or --template-body; a --template-url is read once the
// session is open (ReadUrlBody).
Status ReadBody(const StackArgs& a, std::string* text) {
  if (!a.template_file.empty()) return ReadFile(a.template_file, text);
  if (!a.template_body.empty()) return ReadTemplateBody(a.template_body, text);
  if (!a.template_url.empty()) return Status::OK();
  return Status::Validation("Either Template URL or Template Body must be specified.");
}

// The template --template-url names, from the session's simulated S3 (or a file://PATH).
Status ReadUrlBody(const StackArgs& a, StackSession& session, std::string* text) {
  if (a.template_url.empty() || !text->empty()) return Status::OK();
  return ReadTemplateUrl(session.service().context(), a.template_url, text);
}

int RunCreate(const StackArgs& a) {
  const char* op = "CreateStack";
  CreateStackInput in;
  in.stack_name = a.stack_name;
  Status s = ReadBody(a, &in.template_body);
  if (s.ok()) s = ParseParameters(a.parameters, &in.parameters);
  if (s.ok()) s = ParseTags(a.tags, &in.tags);
  if (s.ok()) s = ReadPolicyBody(a.stack_policy_body, &in.stack_policy_body);
  if (!s.ok()) return Fail(op, s);
  in.stack_policy_url = a.stack_policy_url;
  in.capabilities = a.capabilities;
  in.on_failure = a.on_failure;
  in.timeout_in_minutes = a.timeout_in_minutes;
  in.disable_rollback = a.disable_rollback;
  in.enable_termination_protection = a.termination_protection;
  in.client_request_token = a.client_request_token;
  in.role_arn = a.role_arn;
  in.notification_arns = a.notification_arns;
  StackSession session;
  s = session.Open(a.session);
  std::unique_ptr<StackLock> lock;
  if (s.ok()) s = ReadUrlBody(a, session, &in.template_body);
  if (s.ok()) s = session.Lock(in.stack_name, &lock);
  std::string id;
  if (s.ok()) s = session.service().StartCreate(in, &id);
  if (!s.ok()) return Fail(op, s);
  Emit(a, Json{{"StackId", id}}, op);
  s = session.service().Run(id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return Fail(op, s);
  return 0;
}

int RunUpdate(const StackArgs& a) {
  const char* op = "UpdateStack";
  UpdateStackInput in;
  in.stack_name = a.stack_name;
  in.use_previous_template = a.use_previous_template;
  Status s;
  if (!a.use_previous_template || !a.template_body.empty() || !a.template_file.empty() || !a.template_url.empty()) {
    s = ReadBody(a, &in.template_body);
  }
  if (s.ok()) s = ParseParameters(a.parameters, &in.parameters);
  // As the aws CLI: without --tags the stack keeps its tags (an empty list
  // cannot be given here; boto3's Tags=[] under serve removes them).
  if (s.ok() && !a.tags.empty()) s = ParseTags(a.tags, &in.tags.emplace());
  if (s.ok()) s = ReadPolicyBody(a.stack_policy_body, &in.stack_policy_body);
  if (s.ok()) s = ReadPolicyBody(a.stack_policy_during_update_body, &in.stack_policy_during_update_body);
  if (!s.ok()) return Fail(op, s);
  in.stack_policy_url = a.stack_policy_url;
  in.stack_policy_during_update_url = a.stack_policy_during_update_url;
  in.capabilities = a.capabilities;
  in.disable_rollback = a.disable_rollback;
  in.client_request_token = a.client_request_token;
  in.role_arn = a.role_arn;
  if (!a.notification_arns.empty()) in.notification_arns = a.notification_arns;
  StackSession session;
  s = session.Open(a.session);
  if (s.ok()) s = ReadUrlBody(a, session, &in.template_body);
  StackRecord existing;
  std::unique_ptr<StackLock> lock;
  if (s.ok() && session.service().FindStack(a.stack_name, &existing).ok()) s = session.Lock(existing.name, &lock);
  std::string id;
  if (s.ok()) s = session.service().StartUpdate(in, &id);
  if (!s.ok()) return Fail(op, s);
  Emit(a, Json{{"StackId", id}}, op);
  s = session.service().Run(id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return Fail(op, s);
  return 0;
}

int RunDelete(const StackArgs& a) {
  const char* op = "DeleteStack";
  StackSession session;
  Status s = session.Open(a.session);
  DeleteStackInput in{a.stack_name, a.retain_resources, a.client_request_token};
  StackRecord existing;
  std::unique_ptr<StackLock> lock;
  if (s.ok() && session.service().FindStack(a.stack_name, &existing).ok()) s = session.Lock(existing.name, &lock);
  std::string id;
  if (s.ok()) s = session.service().StartDelete(in, &id);
  if (s.ok() && !id.empty()) s = session.service().Run(id);
  if (s.ok()) s = session.Close();
  return s.ok() ? 0 : Fail(op, s);
}

// continue-update-rollback and rollback-stack: start the rollback, run it
// to the end.
int RunRollback(const StackArgs& a, const std::string& op) {
  StackSession session;
  Status s = session.Open(a.session);
  StackRecord existing;
  std::unique_ptr<StackLock> lock;
  if (s.ok() && session.service().FindStack(a.stack_name, &existing).ok()) s = session.Lock(existing.name, &lock);
  std::string id;
  if (s.ok() && op == "ContinueUpdateRollback") {
    s = session.service().StartContinueUpdateRollback({a.stack_name, a.resources_to_skip, a.client_request_token},
                                                      &id);
  } else if (s.ok()) {
    s = session.service().StartRollbackStack({a.stack_name, a.client_request_token}, &id);
  }
  if (!s.ok()) return Fail(op, s);
  if (op == "RollbackStack") Emit(a, Json{{"StackId", id}}, op);
  s = session.service().Run(id);
  if (s.ok()) s = session.Close();
  return s.ok() ? 0 : Fail(op, s);
}

// cancel-update-stack: an update runs to its end inside the command that
// started it, so from the CLI this reaches only updates of `moonstack serve`
// processes; the service says so (a scenario's cancel_update() is the
// embedded way).
int RunCancelUpdate(const StackArgs& a) {
  const char* op = "CancelUpdateStack";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  if (s.ok()) s = session.service().CancelUpdate({a.stack_name, a.client_request_token});
  return s.ok() ? 0 : Fail(op, s);
}

// recover: resumes what a crashed writer left in progress (any writer does
// as it opens; this command does only that), each operation with the
// providers it recorded. Prints the resumed stacks' IDs.
int RunRecover(const StackArgs& a) {
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kWrite, Resume::kLater);
  std::vector<std::string> resumed;
  if (s.ok()) s = session.Recover(&resumed);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return Fail("Recover", s);
  Emit(a, Json{{"Resumed", resumed}}, "Recover");
  return 0;
}

// A stack as DescribeStacks shows it, with its DriftInformation.
Status StackWithDrift(StackSession& session, const StackRecord& r, Json* out) {
  DriftInformation drift;
  MS_RETURN_IF_ERROR(DriftDetection(session.service()).StackInformation(r.id, &drift));
  *out = StackJson(r, drift);
  return Status::OK();
}

int RunDescribeStacks(const StackArgs& a) {
  const char* op = "DescribeStacks";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  if (!s.ok()) return Fail(op, s);
  Json stacks = Json::array();
  if (!a.stack_name.empty()) {
    StackRecord r;
    s = session.service().FindStack(a.stack_name, &r);
    Json j;
    if (s.ok()) s = StackWithDrift(session, r, &j);
    if (!s.ok()) return Fail(op, s);
    stacks.push_back(std::move(j));
  } else {
    std::vector<StackRecord> all;
    s = session.service().ListStacks(&all);
    if (!s.ok()) return Fail(op, s);
    for (auto it = all.rbegin(); it != all.rend(); ++it) {  // newest first, as AWS lists them
      if (it->status == StackStatus::kDeleteComplete) continue;
      Json j;
      s = StackWithDrift(session, *it, &j);
      if (!s.ok()) return Fail(op, s);
      stacks.push_back(std::move(j));
    }
  }
  Emit(a, Json{{"Stacks", stacks}}, op);
  return 0;
}

int RunListStacks(const StackArgs& a) {
  const char* op = "ListStacks";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  std::vector<StackRecord> all;
  if (s.ok()) s = session.service().ListStacks(&all);
  if (!s.ok()) return Fail(op, s);
  for (const std::string& f : a.status_filter) {
    StackStatus ignored;
    if (!ParseStackStatus(f, &ignored)) {
      return Fail(op, Status::Validation("1 validation error detected: Value '[" + f +
                                         "]' at 'stackStatusFilter' failed to satisfy constraint: Member must "
                                         "satisfy constraint: [Member must satisfy enum value set]"));
    }
  }
  Json summaries = Json::array();
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    const std::string status = StackStatusName(it->status);
    if (!a.status_filter.empty() &&
        std::find(a.status_filter.begin(), a.status_filter.end(), status) == a.status_filter.end()) {
      continue;
    }
    DriftInformation drift;
    s = DriftDetection(session.service()).StackInformation(it->id, &drift);
    if (!s.ok()) return Fail(op, s);
    summaries.push_back(StackSummaryJson(*it, drift));
  }
  Emit(a, Json{{"StackSummaries", summaries}}, op);
  return 0;
}

// Opens the session and finds the stack named by --stack-name.
Status OpenStack(const StackArgs& a, StackSession* session, StackRecord* stack) {
  MS_RETURN_IF_ERROR(session->Open(a.session, nullptr, Access::kRead));
  if (a.stack_name.empty()) return Status::Validation("StackName is a required parameter.");
  return session->service().FindStack(a.stack_name, stack);
}

// OpenStack, and the stack's resources with their DriftInformation (by
// logical ID; a resource never checked is not in `drifts`).
Status OpenStackResources(const StackArgs& a, StackSession* session, StackRecord* stack,
                          std::vector<ResourceRecord>* resources, std::map<std::string, DriftInformation>* drifts) {
  MS_RETURN_IF_ERROR(OpenStack(a, session, stack));
  MS_RETURN_IF_ERROR(session->service().Resources(stack->id, resources));
  return DriftDetection(session->service()).ResourceInformation(stack->id, drifts);
}

int RunDescribeEvents(const StackArgs& a) {
  const char* op = "DescribeStackEvents";
  StackSession session;
  StackRecord stack;
  Status s = OpenStack(a, &session, &stack);
  std::vector<StackEvent> events;
  if (s.ok()) s = session.service().Events(stack.id, &events);
  if (!s.ok()) return Fail(op, s);
  Json list = Json::array();
  for (const StackEvent& e : events) list.push_back(EventJson(e));
  Emit(a, Json{{"StackEvents", list}}, op);
  return 0;
}

int RunDescribeOperationEvents(const StackArgs& a) {
  const char* op = "DescribeEvents";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  OperationEventQuery q{a.stack_name, a.change_set_name, a.operation_id, a.failed_events};
  std::vector<OperationEvent> events;
  if (s.ok()) {
    ChangeSetService change_sets(session.service().context());
    s = DescribeOperationEvents(session.service(), change_sets, q, &events);
  }
  if (!s.ok()) return Fail(op, s);
  Json list = Json::array();
  for (const OperationEvent& e : events) list.push_back(OperationEventJson(e));
  Emit(a, Json{{"OperationEvents", list}}, op);
  return 0;
}

int RunDescribeResources(const StackArgs& a) {
  const char* op = "DescribeStackResources";
  StackSession session;
  StackRecord stack;
  std::vector<ResourceRecord> resources;
  std::map<std::string, DriftInformation> drifts;
  Status s = OpenStackResources(a, &session, &stack, &resources, &drifts);
  if (!s.ok()) return Fail(op, s);
  Json list = Json::array();
  for (const ResourceRecord& r : resources) {
    if (!a.logical_id.empty() && r.logical_id != a.logical_id) continue;
    list.push_back(StackResourceJson(stack, r, drifts[r.logical_id]));
  }
  Emit(a, Json{{"StackResources", list}}, op);
  return 0;
}

int RunDescribeResource(const StackArgs& a) {
  const char* op = "DescribeStackResource";
  StackSession session;
  StackRecord stack;
  std::vector<ResourceRecord> resources;
  std::map<std::string, DriftInformation> drifts;
  Status s = OpenStackResources(a, &session, &stack, &resources, &drifts);
  if (!s.ok()) return Fail(op, s);
  for (const ResourceRecord& r : resources) {
    if (r.logical_id == a.logical_id) {
      const std::string metadata = session.service().ResourceMetadata(stack, resources, r.logical_id);
      Emit(a, Json{{"StackResourceDetail", StackResourceDetailJson(stack, r, metadata, drifts[r.logical_id])}}, op);
      return 0;
    }
  }
  return Fail(op, Status::Validation("Resource " + a.logical_id + " does not exist for stack " + a.stack_name));
}

int RunListResources(const StackArgs& a) {
  const char* op = "ListStackResources";
  StackSession session;
  StackRecord stack;
  std::vector<ResourceRecord> resources;
  std::map<std::string, DriftInformation> drifts;
  Status s = OpenStackResources(a, &session, &stack, &resources, &drifts);
  if (!s.ok()) return Fail(op, s);
  Json list = Json::array();
  for (const ResourceRecord& r : resources) list.push_back(StackResourceSummaryJson(r, drifts[r.logical_id]));
  Emit(a, Json{{"StackResourceSummaries", list}}, op);
  return 0;
}

int RunGetTemplate(const StackArgs& a) {
  const char* op = "GetTemplate";
  StackSession session;
  StackRecord stack;
  Status s = OpenStack(a, &session, &stack);
  if (!s.ok()) return Fail(op, s);
  std::string body;
  s = TemplateAtStage(stack, a.template_stage, &body);
  if (!s.ok()) return Fail(op, s);
  Json out;
  // A JSON template comes back as a document, a YAML one as text (as the aws CLI shows them).
  try {
    out["TemplateBody"] = Json::parse(body);
  } catch (const std::exception&) {
    out["TemplateBody"] = body;
  }
  out["StagesAvailable"] = Json::array({"Original", "Processed"});
  Emit(a, out, op);
  return 0;
}

int RunListExports(const StackArgs& a) {
  const char* op = "ListExports";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  std::vector<StackRecord> stacks;
  if (s.ok()) s = session.service().ListStacks(&stacks);
  if (!s.ok()) return Fail(op, s);
  Json list = Json::array();
  for (const StackRecord& st : stacks) {
    if (st.status == StackStatus::kDeleteComplete) continue;
    for (const StackOutputValue& o : st.outputs) {
      if (!o.export_name.empty()) {
        list.push_back(Json{{"ExportingStackId", st.id}, {"Name", o.export_name}, {"Value", o.value}});
      }
    }
  }
  Emit(a, Json{{"Exports", list}}, op);
  return 0;
}

int RunListImports(const StackArgs& a) {
  const char* op = "ListImports";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  std::vector<StackRecord> stacks;
  if (s.ok()) s = session.service().ListStacks(&stacks);
  if (!s.ok()) return Fail(op, s);
  Json names = Json::array();
  for (const StackRecord& st : stacks) {
    if (st.status == StackStatus::kDeleteComplete) continue;
    if (std::find(st.imports.begin(), st.imports.end(), a.export_name) != st.imports.end()) names.push_back(st.name);
  }
  if (names.empty()) {
    return Fail(op, Status::Validation("Export '" + a.export_name + "' is not imported by any stack."));
  }
  Emit(a, Json{{"Imports", names}}, op);
  return 0;
}

// `wait`: embedded workflows have finished, so a waiter only reads the status.
struct Waiter {
  const char* name;       // the aws CLI subcommand
  const char* botocore;   // the waiter's name in botocore's messages
  std::vector<std::string> success;
  std::vector<std::string> failure;
  bool gone_is_success;   // stack-delete-complete: a stack that no longer exists is deleted
};

const std::vector<Waiter>& Waiters() {
  static const std::vector<Waiter> kWaiters = {
      {"stack-create-complete", "StackCreateComplete", {"CREATE_COMPLETE"},
       {"CREATE_FAILED", "DELETE_COMPLETE", "DELETE_FAILED", "ROLLBACK_FAILED", "ROLLBACK_COMPLETE"}, false},
      {"stack-delete-complete", "StackDeleteComplete", {"DELETE_COMPLETE"},
       {"DELETE_FAILED", "CREATE_FAILED", "ROLLBACK_FAILED", "UPDATE_ROLLBACK_IN_PROGRESS", "UPDATE_ROLLBACK_FAILED",
        "UPDATE_ROLLBACK_COMPLETE", "UPDATE_COMPLETE"}, true},
      {"stack-exists", "StackExists", {}, {}, false},
      {"stack-update-complete", "StackUpdateComplete", {"UPDATE_COMPLETE"},
       {"UPDATE_FAILED", "UPDATE_ROLLBACK_FAILED", "UPDATE_ROLLBACK_COMPLETE"}, false},
      {"stack-rollback-complete", "StackRollbackComplete", {"UPDATE_ROLLBACK_COMPLETE"},
       {"UPDATE_FAILED", "UPDATE_ROLLBACK_FAILED", "DELETE_FAILED"}, false},
      // botocore's StackImportComplete.
      {"stack-import-complete", "StackImportComplete", {"IMPORT_COMPLETE"},
       {"ROLLBACK_COMPLETE", "ROLLBACK_FAILED", "IMPORT_ROLLBACK_IN_PROGRESS", "IMPORT_ROLLBACK_FAILED",
        "IMPORT_ROLLBACK_COMPLETE"}, false},
  };
  return kWaiters;
}

int RunWait(const Waiter& w, const StackArgs& a) {
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  StackRecord stack;
  if (s.ok()) s = session.service().FindStack(a.stack_name, &stack);
  if (s.code() == Status::Code::kNotFound && w.gone_is_success) return 0;
  if (!s.ok()) {
    std::cerr << "\nWaiter " << w.botocore << " failed: Waiter encountered a terminal failure state: "
              << "An error occurred (ValidationError) when calling the DescribeStacks operation: " << s.message()
              << std::endl;
    return 255;
  }
  const std::string status = StackStatusName(stack.status);
  if (w.success.empty()) return 0;  // stack-exists
  if (std::find(w.success.begin(), w.success.end(), status) != w.success.end()) return 0;
  std::cerr << "\nWaiter " << w.botocore << " failed: Waiter encountered a terminal failure state: For expression "
            << "\"Stacks[].StackStatus\" we matched expected path: \"" << status << "\" at least once" << std::endl;
  return 255;
}

CLI::App* AddStackCommand(CLI::App& app, const char* name, const char* help, std::shared_ptr<StackArgs> a) {
  CLI::App* cmd = app.add_subcommand(name, help);
  AddSessionOptions(cmd, a.get());
  return cmd;
}

}  // namespace

void AddStackCommands(CLI::App& app, int* exit_code) {
  auto create = std::make_shared<StackArgs>();
  CLI::App* c = AddStackCommand(app, "create-stack", "Create a stack and run it to the end", create);
  AddScenarioOption(c, create.get());
  c->add_option("--stack-name", create->stack_name, "The stack's name")->required();
  c->add_option("--template-body", create->template_body, "Template text, or file://PATH");
  c->add_option("--template-file", create->template_file, "Path of the template file");
  c->add_option("--template-url", create->template_url, "An S3 URL of the template (the simulated S3), or file://PATH");
  c->add_option("--parameters", create->parameters, "ParameterKey=K,ParameterValue=V ... (or JSON)");
  c->add_option("--capabilities", create->capabilities, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, ...");
  c->add_option("--tags", create->tags, "Key=k,Value=v ...");
  c->add_option("--on-failure", create->on_failure, "ROLLBACK (default), DELETE or DO_NOTHING");
  c->add_flag("--disable-rollback", create->disable_rollback, "Keep what was created when the create fails");
  c->add_option("--timeout-in-minutes", create->timeout_in_minutes,
                "How long the create may take before it fails (and rolls back)");
  c->add_flag("--enable-termination-protection", create->termination_protection, "Refuse delete-stack");
  c->add_option("--client-request-token", create->client_request_token, "A token carried by the events");
  c->add_option("--role-arn", create->role_arn, "The IAM role CloudFormation acts with (recorded, not assumed)");
  c->add_option("--notification-arns", create->notification_arns, "SNS topic ARNs (recorded, nothing is sent)");
  c->add_option("--stack-policy-body", create->stack_policy_body, "The stack policy, or file://PATH");
  c->add_option("--stack-policy-url", create->stack_policy_url, "Refused: moonstack never fetches URLs");
  c->callback([create, exit_code] { *exit_code = RunCreate(*create); });

  auto update = std::make_shared<StackArgs>();
  CLI::App* u = AddStackCommand(app, "update-stack", "Update a stack and run the update to the end", update);
  AddScenarioOption(u, update.get());
  u->add_option("--stack-name", update->stack_name, "The stack's name or ID")->required();
  u->add_option("--template-body", update->template_body, "Template text, or file://PATH");
  u->add_option("--template-file", update->template_file, "Path of the template file");
  u->add_option("--template-url", update->template_url, "An S3 URL of the template (the simulated S3), or file://PATH");
  u->add_flag("--use-previous-template", update->use_previous_template, "Keep the stack's current template");
  u->add_option("--parameters", update->parameters,
                "ParameterKey=K,ParameterValue=V or ParameterKey=K,UsePreviousValue=true ... (or JSON)");
  u->add_option("--capabilities", update->capabilities, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, ...");
  u->add_option("--tags", update->tags, "Key=k,Value=v ... (replace the stack's; none: kept)");
  u->add_flag("--disable-rollback", update->disable_rollback, "Keep what was done when the update fails");
  u->add_option("--client-request-token", update->client_request_token, "A token carried by the events");
  u->add_option("--role-arn", update->role_arn, "The IAM role CloudFormation acts with (none: the stack's)");
  u->add_option("--notification-arns", update->notification_arns,
                "SNS topic ARNs, replacing the stack's (recorded, nothing is sent; none: kept)");
  u->add_option("--stack-policy-body", update->stack_policy_body, "A new stack policy, or file://PATH");
  u->add_option("--stack-policy-url", update->stack_policy_url, "Refused: moonstack never fetches URLs");
  u->add_option("--stack-policy-during-update-body", update->stack_policy_during_update_body,
                "A policy for this update only, or file://PATH");
  u->add_option("--stack-policy-during-update-url", update->stack_policy_during_update_url,
                "Refused: moonstack never fetches URLs");
  u->callback([update, exit_code] { *exit_code = RunUpdate(*update); });

  auto del = std::make_shared<StackArgs>();
  CLI::App* d = AddStackCommand(app, "delete-stack", "Delete a stack and run the delete to the end", del);
  AddScenarioOption(d, del.get());
  d->add_option("--stack-name", del->stack_name, "The stack's name or ID")->required();
  d->add_option("--retain-resources", del->retain_resources, "Logical IDs to keep (a DELETE_FAILED stack)");
  d->add_option("--client-request-token", del->client_request_token, "A token carried by the events");
  d->callback([del, exit_code] { *exit_code = RunDelete(*del); });

  auto cont = std::make_shared<StackArgs>();
  CLI::App* cu = AddStackCommand(app, "continue-update-rollback",
                                 "Continue the rollback of an UPDATE_ROLLBACK_FAILED stack, to the end", cont);
  AddScenarioOption(cu, cont.get());
  cu->add_option("--stack-name", cont->stack_name, "The stack's name or ID")->required();
  cu->add_option("--resources-to-skip", cont->resources_to_skip,
                 "Logical IDs whose rollback failed, taken as rolled back");
  cu->add_option("--client-request-token", cont->client_request_token, "A token carried by the events");
  cu->callback([cont, exit_code] { *exit_code = RunRollback(*cont, "ContinueUpdateRollback"); });

  auto rollback = std::make_shared<StackArgs>();
  CLI::App* rb = AddStackCommand(app, "rollback-stack",
                                 "Roll a CREATE_FAILED or UPDATE_FAILED stack back, to the end", rollback);
  AddScenarioOption(rb, rollback.get());
  rb->add_option("--stack-name", rollback->stack_name, "The stack's name or ID")->required();
  rb->add_option("--client-request-token", rollback->client_request_token, "A token carried by the events");
  rb->callback([rollback, exit_code] { *exit_code = RunRollback(*rollback, "RollbackStack"); });

  auto cancel = std::make_shared<StackArgs>();
  CLI::App* cn = AddStackCommand(app, "cancel-update-stack", "Cancel a running update (it rolls back)", cancel);
  cn->add_option("--stack-name", cancel->stack_name, "The stack's name or ID")->required();
  cn->add_option("--client-request-token", cancel->client_request_token, "A token carried by the events");
  cn->callback([cancel, exit_code] { *exit_code = RunCancelUpdate(*cancel); });

  auto recover = std::make_shared<StackArgs>();
  CLI::App* rc = AddStackCommand(app, "recover",
                                 "Resume the operations a crashed process left in progress (any command that "
                                 "changes the state does so first; describe-* and list-* only read)",
                                 recover);
  rc->callback([recover, exit_code] { *exit_code = RunRecover(*recover); });

  auto describe = std::make_shared<StackArgs>();
  CLI::App* ds = AddStackCommand(app, "describe-stacks", "Describe one stack or every stack", describe);
  ds->add_option("--stack-name", describe->stack_name, "A name or stack ID");
  ds->callback([describe, exit_code] { *exit_code = RunDescribeStacks(*describe); });

  auto events = std::make_shared<StackArgs>();
  CLI::App* de = AddStackCommand(app, "describe-events",
                                 "A stack's events by operation, pre-deployment validation findings included, "
                                 "newest first",
                                 events);
  de->add_option("--stack-name", events->stack_name, "A name or stack ID: every operation's events");
  de->add_option("--change-set-name", events->change_set_name, "A change set (ARN, or name with --stack-name)");
  de->add_option("--operation-id", events->operation_id, "One operation's events");
  de->add_flag("--failed-events", events->failed_events, "Only the errors and failed operations");
  de->callback([events, exit_code] { *exit_code = RunDescribeOperationEvents(*events); });

  auto list = std::make_shared<StackArgs>();
  CLI::App* ls = AddStackCommand(app, "list-stacks", "Summaries of every stack, deleted ones included", list);
  ls->add_option("--stack-status-filter", list->status_filter, "Only stacks in these statuses");
  ls->callback([list, exit_code] { *exit_code = RunListStacks(*list); });

  struct Simple {
    const char* name;
    const char* help;
    int (*run)(const StackArgs&);
    bool logical_id;
  };
  for (const Simple& cmd : std::vector<Simple>{
           {"describe-stack-events", "A stack's events, newest first", RunDescribeEvents, false},
           {"describe-stack-resources", "A stack's resources", RunDescribeResources, false},
           {"describe-stack-resource", "One resource of a stack", RunDescribeResource, true},
           {"list-stack-resources", "Summaries of a stack's resources", RunListResources, false},
           {"get-template", "The template a stack was created from", RunGetTemplate, false},
       }) {
    auto args = std::make_shared<StackArgs>();
    CLI::App* sc = AddStackCommand(app, cmd.name, cmd.help, args);
    sc->add_option("--stack-name", args->stack_name, "A name or stack ID")->required();
    if (std::string(cmd.name) == "get-template") {
      sc->add_option("--template-stage", args->template_stage, "Original (as submitted) or Processed (the default)");
    }
    if (cmd.logical_id) {
      sc->add_option("--logical-resource-id", args->logical_id, "The resource's logical ID")->required();
    } else if (std::string(cmd.name) == "describe-stack-resources") {
      sc->add_option("--logical-resource-id", args->logical_id, "Only this resource");
    }
    auto run = cmd.run;
    sc->callback([args, run, exit_code] { *exit_code = run(*args); });
  }

  auto exports = std::make_shared<StackArgs>();
  CLI::App* le = AddStackCommand(app, "list-exports", "Every exported output value", exports);
  le->callback([exports, exit_code] { *exit_code = RunListExports(*exports); });

  auto imports = std::make_shared<StackArgs>();
  CLI::App* li = AddStackCommand(app, "list-imports", "The stacks importing an export", imports);
  li->add_option("--export-name", imports->export_name, "The export's name")->required();
  li->callback([imports, exit_code] { *exit_code = RunListImports(*imports); });

  CLI::App* wait = app.add_subcommand("wait", "Wait until a stack reaches a status");
  wait->require_subcommand(1);
  for (const Waiter& w : Waiters()) {
    auto args = std::make_shared<StackArgs>();
    CLI::App* wc = AddStackCommand(*wait, w.name, "Wait for the stack", args);
    wc->add_option("--stack-name", args->stack_name, "A name or stack ID")->required();
    const Waiter* waiter = &w;
    wc->callback([args, waiter, exit_code] { *exit_code = RunWait(*waiter, *args); });
  }
}

}  // namespace ms::cli
