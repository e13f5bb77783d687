#include "graph/graph.h"

#include <algorithm>
#include <unordered_set>

#include "base/strings.h"

namespace ms {
namespace {

bool HasCondition(const Template& t, const std::string& name) {
  return t.conditions.is_map() && t.conditions.find(name) != nullptr;
}

void AddUnique(std::vector<std::string>* list, const std::string& name) {
  if (std::find(list->begin(), list->end(), name) == list->end()) list->push_back(name);
}

// Checks one reference against what exists. `resource_node` is the target's
// node (-1 when it is not an included resource).
Status CheckReference(const Template& t, const Reference& r, bool target_is_resource,
                      std::vector<std::string>* unresolved) {
  switch (r.kind) {
    case Reference::Kind::kCondition:
      if (!HasCondition(t, r.target)) {
        return Status::Validation("Template error: unresolved condition dependency " + r.target +
                                  " in Fn::If");
      }
      return Status::OK();
    case Reference::Kind::kGetAtt:
      if (!target_is_resource) {
        return Status::Validation("Template error: instance of Fn::GetAtt references undefined resource " +
                                  r.target);
      }
      return Status::OK();
    case Reference::Kind::kSub:
      if (!r.attribute.empty()) {
        // ${AWS::Region} has no dot; ${X.Attr} is a GetAtt of resource X.
        if (!target_is_resource) AddUnique(unresolved, r.target + "." + r.attribute);
        return Status::OK();
      }
      [[fallthrough]];
    case Reference::Kind::kRef:
      if (!target_is_resource && t.FindParameter(r.target) == nullptr && !IsPseudoParameter(r.target)) {
        AddUnique(unresolved, r.target);
      }
      return Status::OK();
  }
  return Status::OK();
}

}  // namespace

int DependencyGraph::Find(std::string_view logical_id) const {
  auto it = index_.find(std::string(logical_id));
  return it == index_.end() ? -1 : it->second;
}

Status DependencyGraph::Build(const Template& t, const Inclusion* included,
                              const ConditionOracle* oracle, DependencyGraph* out) {
  DependencyGraph& g = *out;
  g = DependencyGraph();
  g.index_.reserve(t.resources.size());
  g.nodes_.reserve(t.resources.size());
  for (const ResourceDecl& r : t.resources) {
    if (!r.condition.empty() && !HasCondition(t, r.condition)) {
      return Status::Validation("Template format error: Unresolved condition dependency " + r.condition +
                                " in Resources block of the template");
    }
    if (included != nullptr && !(*included)(r)) continue;
    g.index_.emplace(r.logical_id, static_cast<int>(g.nodes_.size()));
    g.nodes_.push_back(&r);
  }
  g.deps_.resize(g.nodes_.size());
  g.dependents_.resize(g.nodes_.size());

  std::vector<std::string> unresolved;
  for (size_t i = 0; i < g.nodes_.size(); ++i) {
    MS_RETURN_IF_ERROR(g.AddEdges(t, static_cast<int>(i), oracle, &unresolved));
  }
  if (!unresolved.empty()) {
    return Status::Validation("Template format error: Unresolved resource dependencies [" +
                              Join(unresolved, ", ") + "] in the Resources block of the template");
  }

  // Outputs may reference only what exists.
  for (const OutputDecl& o : t.outputs) {
    if (!o.condition.empty() && !HasCondition(t, o.condition)) {
      return Status::Validation("Template format error: Unresolved condition dependency " + o.condition +
                                " in Outputs block of the template");
    }
    // An output whose Condition is false does not exist (AWS leaves it out);
    // what it references need not exist either.
    if (!o.condition.empty() && oracle != nullptr && (*oracle)(o.condition) == std::optional<bool>(false)) continue;
    std::vector<Reference> refs;
    MS_RETURN_IF_ERROR(CollectReferences(o.value, &refs, oracle));
    MS_RETURN_IF_ERROR(CollectReferences(o.export_name, &refs, oracle));
    MS_RETURN_IF_ERROR(CollectReferences(o.description, &refs, oracle));
    for (const Reference& r : refs) {
      MS_RETURN_IF_ERROR(CheckReference(t, r, g.Find(r.target) >= 0, &unresolved));
    }
  }
  if (!unresolved.empty()) {
    return Status::Validation("Unresolved resource dependencies [" + Join(unresolved, ", ") +
                              "] in the Outputs block of the template");
  }
  for (auto& d : g.deps_) {
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }
  for (size_t i = 0; i < g.deps_.size(); ++i) {
    for (int d : g.deps_[i]) g.dependents_[d].push_back(static_cast<int>(i));
  }
  return g.Sort();
}

Status DependencyGraph::AddEdges(const Template& t, int node, const ConditionOracle* oracle,
                                 std::vector<std::string>* unresolved) {
  const ResourceDecl& r = *nodes_[node];
  std::vector<Reference> refs;
  for (const Value* part : {&r.properties, &r.metadata, &r.creation_policy, &r.update_policy,
                            &r.deletion_policy, &r.update_replace_policy}) {
    MS_RETURN_IF_ERROR(CollectReferences(*part, &refs, oracle));
  }
  for (const Reference& ref : refs) {
    int target = ref.kind == Reference::Kind::kCondition ? -1 : Find(ref.target);
    MS_RETURN_IF_ERROR(CheckReference(t, ref, target >= 0, unresolved));
    if (target >= 0) deps_[node].push_back(target);
  }
  for (const std::string& d : r.depends_on) {
    int target = Find(d);
    if (target < 0) {
      AddUnique(unresolved, d);
    } else {
      deps_[node].push_back(target);
    }
  }
  return Status::OK();
}

// Kahn's algorithm by layers; what cannot be ordered is in (or behind) a cycle.
Status DependencyGraph::Sort() {
  const size_t n = nodes_.size();
  std::vector<int> waiting(n);
  std::vector<int> current;
  for (size_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<int>(deps_[i].size());
    if (waiting[i] == 0) current.push_back(static_cast<int>(i));
  }
  while (!current.empty()) {
    std::vector<int> next;
    for (int node : current) {
      order_.push_back(node);
      for (int dependent : dependents_[node]) {
        if (--waiting[dependent] == 0) next.push_back(dependent);
      }
    }
    std::sort(next.begin(), next.end());
    layers_.push_back(std::move(current));
    current = std::move(next);
  }
  if (order_.size() == n) return Status::OK();
  std::vector<std::string> stuck;
  for (size_t i = 0; i < n; ++i) {
    if (waiting[i] > 0) stuck.push_back(nodes_[i]->logical_id);
  }
  return Status::Validation("Circular dependency between resources: [" + Join(stuck, ", ") + "]");
}

}  // namespace ms
