// moonstack plan: what an update (or, for a stack that does not exist, a
// create) would do, for a person to read at a glance — like `terraform plan`.
// It is the change set's plan (stack/change_sets.h, the update planner), not
// saved anywhere:
//
//   -/+ Vpc (AWS::EC2::VPC) must be replaced: CidrBlock forces replacement
//         ~ CidrBlock  forces replacement  (parameter Cidr changed)
//   -/+ Subnet (AWS::EC2::Subnet) replaced because Vpc is replaced
//         ~ VpcId  forces replacement  (Vpc is replaced)
//   ~   Role (AWS::IAM::Role) will be updated in place
//         ~ Policies
//   +   Queue (AWS::SQS::Queue) will be created
//   -   Old (AWS::SNS::Topic) will be deleted
//
//   Plan: 1 to add, 3 to change (2 replaced), 1 to remove.
//
// `--output json`: the ResourceChanges as describe-change-set shows them,
// with the counts.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include "cli/arguments.h"
#include "cli/change_set_json.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/io.h"
#include "cli/stack_session.h"
#include "stack/change_sets.h"

namespace ms::cli {
namespace {

struct PlanArgs {
  SessionOptions session;
  std::string output = "text";
  std::string stack_name, template_body;
  std::vector<std::string> parameters, capabilities;
};

struct Counts {
  size_t add = 0, change = 0, replaced = 0, remove = 0;
};

// "Vpc" of "Vpc" (ResourceReference) or "Vpc.Arn" (ResourceAttribute).
std::string LogicalIdOf(const std::string& causing_entity) {
  return causing_entity.substr(0, causing_entity.find('.'));
}

// The resources the update will replace: Replacement True, and the
// cascade — a Conditional one whose property that forces replacement is a
// Ref to a replaced resource, which gets a new physical ID, so the value
// does change (seed 000 run 7). (A GetAtt may keep its value: that one stays
// "may be replaced".) One pass: the plan lists dependencies first.
std::set<std::string> Replaced(const Plan& plan) {
  std::set<std::string> out;
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.action != ChangeAction::kModify || rp.replacement == Replacement::kFalse) continue;
    bool replaced = rp.replacement == Replacement::kTrue;
    for (const ChangeDetail& d : rp.details) {
      replaced = replaced || (d.requires_recreation == Recreation::kAlways &&
                              d.source == ChangeSource::kResourceReference && out.count(d.causing_entity) > 0);
    }
    if (replaced) out.insert(rp.logical_id);
  }
  return out;
}

Counts CountOf(const Plan& plan, const std::set<std::string>& replaced) {
  Counts c;
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.action == ChangeAction::kAdd) ++c.add;
    if (rp.action == ChangeAction::kRemove) ++c.remove;
    if (rp.action == ChangeAction::kModify) ++c.change;
  }
  c.replaced = replaced.size();
  return c;
}


bool FromResource(const ChangeDetail& d) {
  return d.source == ChangeSource::kResourceReference || d.source == ChangeSource::kResourceAttribute;
}

// Why one property changes, in words: "parameter Cidr changed",
// "Vpc is replaced", "Role.Arn changes"; empty for a direct edit.
std::string Cause(const std::set<std::string>& replaced, const ChangeDetail& d) {
  switch (d.source) {
    case ChangeSource::kParameterReference:
      return "parameter " + d.causing_entity + " changed";
    case ChangeSource::kResourceReference:
    case ChangeSource::kResourceAttribute:
      if (replaced.count(LogicalIdOf(d.causing_entity)) > 0) return LogicalIdOf(d.causing_entity) + " is replaced";
      return d.causing_entity + " changes";
    case ChangeSource::kDirectModification:
      break;
  }
  return d.evaluation == Evaluation::kDynamic ? "known at run time" : "";
}

// The words after a resource's name.
std::string Verdict(const std::set<std::string>& replaced, const ResourcePlan& rp) {
  switch (rp.action) {
    case ChangeAction::kAdd: return "will be created";
    case ChangeAction::kRemove: return "will be deleted";
    case ChangeAction::kNone: return "";
    case ChangeAction::kModify: break;
  }
  if (rp.replacement == Replacement::kFalse) return "will be updated in place";
  if (replaced.count(rp.logical_id) == 0) return "may be replaced (decided when the update runs)";
  if (rp.type_changed) return "must be replaced: its type changes";
  for (const ChangeDetail& d : rp.details) {
    if (d.requires_recreation == Recreation::kAlways && !FromResource(d)) {
      return "must be replaced: " + d.name + " forces replacement";
    }
  }
  // The cascade: replaced only because what it refers to is replaced.
  for (const ChangeDetail& d : rp.details) {
    if (d.requires_recreation == Recreation::kAlways && replaced.count(LogicalIdOf(d.causing_entity)) > 0) {
      return "replaced because " + LogicalIdOf(d.causing_entity) + " is replaced";
    }
  }
  return "must be replaced";
}

// One line per changed property (or Metadata, or the stack's Tags), its causes together.
void PrintDetails(const std::set<std::string>& replaced, const ResourcePlan& rp) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<Recreation, std::vector<std::string>>> lines;
  for (const ChangeDetail& d : rp.details) {
    const std::string name = d.attribute == TargetAttribute::kProperties ? d.name : TargetAttributeName(d.attribute);
    auto [it, added] = lines.try_emplace(name, Recreation::kNever, std::vector<std::string>{});
    if (added) order.push_back(name);
    if (d.requires_recreation > it->second.first) it->second.first = d.requires_recreation;
    const std::string cause = Cause(replaced, d);
    auto& causes = it->second.second;
    if (!cause.empty() && std::find(causes.begin(), causes.end(), cause) == causes.end()) causes.push_back(cause);
  }
  for (const std::string& name : order) {
    const auto& [recreation, causes] = lines[name];
    std::string line = "      ~ " + name;
    if (recreation == Recreation::kAlways) line += "  forces replacement";
    if (recreation == Recreation::kConditionally) line += "  may force replacement";
    if (!causes.empty()) {
      line += "  (";
      for (size_t i = 0; i < causes.size(); ++i) line += (i > 0 ? ", " : "") + causes[i];
      line += ")";
    }
    std::cout << line << "\n";
  }
}

const char* Symbol(const std::set<std::string>& replaced, const ResourcePlan& rp) {
  switch (rp.action) {
    case ChangeAction::kAdd: return "+  ";
    case ChangeAction::kRemove: return "-  ";
    case ChangeAction::kModify: return replaced.count(rp.logical_id) > 0 ? "-/+" : "~  ";
    case ChangeAction::kNone: break;
  }
  return "   ";
}

std::string Summary(const Counts& c) {
  return "Plan: " + std::to_string(c.add) + " to add, " + std::to_string(c.change) + " to change (" +
         std::to_string(c.replaced) + " replaced), " + std::to_string(c.remove) + " to remove.";
}

int RunPlan(const PlanArgs& a) {
  const char* op = "Plan";
  if (a.output != "text" && a.output != "json") {
    return ReportError(op, Status::Validation("--output must be text or json"));
  }
  ChangeSetPlanInput in;
  in.stack_name = a.stack_name;
  in.change_set_name = "plan";
  in.capabilities = a.capabilities;
  Status s = ReadTemplateBody(a.template_body, &in.template_body);
  if (s.ok()) s = ParseParameters(a.parameters, &in.parameters);
  StackSession session;
  if (s.ok()) s = session.Open(a.session, nullptr, Access::kRead);
  if (!s.ok()) return ReportError(op, s);
  // An existing stack is updated; one that does not exist (or is still in
  // review) would be created: everything is an add.
  StackRecord existing;
  const bool exists = session.service().FindStack(a.stack_name, &existing).ok() &&
                      existing.status != StackStatus::kDeleteComplete &&
                      existing.status != StackStatus::kReviewInProgress;
  in.type = exists ? "UPDATE" : "CREATE";
  ChangeSetPlan planned;
  s = PlanChangeSet(session.service().context(), in, &planned);
  if (!s.ok()) return ReportError(op, s);
  const Plan& plan = planned.plan;
  const std::set<std::string> replaced = Replaced(plan);
  const Counts counts = CountOf(plan, replaced);

  if (a.output == "json") {
    Json changes = Json::array();
    for (const ChangeSetResourceChange& c : ResourceChangesOf(plan)) changes.push_back(ResourceChangeJson(c));
    PrintJson(Json{{"StackName", a.stack_name},
                   {"StackExists", exists},
                   {"Changes", changes},
                   {"Add", counts.add},
                   {"Change", counts.change},
                   {"Replace", counts.replaced},
                   {"Remove", counts.remove}});
    return 0;
  }
  if (plan.empty()) {
    std::cout << "No changes. Stack " << a.stack_name << " is up to date.\n";
  }
  for (const ResourcePlan& rp : plan.resources) {
    if (rp.action == ChangeAction::kNone) continue;
    std::cout << Symbol(replaced, rp) << " " << rp.logical_id << " (" << rp.type << ") " << Verdict(replaced, rp)
              << "\n";
    if (rp.action == ChangeAction::kModify) PrintDetails(replaced, rp);
  }
  std::cout << "\n" << Summary(counts) << "\n";
  return 0;
}

}  // namespace

void AddPlanCommand(CLI::App& app, int* exit_code) {
  auto a = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand("plan", "Show what deploying a template to a stack would change");
  cmd->add_option("--stack-name", a->stack_name, "The stack's name or ID")->required();
  cmd->add_option("--template-body", a->template_body, "Template text, or file://PATH")->required();
  cmd->add_option("--parameters", a->parameters,
                  "ParameterKey=K,ParameterValue=V or ParameterKey=K,UsePreviousValue=true ... (or JSON)");
  cmd->add_option("--capabilities", a->capabilities, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, ...");
  cmd->add_option("--output", a->output, "text (default, for people) or json");
  AddSessionOptions(cmd, &a->session);
  cmd->callback([a, exit_code] { *exit_code = RunPlan(*a); });
}

}  // namespace ms::cli
