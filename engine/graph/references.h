// What an expression refers to: parameters, resources, attributes, conditions.
//
// The dependency graph, the template checks and the planner all need "which
// names does this expression use"; this is the one walk that answers it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "template/value.h"

namespace ms {

struct Reference {
  enum class Kind { kRef, kGetAtt, kSub, kCondition };
  Kind kind = Kind::kRef;
  std::string target;     // parameter, pseudo parameter, resource or condition name
  std::string attribute;  // GetAtt / ${X.Attr}: the attribute; else empty
};

// Decides an Fn::If: the condition's value, or nullopt when it is not known
// (then both branches are followed).
using ConditionOracle = std::function<std::optional<bool>(std::string_view condition)>;

// Appends every reference in `v`: Ref X; Fn::GetAtt [X, A] and "X.A"; ${X} and
// ${X.A} in Fn::Sub strings (except the Fn::Sub map's own variables); Fn::If
// and Condition condition names (kind kCondition). With an oracle, only the
// Fn::If branch that is taken is followed. Fails on a malformed Fn::Sub string.
Status CollectReferences(const Value& v, std::vector<Reference>* out,
                         const ConditionOracle* oracle = nullptr);

}  // namespace ms
