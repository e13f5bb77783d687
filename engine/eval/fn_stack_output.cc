// Fn::GetStackOutput {StackName, OutputName, Region?, RoleArn?}: the value of
// another stack's output, which need not be exported (the function's page in
// AWS's Template Reference). A weak reference: read when the expression is
// evaluated (the stack's create or update), never tracked afterwards.
//
// Region: the referenced stack's region, default the stack's own (stacks are
// per region: records/stack_scope.h). RoleArn: a role that may
// call DescribeStacks on the referenced stack; there are no permissions to
// check, so it is accepted and not used.
#include "eval/eval_walker.h"

namespace ms::eval_internal {
namespace {

// (ours: AWS's page shows no error texts)
constexpr const char* kGetStackOutputError =
    "Template error: every Fn::GetStackOutput object requires a StackName and an OutputName string, "
    "and optionally a Region and a RoleArn string";

}  // namespace

Status Walker::GetStackOutput(const Value& arg, int depth, Value* out, bool* no_value) {
  if (!arg.is_map()) return Status::Validation(kGetStackOutputError);
  Value stack, output, region, role;
  for (const Member& m : arg.map()) {
    Value* slot = m.key == "StackName" ? &stack
                : m.key == "OutputName" ? &output
                : m.key == "Region" ? &region
                : m.key == "RoleArn" ? &role
                : nullptr;
    if (slot == nullptr) return Status::Validation(kGetStackOutputError);
    MS_RETURN_IF_ERROR(EvalArg(m.value, depth, slot));
  }
  if (stack.is_null() || output.is_null()) return Status::Validation(kGetStackOutputError);
  if (AnyUnknown({&stack, &output, &region, &role}, out)) return Status::OK();
  for (const Value* v : {&stack, &output}) {
    if (!IsText(*v) || v->scalar_text().empty()) return Status::Validation(kGetStackOutputError);
  }
  for (const Value* v : {&region, &role}) {
    if (!v->is_null() && !IsText(*v)) return Status::Validation(kGetStackOutputError);
  }
  return e_.env_.StackOutput(stack.scalar_text(), output.scalar_text(), region.is_null() ? "" : region.scalar_text(),
                             out);
}

}  // namespace ms::eval_internal
