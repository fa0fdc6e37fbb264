#pragma once

// What is on screen: a `ProgramGraph` with some clusters collapsed into summary nodes. The GUI
// keeps a `CollapseState` per function and asks for the visible graph whenever the user folds or
// unfolds a cluster; the report writers use the default state.

#include "core/layout/program_graph.h"

#include <set>
#include <string>
#include <vector>

namespace shardscope::layout {

/// Which clusters are open. A cluster is expanded when its id is in `expanded`, or when it is not
/// in `collapsed` and the default rule opens it: its depth is below `depth` and it is not a
/// `Reduce` body; synthetic `Chain` and `Segment` clusters open by default only when the function
/// has at most `smallProgramOps` ops (large programs open collapsed).
struct CollapseState {
  int depth = 1000;
  int64_t smallProgramOps = 400;
  std::set<std::string> expanded;
  std::set<std::string> collapsed;
  /// A value feeding more than this many visible nodes keeps its first `keptFanout` edges; the
  /// others start at a small `ValueRef` node next to their consumer. Long edges are what makes
  /// `dot` slow (each spans one virtual node per rank): 200 edges from two arguments to 100
  /// chained calls took minutes to lay out.
  int maxFanout = 4;
  int keptFanout = 2;
};

/// Returns true when cluster `index` of `graph` is expanded under `state` (ignoring whether its
/// ancestors are).
bool isExpanded(const ProgramGraph& graph, int index, const CollapseState& state);

/// A node on screen: a node of the graph, or a collapsed cluster drawn as one summary node.
struct VisibleNode {
  std::string id;
  NodeKind kind = NodeKind::Op;
  std::string title;
  std::vector<std::string> attributes;
  /// The full JAX name of the node's op (`GraphNode::jaxName`), shown in its tooltip.
  std::string jaxName;
  /// The visible (expanded) cluster holding it, index into `VisibleGraph::clusters`, or -1.
  int cluster = -1;
  int64_t bytes = -1;
  std::string note;
  /// The graph node (index into `ProgramGraph::nodes`) or, for a summary node, -1.
  int graphNode = -1;
  /// For a summary node: the collapsed cluster (index into `ProgramGraph::clusters`).
  int graphCluster = -1;
  /// For a summary node: the collapsed cluster's kind.
  ClusterKind clusterKind = ClusterKind::Region;
  /// Extra CSS classes, e.g. `changed` or `added` in a diff.
  std::string classes;
};

/// An edge on screen. Edges between the same two visible nodes are merged; `values` counts them.
struct VisibleEdge {
  int from = 0;
  int to = 0;
  std::string label;
  std::string value;
  int values = 1;
};

/// An expanded cluster on screen.
struct VisibleCluster {
  std::string id;
  ClusterKind kind = ClusterKind::Region;
  std::string label;
  int parent = -1;
  int graphCluster = -1;
  std::vector<int> nodes;
  std::vector<int> children;
};

struct VisibleGraph {
  std::string function;
  std::vector<VisibleNode> nodes;
  std::vector<VisibleEdge> edges;
  std::vector<VisibleCluster> clusters;
  /// Ops of the whole function, and how many nodes were folded into summaries.
  int64_t opCount = 0;
  int64_t hiddenNodes = 0;

  /// The index of the visible node `id`, or -1.
  int findNode(const std::string& id) const;
};

/// Folds every collapsed cluster of `graph` (and everything under it) into one summary node and
/// reroutes the edges: the edge of a value becomes an edge between the visible nodes that hold its
/// producer and its consumer; edges inside one summary disappear, parallel edges merge. Cost is
/// linear in the graph's size; the result is deterministic (graph order).
VisibleGraph visibleGraph(const ProgramGraph& graph, const CollapseState& state);

} // namespace shardscope::layout
