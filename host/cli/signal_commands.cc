// signal-resource, as `aws cloudformation signal-resource` has it: records a
// SUCCESS or FAILURE signal for a resource waiting on its CreationPolicy
// (engine/stack/signal_resource.h) in the state file's world.
//
// Embedded commands run their operations to the end before returning, so
// the stack is in progress here only while another process runs its
// operation; that process keeps its world in memory and does not read this
// signal from the state file. A signal reaches a waiting operation through
// `moonstack serve` (SignalResource), a --scenario, or a simulated instance's
// boot script (providers/sim/ec2/boot_script.lua).
#include <memory>

#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/stack_session.h"
#include "stack/signal_resource.h"

namespace ms::cli {
namespace {

struct SignalArgs {
  SessionOptions session;
  SignalResourceInput in;
};

int Run(SignalArgs& a) {
  StackSession session;
  Status s = session.Open(a.session);
  if (s.ok()) s = SignalResource(session.service(), &session.world(), session.clock().NowMs(), a.in);
  if (s.ok()) s = session.Close();  // saves the world with the signal
  if (!s.ok()) return ReportError("SignalResource", s);
  return 0;  // no output, as the aws CLI prints none
}

}  // namespace

void AddSignalCommands(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<SignalArgs>();
  CLI::App* cmd = app.add_subcommand("signal-resource", "Send a signal to a resource waiting on its CreationPolicy");
  AddSessionOptions(cmd, &a->session);
  // Not ->required(): a missing option is AWS's ValidationError, as the
  // service answers it, rather than CLI11's usage message.
  cmd->add_option("--stack-name", a->in.stack_name, "A name or stack ID");
  cmd->add_option("--logical-resource-id", a->in.logical_resource_id, "The resource's logical ID");
  cmd->add_option("--unique-id", a->in.unique_id, "The signal's ID (an instance ID, for instance); 1-64 characters");
  cmd->add_option("--status", a->in.status, "SUCCESS or FAILURE");
  cmd->callback([a, exit_code] { *exit_code = Run(*a); });
}

}  // namespace ms::cli
