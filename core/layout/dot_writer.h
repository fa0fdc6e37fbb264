#pragma once

// Graphviz DOT text of a visible graph, with the house styles (the same classes and colours the
// SVG writer and the GUI use). Deterministic: the same graph always gives the same bytes.

#include "core/layout/graph_view.h"

#include <string>

namespace shardscope::layout {

struct DotOptions {
  /// Label font; sizes in points. Layout measures labels with this font.
  std::string fontName = "DejaVu Sans";
  double fontSize = 10;
  /// Write value types on edges.
  bool edgeLabels = true;
  /// `TB` (top to bottom, the default) or `LR`.
  std::string rankdir = "TB";
};

/// The fill and border colours of a node of `kind` (`#rrggbb`), shared by every writer.
struct NodeStyle {
  const char* fill;
  const char* border;
  const char* text;
};
NodeStyle nodeStyle(NodeKind kind);
/// The colour of the byte badge of a collective node of `kind` moving `bytes` per device: the
/// kind's colour, grey when the collective is free (an implicit pbroadcast, 0 B).
const char* badgeColour(NodeKind kind, int64_t bytes);
/// The fill and border colours of a cluster of `kind`.
NodeStyle clusterStyle(ClusterKind kind);

/// The label lines of `node`: its title, then its attributes.
std::vector<std::string> labelLines(const VisibleNode& node);

/// Writes `graph` as a DOT digraph. Node names are the stable node ids; clusters are
/// `subgraph "cluster_<n>"` with the cluster id in their `id` attribute.
std::string writeDot(const VisibleGraph& graph, const DotOptions& options = {});

} // namespace shardscope::layout
