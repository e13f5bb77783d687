// The change set commands of `aws cloudformation`: create-change-set,
// describe-change-set, execute-change-set, delete-change-set,
// list-change-sets — the aws CLI's options and JSON shapes (the service
// model's member names and order, as botocore parses them). Like the other
// workflow commands, execute-change-set runs the operation to its end before
// it returns.
#include <memory>

#include "cli/arguments.h"
#include "cli/change_set_json.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/output.h"
#include "cli/stack_session.h"
#include "stack/change_sets.h"
#include "stack/template_url.h"

namespace ms::cli {
namespace {

struct ChangeSetArgs {
  SessionOptions session;
  std::string output = "json";
  std::string stack_name, change_set_name, change_set_type, description;
  std::string template_body, template_url;
  bool use_previous_template = false;
  bool include_nested_stacks = false;  // create-change-set
  std::vector<std::string> parameters, capabilities, tags;
  bool disable_rollback = false;
  bool include_property_values = false;  // describe-change-set
  std::string client_request_token;
  std::string resources_to_import;  // create-change-set --resources-to-import (JSON or file://)
};

void AddSessionOptions(CLI::App* cmd, ChangeSetArgs* a) {
  cli::AddSessionOptions(cmd, &a->session);
  AddOutputOption(cmd, &a->output);
}

void Emit(const ChangeSetArgs& a, const Json& response, const std::string& op) { cli::Emit(a.output, response, op); }

ChangeSetService Service(StackSession& session) { return ChangeSetService(session.service().context()); }

int RunCreate(const ChangeSetArgs& a) {
  const char* op = "CreateChangeSet";
  CreateChangeSetInput in;
  in.stack_name = a.stack_name;
  in.change_set_name = a.change_set_name;
  in.change_set_type = a.change_set_type;
  in.description = a.description;
  in.use_previous_template = a.use_previous_template;
  in.include_nested_stacks = a.include_nested_stacks;
  in.capabilities = a.capabilities;
  Status s;
  if (!a.template_body.empty()) s = ReadTemplateBody(a.template_body, &in.template_body);
  if (s.ok()) s = ParseParameters(a.parameters, &in.parameters);
  if (s.ok() && !a.tags.empty()) s = ParseTags(a.tags, &in.tags.emplace());
  if (s.ok() && !a.resources_to_import.empty()) s = ParseResourcesToImport(a.resources_to_import, &in.resources_to_import);
  StackSession session;
  if (s.ok()) s = session.Open(a.session);
  if (s.ok() && in.template_body.empty() && !a.template_url.empty()) {
    s = ReadTemplateUrl(session.service().context(), a.template_url, &in.template_body);
  }
  std::string id, stack_id;
  if (s.ok()) s = Service(session).Create(in, &id, &stack_id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return ReportError(op, s);
  Emit(a, Json{{"Id", id}, {"StackId", stack_id}}, op);
  return 0;
}

int RunDescribe(const ChangeSetArgs& a) {
  const char* op = "DescribeChangeSet";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  ChangeSetRecord cs;
  if (s.ok()) s = Service(session).Describe(a.change_set_name, a.stack_name, &cs);
  if (!s.ok()) return ReportError(op, s);
  if (!a.include_property_values) DropPropertyValues(&cs);
  Emit(a, DescribeChangeSetJson(cs), op);
  return 0;
}

int RunExecute(const ChangeSetArgs& a) {
  const char* op = "ExecuteChangeSet";
  StackSession session;
  Status s = session.Open(a.session);
  ChangeSetService service = Service(session);
  ChangeSetRecord cs;
  if (s.ok()) s = service.Describe(a.change_set_name, a.stack_name, &cs);
  std::unique_ptr<StackLock> lock;
  if (s.ok()) s = session.Lock(cs.stack_name, &lock);
  ExecuteChangeSetInput in{a.change_set_name, a.stack_name, a.disable_rollback, a.client_request_token};
  std::string stack_id;
  if (s.ok()) s = service.Execute(in, &stack_id);
  if (!s.ok()) return ReportError(op, s);
  s = session.service().Run(stack_id);
  if (s.ok()) s = session.Close();
  if (!s.ok()) return ReportError(op, s);
  return 0;  // ExecuteChangeSetOutput is empty: the aws CLI prints nothing
}

int RunDelete(const ChangeSetArgs& a) {
  const char* op = "DeleteChangeSet";
  StackSession session;
  Status s = session.Open(a.session);
  if (s.ok()) s = Service(session).Delete(a.change_set_name, a.stack_name);
  if (!s.ok()) return ReportError(op, s);
  return 0;
}

int RunList(const ChangeSetArgs& a) {
  const char* op = "ListChangeSets";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  std::vector<ChangeSetRecord> all;
  if (s.ok()) s = Service(session).List(a.stack_name, &all);
  if (!s.ok()) return ReportError(op, s);
  Json summaries = Json::array();
  for (const ChangeSetRecord& cs : all) summaries.push_back(ChangeSetSummaryJson(cs));
  Emit(a, Json{{"Summaries", summaries}}, op);
  return 0;
}

CLI::App* AddCommand(CLI::App& app, const char* name, const char* help, const std::shared_ptr<ChangeSetArgs>& a) {
  CLI::App* cmd = app.add_subcommand(name, help);
  AddSessionOptions(cmd, a.get());
  return cmd;
}

}  // namespace

void AddChangeSetCommands(CLI::App& app, int* exit_code) {
  auto create = std::make_shared<ChangeSetArgs>();
  CLI::App* c = AddCommand(app, "create-change-set", "Plan a stack create or update as a change set", create);
  c->add_option("--stack-name", create->stack_name, "The stack's name or ID")->required();
  c->add_option("--change-set-name", create->change_set_name, "The change set's name")->required();
  c->add_option("--template-body", create->template_body, "Template text, or file://PATH");
  c->add_option("--template-url", create->template_url, "An S3 URL of the template (the simulated S3), or file://PATH");
  c->add_flag("--use-previous-template", create->use_previous_template, "Keep the stack's current template");
  c->add_flag("--include-nested-stacks", create->include_nested_stacks,
              "Plan a change set for each nested stack too (DescribeChangeSet shows their ChangeSetId)");
  c->add_option("--parameters", create->parameters,
                "ParameterKey=K,ParameterValue=V or ParameterKey=K,UsePreviousValue=true ... (or JSON)");
  c->add_option("--capabilities", create->capabilities, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, ...");
  c->add_option("--tags", create->tags, "Key=k,Value=v ...");
  c->add_option("--change-set-type", create->change_set_type, "UPDATE (default), CREATE or IMPORT");
  c->add_option("--resources-to-import", create->resources_to_import,
                "IMPORT: a JSON list (or file://PATH) of {ResourceType, LogicalResourceId, ResourceIdentifier}");
  c->add_option("--description", create->description, "A description of the change set");
  c->callback([create, exit_code] { *exit_code = RunCreate(*create); });

  auto describe = std::make_shared<ChangeSetArgs>();
  CLI::App* d = AddCommand(app, "describe-change-set", "A change set and the changes it makes", describe);
  d->add_option("--change-set-name", describe->change_set_name, "The change set's name or ID")->required();
  d->add_option("--stack-name", describe->stack_name, "The stack's name or ID (with a change set name)");
  d->add_flag("--include-property-values", describe->include_property_values,
              "Each change's properties before and after (BeforeContext, AfterContext)");
  d->callback([describe, exit_code] { *exit_code = RunDescribe(*describe); });

  auto execute = std::make_shared<ChangeSetArgs>();
  CLI::App* e = AddCommand(app, "execute-change-set", "Run a change set's create or update to the end", execute);
  e->add_option("--change-set-name", execute->change_set_name, "The change set's name or ID")->required();
  e->add_option("--stack-name", execute->stack_name, "The stack's name or ID (with a change set name)");
  e->add_flag("--disable-rollback", execute->disable_rollback, "Keep what was done when the operation fails");
  e->add_option("--client-request-token", execute->client_request_token, "A token carried by the events");
  e->add_option("--scenario", execute->session.scenario,
                "A Lua scenario script: fail(match), latency(match, s), on(event_match, fn)");
  AddLogOptions(e, &execute->session);
  e->callback([execute, exit_code] { *exit_code = RunExecute(*execute); });

  auto del = std::make_shared<ChangeSetArgs>();
  CLI::App* x = AddCommand(app, "delete-change-set", "Delete a change set", del);
  x->add_option("--change-set-name", del->change_set_name, "The change set's name or ID")->required();
  x->add_option("--stack-name", del->stack_name, "The stack's name or ID (with a change set name)");
  x->callback([del, exit_code] { *exit_code = RunDelete(*del); });

  auto list = std::make_shared<ChangeSetArgs>();
  CLI::App* l = AddCommand(app, "list-change-sets", "Summaries of a stack's change sets", list);
  l->add_option("--stack-name", list->stack_name, "The stack's name or ID")->required();
  l->callback([list, exit_code] { *exit_code = RunList(*list); });
}

}  // namespace ms::cli
