#pragma once

// SVG of a laid-out graph, drawn from the layout data with the house styles (the colours of
// `nodeStyle`/`clusterStyle`, a byte badge on every collective, pbroadcast and collapsed cluster
// holding collectives). Styles are presentation attributes, so the SVG looks the same standalone
// and inlined in an HTML report; classes and `data-*` attributes let a page fold clusters and
// search nodes.

#include "core/layout/graph_layout.h"
#include "core/layout/graph_view.h"

#include <string>

namespace shardscope::layout {

struct SvgOptions {
  /// Write the XML declaration and `xmlns` (a standalone `.svg` file).
  bool standalone = true;
  /// Prefix of element ids, so several graphs can share one HTML page.
  std::string idPrefix = "g";
  /// Must match the layout's `DotOptions::fontSize`.
  double fontSize = 10;
  std::string fontFamily = "DejaVu Sans, Verdana, Arial, sans-serif";
  /// Drawing scale: CSS pixels per layout point.
  double scale = 1.0;
  /// Scale the drawing down to at most this width in CSS pixels (0: natural size).
  double maxWidth = 0;
};

/// Writes `layout` (computed for `graph`) as SVG. Deterministic.
std::string writeSvg(const VisibleGraph& graph, const GraphLayout& layout,
                     const SvgOptions& options = {});

/// Escapes `&`, `<`, `>`, `"` and `'` for XML text and attributes.
std::string xmlEscape(const std::string& text);

} // namespace shardscope::layout
