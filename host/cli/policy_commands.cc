// set-stack-policy and get-stack-policy, as `aws cloudformation` has them.
// (create-stack --stack-policy-body and update-stack's policy options are in
// stack_commands.cc, with the rest of those commands' options.)
#include <memory>

#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/output.h"
#include "cli/stack_session.h"

namespace ms::cli {
namespace {

struct PolicyArgs {
  SessionOptions session;
  std::string output = "json";
  std::string stack_name;
  std::string body;  // --stack-policy-body: text or file://PATH
  std::string url;   // --stack-policy-url: refused (moonstack never fetches URLs)
};

CLI::App* AddPolicyCommand(CLI::App& app, const char* name, const char* help, PolicyArgs* a) {
  CLI::App* cmd = app.add_subcommand(name, help);
  AddSessionOptions(cmd, &a->session);
  AddOutputOption(cmd, &a->output);
  cmd->add_option("--stack-name", a->stack_name, "A name or stack ID")->required();
  return cmd;
}

int RunSet(const PolicyArgs& a) {
  const char* op = "SetStackPolicy";
  std::string body;
  Status s;
  if (!a.body.empty()) s = ReadTemplateBody(a.body, &body);  // file:// as the aws CLI reads it
  StackSession session;
  if (s.ok()) s = session.Open(a.session);
  if (s.ok()) s = session.service().SetStackPolicy(a.stack_name, body, a.url);
  if (!s.ok()) return ReportError(op, s);
  return 0;  // no output, as the aws CLI prints none
}

int RunGet(const PolicyArgs& a) {
  const char* op = "GetStackPolicy";
  StackSession session;
  Status s = session.Open(a.session, nullptr, Access::kRead);
  std::string body;
  if (s.ok()) s = session.service().GetStackPolicy(a.stack_name, &body);
  if (!s.ok()) return ReportError(op, s);
  // StackPolicyBody is a string in the service model; without a policy the
  // response is empty and the aws CLI prints nothing.
  if (body.empty()) return 0;
  Emit(a.output, Json{{"StackPolicyBody", body}}, op);
  return 0;
}

}  // namespace

void AddPolicyCommands(CLI::App& app, int* exit_code) {
  auto set = std::make_shared<PolicyArgs>();
  CLI::App* s = AddPolicyCommand(app, "set-stack-policy", "Set a stack's stack policy", set.get());
  s->add_option("--stack-policy-body", set->body, "The policy document, or file://PATH");
  s->add_option("--stack-policy-url", set->url, "Refused: moonstack never fetches URLs");
  s->callback([set, exit_code] { *exit_code = RunSet(*set); });

  auto get = std::make_shared<PolicyArgs>();
  CLI::App* g = AddPolicyCommand(app, "get-stack-policy", "A stack's stack policy", get.get());
  g->callback([get, exit_code] { *exit_code = RunGet(*get); });
}

}  // namespace ms::cli
