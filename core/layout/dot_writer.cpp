#include "core/layout/dot_writer.h"

#include "core/support/format_bytes.h"

#include <cstdio>

namespace shardscope::layout {

NodeStyle nodeStyle(NodeKind kind) {
  switch (kind) {
  case NodeKind::Argument: return {"#e3eefc", "#3f6fb5", "#17324f"};
  case NodeKind::Result: return {"#e4f4e9", "#3d8b57", "#173f25"};
  case NodeKind::Op: return {"#ffffff", "#8c96a8", "#1f2937"};
  case NodeKind::Collective: return {"#fff1d6", "#d08a14", "#4a3000"};
  case NodeKind::InsertedCollective: return {"#dcf3ef", "#0f766e", "#0b3b36"};
  case NodeKind::Pbroadcast: return {"#efe6fb", "#7c4dbd", "#35195c"};
  case NodeKind::RegionEntry: return {"#e8ecf3", "#5b6b85", "#1f2937"};
  case NodeKind::RegionExit: return {"#e8ecf3", "#5b6b85", "#1f2937"};
  case NodeKind::Summary: return {"#f1f2f6", "#4b5563", "#111827"};
  case NodeKind::ValueRef: return {"#f8fafc", "#94a3b8", "#475569"};
  }
  return {"#ffffff", "#8c96a8", "#1f2937"};
}

const char* badgeColour(NodeKind kind, int64_t bytes) {
  if (bytes == 0)
    return "#6b7280";
  switch (kind) {
  case NodeKind::InsertedCollective: return "#0f766e";
  case NodeKind::Collective: return "#b7770a";
  case NodeKind::Pbroadcast: return "#7c4dbd";
  default: return "#4b5563";
  }
}

NodeStyle clusterStyle(ClusterKind kind) {
  switch (kind) {
  case ClusterKind::ManualComputation: return {"#f2f7ff", "#4a7fd4", "#1d3d73"};
  case ClusterKind::Loop: return {"#fff9ef", "#c99a3b", "#5a4210"};
  case ClusterKind::Branch: return {"#f6fbf3", "#6da34d", "#2b4a1a"};
  case ClusterKind::Reduce: return {"#f7f7f9", "#9aa1ad", "#374151"};
  case ClusterKind::Region: return {"#f7f7f9", "#9aa1ad", "#374151"};
  case ClusterKind::Chain: return {"#fbfbfc", "#b8bec9", "#4b5563"};
  case ClusterKind::Segment: return {"#fafafa", "#a3a9b4", "#4b5563"};
  }
  return {"#f7f7f9", "#9aa1ad", "#374151"};
}

std::vector<std::string> labelLines(const VisibleNode& node) {
  std::vector<std::string> lines{node.title};
  lines.insert(lines.end(), node.attributes.begin(), node.attributes.end());
  return lines;
}

namespace {

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

void writeNode(const VisibleNode& node, const std::string& indent, std::string& out) {
  NodeStyle style = nodeStyle(node.kind);
  std::string label;
  for (const std::string& line : labelLines(node))
    label += (label.empty() ? "" : "\n") + line;
  std::string styleAttr = "rounded,filled";
  if (node.kind == NodeKind::InsertedCollective)
    styleAttr += ",bold";
  if (node.kind == NodeKind::Pbroadcast || node.kind == NodeKind::ValueRef)
    styleAttr += ",dashed";
  out += indent + quote(node.id) + " [label=" + quote(label) + ", class=" +
         quote(std::string(nodeKindName(node.kind)) + (node.classes.empty() ? "" : " ") +
               node.classes) +
         ", style=" + quote(styleAttr) + ", fillcolor=" + quote(style.fill) +
         ", color=" + quote(style.border) + ", fontcolor=" + quote(style.text);
  if (node.kind == NodeKind::Summary)
    out += ", peripheries=2";
  if (node.bytes >= 0)
    out += ", xlabel=" + quote(support::formatBytes(node.bytes));
  if (!node.note.empty())
    out += ", tooltip=" + quote(node.note);
  out += "];\n";
}

void writeCluster(const VisibleGraph& graph, int index, const std::string& indent,
                  std::string& out) {
  const VisibleCluster& cluster = graph.clusters[index];
  NodeStyle style = clusterStyle(cluster.kind);
  out += indent + "subgraph " + quote("cluster_" + std::to_string(index)) + " {\n";
  std::string inner = indent + "  ";
  out += inner + "id=" + quote(cluster.id) + "; label=" + quote(cluster.label) + "; class=" +
         quote(clusterKindName(cluster.kind)) + ";\n";
  out += inner + "style=" +
         quote(cluster.kind == ClusterKind::Chain ? "rounded,filled,dashed" : "rounded,filled") +
         "; fillcolor=" + quote(style.fill) + "; color=" + quote(style.border) +
         "; fontcolor=" + quote(style.text) + ";\n";
  for (int child : cluster.children)
    writeCluster(graph, child, inner, out);
  for (int node : cluster.nodes)
    writeNode(graph.nodes[node], inner, out);
  out += indent + "}\n";
}

} // namespace

std::string writeDot(const VisibleGraph& graph, const DotOptions& options) {
  std::string out = "digraph " + quote(graph.function) + " {\n";
  std::string font = quote(options.fontName);
  out += "  graph [rankdir=" + options.rankdir + ", fontname=" + font +
         ", fontsize=" + number(options.fontSize) +
         ", nodesep=0.3, ranksep=0.35, labeljust=l, forcelabels=true];\n";
  out += "  node [shape=box, fontname=" + font + ", fontsize=" + number(options.fontSize) +
         ", margin=\"0.12,0.04\", height=0.3];\n";
  out += "  edge [fontname=" + font + ", fontsize=" + number(options.fontSize - 1) +
         ", color=\"#6b7280\", fontcolor=\"#374151\", arrowsize=0.7];\n";
  for (size_t c = 0; c < graph.clusters.size(); ++c)
    if (graph.clusters[c].parent < 0)
      writeCluster(graph, static_cast<int>(c), "  ", out);
  for (const VisibleNode& node : graph.nodes)
    if (node.cluster < 0)
      writeNode(node, "  ", out);
  for (const VisibleEdge& edge : graph.edges) {
    out += "  " + quote(graph.nodes[edge.from].id) + " -> " + quote(graph.nodes[edge.to].id);
    if (options.edgeLabels && !edge.label.empty())
      out += " [label=" + quote(edge.label) + "]";
    out += ";\n";
  }
  return out + "}\n";
}

} // namespace shardscope::layout
