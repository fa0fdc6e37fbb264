#pragma once

// Layout of a visible graph with Graphviz `dot`, in process (libgvc/cgraph), returned as plain
// data: node boxes, edge splines and cluster boxes in points, origin top left, y down.
//
// Graphviz keeps global state, so layouts are serialized by a process-wide mutex; call from one
// worker thread (the GUI's engine thread). A `dot` layout cannot be interrupted once it runs:
// `maxNodes` bounds its cost up front, and `cancel` is checked before and after it (a cancelled
// request returns `Cancelled` and its result is dropped).

#include "core/layout/dot_writer.h"
#include "core/layout/graph_view.h"

#include <atomic>
#include <string>
#include <vector>

namespace shardscope::layout {

struct Point {
  double x = 0;
  double y = 0;
};

/// A node's box: centre, width and height.
struct NodeBox {
  Point center;
  double width = 0;
  double height = 0;
};

/// An edge as a piecewise cubic Bézier curve: `points[0]`, then three points per segment. When
/// `hasArrow`, the arrow head goes from the last point to `arrowTip`.
struct EdgeSpline {
  std::vector<Point> points;
  bool hasArrow = false;
  Point arrowTip;
  bool hasLabel = false;
  Point labelCenter;
};

/// A cluster's box (top-left corner and size) and the position of its label's centre.
struct ClusterBox {
  Point topLeft;
  double width = 0;
  double height = 0;
  Point labelCenter;
};

/// The positions of one `VisibleGraph`: `nodes[i]` is node `i`, `edges[i]` edge `i`, `clusters[i]`
/// cluster `i` of the graph laid out.
struct GraphLayout {
  double width = 0;
  double height = 0;
  std::vector<NodeBox> nodes;
  std::vector<EdgeSpline> edges;
  std::vector<ClusterBox> clusters;
};

enum class LayoutStatus {
  Ok,
  TooLarge,  ///< more visible nodes than `LayoutOptions::maxNodes`: collapse more
  Cancelled, ///< `cancel` was set
  Failed,    ///< Graphviz rejected the graph (`error` says why)
};

struct LayoutOptions {
  /// The largest number of visible nodes laid out (dot's cost grows much faster than linearly:
  /// a flat 20k-node graph took 730 s here).
  size_t maxNodes = 1500;
  /// The largest number of visible edges laid out.
  size_t maxEdges = 4000;
  /// Set from another thread to abandon the request.
  const std::atomic<bool>* cancel = nullptr;
  DotOptions dot;
};

struct LayoutResult {
  LayoutStatus status = LayoutStatus::Failed;
  std::string error;
  GraphLayout layout;
};

/// Lays `graph` out with Graphviz `dot`.
LayoutResult layoutGraph(const VisibleGraph& graph, const LayoutOptions& options = {});

/// Parses Graphviz `-Tplain` output into node boxes and edge splines of `graph` (matched by node
/// id; clusters are not in `plain` output and stay empty). For the out-of-process path
/// (`dot -Tplain` as a child process). Returns false with `error` on malformed input.
bool parsePlainLayout(const std::string& plain, const VisibleGraph& graph, GraphLayout& layout,
                      std::string& error);

} // namespace shardscope::layout
