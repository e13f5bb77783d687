// Graphviz and Mermaid text for a DependencyGraph. Arrows point from a
// resource to what it depends on, as "A needs B".
#include "graph/graph.h"

namespace ms {
namespace {

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

}  // namespace

std::string GraphToDot(const DependencyGraph& g) {
  std::string out = "digraph stack {\n  rankdir=BT;\n  node [shape=box, fontname=\"Helvetica\"];\n";
  for (size_t i = 0; i < g.size(); ++i) {
    const ResourceDecl& r = g.resource(static_cast<int>(i));
    // "\n" in a dot label is a line break, so it is written unescaped.
    out += "  " + Quoted(r.logical_id) + " [label=\"" + r.logical_id + "\\n" + r.type + "\"];\n";
  }
  for (size_t i = 0; i < g.size(); ++i) {
    for (int d : g.dependencies(static_cast<int>(i))) {
      out += "  " + Quoted(g.name(static_cast<int>(i))) + " -> " + Quoted(g.name(d)) + ";\n";
    }
  }
  return out + "}\n";
}

std::string GraphToMermaid(const DependencyGraph& g) {
  // Mermaid node IDs must be simple: logical IDs are alphanumeric already.
  std::string out = "graph BT\n";
  for (size_t i = 0; i < g.size(); ++i) {
    const ResourceDecl& r = g.resource(static_cast<int>(i));
    out += "  " + r.logical_id + "[\"" + r.logical_id + "<br/>" + r.type + "\"]\n";
  }
  for (size_t i = 0; i < g.size(); ++i) {
    for (int d : g.dependencies(static_cast<int>(i))) {
      out += "  " + g.name(static_cast<int>(i)) + " --> " + g.name(d) + "\n";
    }
  }
  return out;
}

}  // namespace ms
