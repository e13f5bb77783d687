// DependencyGraph: which resources must exist before which.
//
// Edges come from Ref, Fn::GetAtt, ${X} / ${X.Attr} in Fn::Sub, and DependsOn.
// Building the graph also checks that every reference resolves (AWS's
// "Unresolved resource dependencies" errors) and that there is no cycle
// ("Circular dependency between resources: [...]"). Nodes are numbered in
// template order; node i is resources()[i].
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "graph/references.h"
#include "template/template.h"

namespace ms {

class DependencyGraph {
 public:
  // Decides whether a resource exists (its Condition holds). Null: all do.
  using Inclusion = std::function<bool(const ResourceDecl&)>;

  // Builds the graph of the included resources. `oracle` decides Fn::If
  // branches, so a reference in a branch not taken adds no edge (null: both
  // branches count, the static view of validate-template and `graph`).
  // Also checks the Outputs' references.
  static Status Build(const Template& t, const Inclusion* included, const ConditionOracle* oracle,
                      DependencyGraph* out);

  size_t size() const { return nodes_.size(); }
  const ResourceDecl& resource(int node) const { return *nodes_[node]; }
  const std::string& name(int node) const { return nodes_[node]->logical_id; }
  // Node of a logical ID, or -1.
  int Find(std::string_view logical_id) const;
  // The nodes this node depends on / that depend on it; sorted, no repeats.
  const std::vector<int>& dependencies(int node) const { return deps_[node]; }
  const std::vector<int>& dependents(int node) const { return dependents_[node]; }
  // Layer 0 depends on nothing; a node's layer is one more than its deepest
  // dependency's. Resources of one layer can be worked on in parallel.
  const std::vector<std::vector<int>>& layers() const { return layers_; }
  // A topological order (dependencies first), stable in template order.
  const std::vector<int>& order() const { return order_; }

 private:
  Status AddEdges(const Template& t, int node, const ConditionOracle* oracle,
                  std::vector<std::string>* unresolved);
  Status Sort();

  std::vector<const ResourceDecl*> nodes_;
  std::unordered_map<std::string, int> index_;
  std::vector<std::vector<int>> deps_;
  std::vector<std::vector<int>> dependents_;
  std::vector<std::vector<int>> layers_;
  std::vector<int> order_;
};

// Text forms of the graph for `moonstack graph`: Graphviz and Mermaid.
std::string GraphToDot(const DependencyGraph& g);
std::string GraphToMermaid(const DependencyGraph& g);

}  // namespace ms
