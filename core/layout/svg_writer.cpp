#include "core/layout/svg_writer.h"

#include "core/layout/dot_writer.h"
#include "core/support/format_bytes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shardscope::layout {

std::string xmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

namespace {

constexpr double kMargin = 12;

std::string num(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value + kMargin);
  return buffer;
}

std::string plain(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

// Classes `in-<prefix>c<N>` for every visible cluster enclosing node `node` (for folding).
std::vector<int> ancestors(const VisibleGraph& graph, int cluster) {
  std::vector<int> out;
  for (int c = cluster; c >= 0; c = graph.clusters[c].parent)
    out.push_back(c);
  return out;
}

std::string inClasses(const std::vector<int>& clusters, const std::string& prefix) {
  std::string out;
  for (int c : clusters)
    out += " in-" + prefix + "c" + std::to_string(c);
  return out;
}

class SvgWriter {
public:
  SvgWriter(const VisibleGraph& graph, const GraphLayout& layout, const SvgOptions& options)
      : m_graph(graph), m_layout(layout), m_opt(options) {}

  std::string write() {
    double w = m_layout.width + 2 * kMargin, h = m_layout.height + 2 * kMargin;
    if (m_opt.standalone)
      m_out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    m_out += "<svg";
    if (m_opt.standalone)
      m_out += " xmlns=\"http://www.w3.org/2000/svg\"";
    double shown = m_opt.maxWidth > 0 ? std::min(w * m_opt.scale, m_opt.maxWidth) : w * m_opt.scale;
    m_out += " class=\"ss-graph\" id=\"" + xmlEscape(m_opt.idPrefix) + "\" width=\"" +
             plain(shown) + "\" height=\"" + plain(h * shown / w) + "\" viewBox=\"0 0 " +
             plain(w) + " " + plain(h) + "\" font-family=\"" + xmlEscape(m_opt.fontFamily) +
             "\" font-size=\"" + plain(m_opt.fontSize) + "\">\n";
    m_out += "<rect x=\"0\" y=\"0\" width=\"" + plain(w) + "\" height=\"" + plain(h) +
             "\" fill=\"#ffffff\"/>\n";
    for (size_t c = 0; c < m_graph.clusters.size(); ++c)
      writeCluster(static_cast<int>(c));
    for (size_t e = 0; e < m_graph.edges.size(); ++e)
      writeEdge(e);
    for (size_t n = 0; n < m_graph.nodes.size(); ++n)
      writeNode(n);
    m_out += "</svg>\n";
    return std::move(m_out);
  }

private:
  void writeCluster(int c) {
    const VisibleCluster& cluster = m_graph.clusters[c];
    const ClusterBox& box = m_layout.clusters[c];
    NodeStyle style = clusterStyle(cluster.kind);
    std::string p = m_opt.idPrefix;
    m_out += "<g class=\"cluster " + std::string(clusterKindName(cluster.kind)) +
             inClasses(ancestors(m_graph, cluster.parent), p) + "\" data-id=\"" +
             xmlEscape(cluster.id) + "\" data-cluster=\"" + p + "c" + std::to_string(c) + "\">";
    m_out += "<title>" + xmlEscape(cluster.label) + " (click to fold)</title>";
    m_out += "<rect x=\"" + num(box.topLeft.x) + "\" y=\"" + num(box.topLeft.y) + "\" width=\"" +
             plain(box.width) + "\" height=\"" + plain(box.height) + "\" rx=\"8\" fill=\"" +
             style.fill + "\" stroke=\"" + style.border + "\" stroke-width=\"1.2\"";
    if (cluster.kind == ClusterKind::Chain)
      m_out += " stroke-dasharray=\"4 3\"";
    m_out += "/>";
    m_out += "<text x=\"" + num(box.topLeft.x + 8) + "\" y=\"" +
             num(box.labelCenter.y + m_opt.fontSize * 0.35) + "\" fill=\"" + style.text +
             "\">" + xmlEscape(cluster.label) + "</text>";
    m_out += "</g>\n";
  }

  void writeEdge(size_t e) {
    const VisibleEdge& edge = m_graph.edges[e];
    const EdgeSpline& spline = m_layout.edges[e];
    if (spline.points.empty())
      return;
    std::vector<int> from = ancestors(m_graph, m_graph.nodes[edge.from].cluster);
    std::vector<int> to = ancestors(m_graph, m_graph.nodes[edge.to].cluster);
    std::vector<int> both;
    for (int c : from)
      if (std::find(to.begin(), to.end(), c) != to.end())
        both.push_back(c);
    m_out += "<g class=\"edge" + inClasses(both, m_opt.idPrefix) + "\" data-from=\"" +
             xmlEscape(m_graph.nodes[edge.from].id) + "\" data-to=\"" +
             xmlEscape(m_graph.nodes[edge.to].id) + "\">";
    m_out += "<title>" + xmlEscape(edge.value + " : " + edge.label) + "</title>";
    m_out += "<path d=\"M" + num(spline.points[0].x) + "," + num(spline.points[0].y);
    for (size_t i = 1; i + 2 < spline.points.size(); i += 3) {
      m_out += " C" + num(spline.points[i].x) + "," + num(spline.points[i].y) + " " +
               num(spline.points[i + 1].x) + "," + num(spline.points[i + 1].y) + " " +
               num(spline.points[i + 2].x) + "," + num(spline.points[i + 2].y);
    }
    m_out += "\" fill=\"none\" stroke=\"#7b8494\" stroke-width=\"1.1\"/>";
    if (spline.hasArrow)
      writeArrow(spline.points.back(), spline.arrowTip);
    if (spline.hasLabel && !edge.label.empty())
      m_out += "<text class=\"edge-label\" x=\"" + num(spline.labelCenter.x) + "\" y=\"" +
               num(spline.labelCenter.y + m_opt.fontSize * 0.3) +
               "\" text-anchor=\"middle\" font-size=\"" + plain(m_opt.fontSize - 1) +
               "\" fill=\"#334155\" stroke=\"#ffffff\" stroke-width=\"3\" "
               "paint-order=\"stroke\">" +
               xmlEscape(edge.label) + "</text>";
    m_out += "</g>\n";
  }

  void writeArrow(Point from, Point tip) {
    double dx = tip.x - from.x, dy = tip.y - from.y;
    double len = std::max(1e-6, std::sqrt(dx * dx + dy * dy));
    double ux = dx / len, uy = dy / len;
    double half = 3.2;
    Point a{from.x - uy * half, from.y + ux * half};
    Point b{from.x + uy * half, from.y - ux * half};
    m_out += "<polygon points=\"" + num(tip.x) + "," + num(tip.y) + " " + num(a.x) + "," +
             num(a.y) + " " + num(b.x) + "," + num(b.y) + "\" fill=\"#7b8494\"/>";
  }

  void writeNode(size_t n) {
    const VisibleNode& node = m_graph.nodes[n];
    const NodeBox& box = m_layout.nodes[n];
    NodeStyle style = nodeStyle(node.kind);
    std::string classes = std::string("node ") + nodeKindName(node.kind) +
                          (node.classes.empty() ? "" : " " + node.classes) +
                          inClasses(ancestors(m_graph, node.cluster), m_opt.idPrefix);
    std::string search = node.id + " " + node.title;
    for (const std::string& a : node.attributes)
      search += " " + a;
    m_out += "<g class=\"" + classes + "\" data-id=\"" + xmlEscape(node.id) + "\" data-search=\"" +
             xmlEscape(search) + "\"";
    if (node.kind == NodeKind::Summary)
      m_out += " data-collapsed=\"" + xmlEscape(node.id) + "\"";
    m_out += ">";
    std::string tooltip = node.note.empty() ? node.id : node.id + ": " + node.note;
    if (!node.jaxName.empty())
      tooltip += "\n" + node.jaxName;
    m_out += "<title>" + xmlEscape(tooltip) + "</title>";
    double x = box.center.x - box.width / 2, y = box.center.y - box.height / 2;
    if (node.kind == NodeKind::Summary) // a second outline marks a folded cluster
      m_out += "<rect x=\"" + num(x + 3) + "\" y=\"" + num(y + 3) + "\" width=\"" +
               plain(box.width) + "\" height=\"" + plain(box.height) + "\" rx=\"6\" fill=\"" +
               style.fill + "\" stroke=\"" + style.border + "\"/>";
    m_out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + plain(box.width) +
             "\" height=\"" + plain(box.height) + "\" rx=\"6\" fill=\"" + style.fill +
             "\" stroke=\"" + style.border + "\" stroke-width=\"" +
             (node.kind == NodeKind::InsertedCollective ? "2.2" : "1.2") + "\"";
    if (node.kind == NodeKind::Pbroadcast || node.kind == NodeKind::ValueRef)
      m_out += " stroke-dasharray=\"4 2\"";
    m_out += "/>";
    std::vector<std::string> lines = labelLines(node);
    double lineHeight = m_opt.fontSize * 1.2;
    double firstBaseline =
        box.center.y - lineHeight * (static_cast<double>(lines.size()) - 1) / 2 + m_opt.fontSize * 0.35;
    for (size_t i = 0; i < lines.size(); ++i) {
      m_out += "<text x=\"" + num(box.center.x) + "\" y=\"" +
               num(firstBaseline + lineHeight * static_cast<double>(i)) +
               "\" text-anchor=\"middle\" fill=\"" + style.text + "\"";
      // Graphviz sized the box for regular weight: long summary titles stay regular.
      if (i == 0 && node.kind != NodeKind::Summary)
        m_out += " font-weight=\"bold\"";
      m_out += ">" + xmlEscape(lines[i]) + "</text>";
    }
    if (node.bytes >= 0)
      writeBadge(node, box);
    m_out += "</g>\n";
  }

  void writeBadge(const VisibleNode& node, const NodeBox& box) {
    std::string text = support::formatBytes(node.bytes);
    double w = 7 + 5.6 * static_cast<double>(text.size()) * m_opt.fontSize / 10, h = 13;
    double x = box.center.x + box.width / 2 - w * 0.6, y = box.center.y - box.height / 2 - h * 0.55;
    m_out += "<g class=\"badge\"><rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
             plain(w) + "\" height=\"" + plain(h) + "\" rx=\"6.5\" fill=\"" +
             badgeColour(node.kind, node.bytes) + "\"/><text x=\"" + num(x + w / 2) + "\" y=\"" +
             num(y + h / 2 + 3) + "\" text-anchor=\"middle\" font-size=\"" +
             plain(m_opt.fontSize - 1.5) + "\" font-weight=\"bold\" fill=\"#ffffff\">" +
             xmlEscape(text) + "</text></g>";
  }

  const VisibleGraph& m_graph;
  const GraphLayout& m_layout;
  const SvgOptions& m_opt;
  std::string m_out;
};

} // namespace

std::string writeSvg(const VisibleGraph& graph, const GraphLayout& layout,
                     const SvgOptions& options) {
  return SvgWriter(graph, layout, options).write();
}

} // namespace shardscope::layout
