#include "core/layout/graph_view.h"

#include <map>
#include <set>
#include <unordered_map>

namespace shardscope::layout {

bool isExpanded(const ProgramGraph& graph, int index, const CollapseState& state) {
  const GraphCluster& cluster = graph.clusters[index];
  if (state.expanded.count(cluster.id))
    return true;
  if (state.collapsed.count(cluster.id))
    return false;
  if (cluster.depth >= state.depth || cluster.kind == ClusterKind::Reduce)
    return false;
  if (cluster.kind == ClusterKind::Chain || cluster.kind == ClusterKind::Segment)
    return graph.opCount <= state.smallProgramOps;
  return true;
}

int VisibleGraph::findNode(const std::string& id) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].id == id)
      return static_cast<int>(i);
  return -1;
}

namespace {

class ViewBuilder {
public:
  ViewBuilder(const ProgramGraph& graph, const CollapseState& state)
      : m_graph(graph), m_state(state) {}

  VisibleGraph build() {
    m_view.function = m_graph.function;
    m_view.opCount = m_graph.opCount;
    // The visible cluster of every graph cluster: itself when it and all its ancestors are
    // expanded (>= 0), or the summary node of its outermost collapsed ancestor (encoded -2 - n).
    m_clusterMap.assign(m_graph.clusters.size(), -1);
    for (size_t c = 0; c < m_graph.clusters.size(); ++c)
      mapCluster(static_cast<int>(c));
    m_nodeMap.assign(m_graph.nodes.size(), -1);
    for (size_t n = 0; n < m_graph.nodes.size(); ++n)
      mapNode(static_cast<int>(n));
    addEdges();
    return std::move(m_view);
  }

private:
  void mapCluster(int c) {
    const GraphCluster& cluster = m_graph.clusters[c];
    int parentVisible = -1;
    if (cluster.parent >= 0) {
      int p = m_clusterMap[cluster.parent];
      if (p <= -2) { // inside a collapsed ancestor: same summary node
        m_clusterMap[c] = p;
        return;
      }
      parentVisible = p;
    }
    if (!isExpanded(m_graph, c, m_state)) {
      int node = addSummary(c, parentVisible);
      m_clusterMap[c] = -2 - node;
      return;
    }
    VisibleCluster vc;
    vc.id = cluster.id;
    vc.kind = cluster.kind;
    vc.label = cluster.label;
    vc.parent = parentVisible;
    vc.graphCluster = c;
    m_view.clusters.push_back(std::move(vc));
    int index = static_cast<int>(m_view.clusters.size()) - 1;
    if (parentVisible >= 0)
      m_view.clusters[parentVisible].children.push_back(index);
    m_clusterMap[c] = index;
  }

  int addSummary(int c, int parentVisible) {
    const GraphCluster& cluster = m_graph.clusters[c];
    VisibleNode node;
    node.id = cluster.id;
    node.kind = NodeKind::Summary;
    node.graphCluster = c;
    node.clusterKind = cluster.kind;
    node.cluster = parentVisible;
    node.title = cluster.label;
    node.attributes.push_back(std::to_string(cluster.opCount) +
                              (cluster.opCount == 1 ? " op" : " ops") + " (collapsed)");
    if (cluster.collectives > 0) {
      node.attributes.push_back(std::to_string(cluster.collectives) +
                                (cluster.collectives == 1 ? " collective" : " collectives"));
      node.bytes = cluster.bytes;
    }
    m_view.nodes.push_back(std::move(node));
    int index = static_cast<int>(m_view.nodes.size()) - 1;
    if (parentVisible >= 0)
      m_view.clusters[parentVisible].nodes.push_back(index);
    return index;
  }

  void mapNode(int n) {
    const GraphNode& node = m_graph.nodes[n];
    int visibleCluster = -1;
    if (node.cluster >= 0) {
      int mapped = m_clusterMap[node.cluster];
      if (mapped <= -2) {
        m_nodeMap[n] = -2 - mapped;
        ++m_view.hiddenNodes;
        return;
      }
      visibleCluster = mapped;
    }
    VisibleNode v;
    v.id = node.id;
    v.kind = node.kind;
    v.title = node.title;
    v.attributes = node.attributes;
    v.jaxName = node.jaxName;
    v.cluster = visibleCluster;
    v.bytes = node.bytes;
    v.note = node.note;
    v.graphNode = n;
    m_view.nodes.push_back(std::move(v));
    int index = static_cast<int>(m_view.nodes.size()) - 1;
    if (visibleCluster >= 0)
      m_view.clusters[visibleCluster].nodes.push_back(index);
    m_nodeMap[n] = index;
  }

  void addEdges() {
    std::map<std::pair<int, int>, size_t> seen;
    // Distinct visible consumers of each visible producer, for the fan-out rule.
    std::vector<std::set<int>> consumers(m_view.nodes.size());
    for (const GraphEdge& edge : m_graph.edges) {
      int from = m_nodeMap[edge.from], to = m_nodeMap[edge.to];
      if (from >= 0 && to >= 0 && from != to)
        consumers[from].insert(to);
    }
    std::vector<std::set<int>> kept(m_view.nodes.size());
    size_t producers = m_view.nodes.size();
    for (const GraphEdge& edge : m_graph.edges) {
      int from = m_nodeMap[edge.from], to = m_nodeMap[edge.to];
      if (from < 0 || to < 0 || from == to)
        continue;
      if (static_cast<size_t>(from) < producers && m_state.maxFanout > 0 &&
          consumers[from].size() > static_cast<size_t>(m_state.maxFanout) &&
          !kept[from].count(to)) {
        if (kept[from].size() < static_cast<size_t>(m_state.keptFanout)) {
          kept[from].insert(to);
        } else {
          from = valueRef(from, to, edge.value);
        }
      }
      auto [it, inserted] = seen.emplace(std::make_pair(from, to), m_view.edges.size());
      if (!inserted) {
        VisibleEdge& merged = m_view.edges[it->second];
        if (merged.value != edge.value) {
          ++merged.values;
          merged.label = std::to_string(merged.values) + " values";
        }
        continue;
      }
      m_view.edges.push_back({from, to, edge.label, edge.value, 1});
    }
  }

  // A stand-in for `value` (produced by visible node `from`) next to its consumer `to`.
  int valueRef(int from, int to, const std::string& value) {
    std::string id = m_view.nodes[to].id + "/ref:" + m_view.nodes[from].id;
    if (auto it = m_refs.find(id); it != m_refs.end())
      return it->second;
    VisibleNode ref;
    ref.id = id;
    ref.kind = NodeKind::ValueRef;
    ref.title = value;
    ref.note = value + " from " + m_view.nodes[from].id;
    ref.cluster = m_view.nodes[to].cluster;
    m_view.nodes.push_back(std::move(ref));
    int index = static_cast<int>(m_view.nodes.size()) - 1;
    if (m_view.nodes[index].cluster >= 0)
      m_view.clusters[m_view.nodes[index].cluster].nodes.push_back(index);
    m_refs.emplace(id, index);
    return index;
  }

  const ProgramGraph& m_graph;
  const CollapseState& m_state;
  std::map<std::string, int> m_refs;
  VisibleGraph m_view;
  std::vector<int> m_clusterMap;
  std::vector<int> m_nodeMap;
};

} // namespace

VisibleGraph visibleGraph(const ProgramGraph& graph, const CollapseState& state) {
  return ViewBuilder(graph, state).build();
}

} // namespace shardscope::layout
