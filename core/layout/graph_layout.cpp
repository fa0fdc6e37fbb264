#include "core/layout/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cmath>
#include <mutex>
#include <sstream>
#include <unordered_map>

namespace shardscope::layout {

namespace {

// One Graphviz context for the process: creating one loads every plugin (slow), and Graphviz's
// globals make concurrent layouts unsafe anyway.
std::mutex& graphvizMutex() {
  static std::mutex mutex;
  return mutex;
}

GVC_t* graphvizContext() {
  static GVC_t* context = gvContext();
  return context;
}

bool cancelled(const LayoutOptions& options) {
  return options.cancel && options.cancel->load(std::memory_order_relaxed);
}

struct Extractor {
  const VisibleGraph& graph;
  GraphLayout& layout;
  double top = 0; // Graphviz's y axis points up: y' = top - y

  Point flip(pointf p) const { return {p.x, top - p.y}; }

  void nodes(Agraph_t* g, const std::unordered_map<std::string, int>& index) {
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
      auto it = index.find(agnameof(n));
      if (it == index.end())
        continue;
      NodeBox& box = layout.nodes[it->second];
      box.center = flip(ND_coord(n));
      box.width = ND_width(n) * 72;
      box.height = ND_height(n) * 72;
    }
  }

  void edges(Agraph_t* g, const std::unordered_map<std::string, int>& index) {
    std::unordered_map<uint64_t, int> edgeIndex;
    for (size_t i = 0; i < graph.edges.size(); ++i)
      edgeIndex[(uint64_t(graph.edges[i].from) << 32) | uint32_t(graph.edges[i].to)] =
          static_cast<int>(i);
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n))
      for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
        auto from = index.find(agnameof(agtail(e)));
        auto to = index.find(agnameof(aghead(e)));
        if (from == index.end() || to == index.end())
          continue;
        auto it = edgeIndex.find((uint64_t(from->second) << 32) | uint32_t(to->second));
        if (it == edgeIndex.end())
          continue;
        EdgeSpline& spline = layout.edges[it->second];
        if (splines* spl = ED_spl(e); spl && spl->size > 0) {
          const bezier& bz = spl->list[0];
          for (int k = 0; k < bz.size; ++k)
            spline.points.push_back(flip(bz.list[k]));
          if (bz.eflag) {
            spline.hasArrow = true;
            spline.arrowTip = flip(bz.ep);
          }
        }
        if (textlabel_t* label = ED_label(e); label && label->set) {
          spline.hasLabel = true;
          spline.labelCenter = flip(label->pos);
        }
      }
  }

  void clusters(Agraph_t* g) {
    for (int i = 1; i <= GD_n_cluster(g); ++i) {
      Agraph_t* sub = GD_clust(g)[i];
      std::string name = agnameof(sub);
      if (name.rfind("cluster_", 0) == 0) {
        size_t c = std::stoul(name.substr(8));
        if (c < layout.clusters.size()) {
          boxf bb = GD_bb(sub);
          ClusterBox& box = layout.clusters[c];
          box.topLeft = {bb.LL.x, top - bb.UR.y};
          box.width = bb.UR.x - bb.LL.x;
          box.height = bb.UR.y - bb.LL.y;
          if (textlabel_t* label = GD_label(sub); label && label->set)
            box.labelCenter = flip(label->pos);
          else
            box.labelCenter = {box.topLeft.x + box.width / 2, box.topLeft.y + 8};
        }
      }
      clusters(sub);
    }
  }
};

} // namespace

LayoutResult layoutGraph(const VisibleGraph& graph, const LayoutOptions& options) {
  LayoutResult result;
  if (graph.nodes.size() > options.maxNodes || graph.edges.size() > options.maxEdges) {
    result.status = LayoutStatus::TooLarge;
    result.error = std::to_string(graph.nodes.size()) + " visible nodes and " +
                   std::to_string(graph.edges.size()) + " edges, more than the limit of " +
                   std::to_string(options.maxNodes) + " and " + std::to_string(options.maxEdges) +
                   ": collapse clusters first";
    return result;
  }
  if (cancelled(options)) {
    result.status = LayoutStatus::Cancelled;
    return result;
  }
  std::string dot = writeDot(graph, options.dot);
  std::lock_guard lock(graphvizMutex());
  if (cancelled(options)) {
    result.status = LayoutStatus::Cancelled;
    return result;
  }
  GVC_t* gvc = graphvizContext();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) {
    result.error = "graphviz could not read the graph";
    return result;
  }
  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    result.error = "graphviz layout failed";
    return result;
  }
  GraphLayout& layout = result.layout;
  layout.nodes.resize(graph.nodes.size());
  layout.edges.resize(graph.edges.size());
  layout.clusters.resize(graph.clusters.size());
  boxf bb = GD_bb(g);
  layout.width = bb.UR.x - bb.LL.x;
  layout.height = bb.UR.y - bb.LL.y;
  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    index[graph.nodes[i].id] = static_cast<int>(i);
  Extractor extractor{graph, layout, bb.UR.y};
  extractor.nodes(g, index);
  extractor.edges(g, index);
  extractor.clusters(g);
  gvFreeLayout(gvc, g);
  agclose(g);
  result.status = cancelled(options) ? LayoutStatus::Cancelled : LayoutStatus::Ok;
  return result;
}

namespace {

// Reads one token of a `plain` line: a word or a double-quoted string.
bool readToken(std::istringstream& in, std::string& token) {
  in >> std::ws;
  if (in.peek() != '"')
    return static_cast<bool>(in >> token);
  in.get();
  token.clear();
  for (int c = in.get(); c != EOF; c = in.get()) {
    if (c == '\\' && in.peek() != EOF) {
      token += static_cast<char>(in.get());
      continue;
    }
    if (c == '"')
      return true;
    token += static_cast<char>(c);
  }
  return false;
}

} // namespace

bool parsePlainLayout(const std::string& plain, const VisibleGraph& graph, GraphLayout& layout,
                      std::string& error) {
  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    index[graph.nodes[i].id] = static_cast<int>(i);
  std::unordered_map<uint64_t, int> edgeIndex;
  for (size_t i = 0; i < graph.edges.size(); ++i)
    edgeIndex[(uint64_t(graph.edges[i].from) << 32) | uint32_t(graph.edges[i].to)] =
        static_cast<int>(i);
  layout = GraphLayout();
  layout.nodes.resize(graph.nodes.size());
  layout.edges.resize(graph.edges.size());
  layout.clusters.resize(graph.clusters.size());
  std::istringstream lines(plain);
  std::string line;
  double scale = 72, top = 0;
  int lineNo = 0;
  while (std::getline(lines, line)) {
    ++lineNo;
    std::istringstream in(line);
    std::string kind;
    if (!(in >> kind))
      continue;
    auto fail = [&] {
      error = "malformed plain output at line " + std::to_string(lineNo);
      return false;
    };
    if (kind == "graph") {
      double s, w, h;
      if (!(in >> s >> w >> h))
        return fail();
      scale = 72 * s;
      layout.width = w * scale;
      layout.height = h * scale;
      top = layout.height;
    } else if (kind == "node") {
      std::string name;
      double x, y, w, h;
      if (!readToken(in, name) || !(in >> x >> y >> w >> h))
        return fail();
      if (auto it = index.find(name); it != index.end())
        layout.nodes[it->second] = {{x * scale, top - y * scale}, w * 72, h * 72};
    } else if (kind == "edge") {
      std::string tail, head;
      int n = 0;
      if (!readToken(in, tail) || !readToken(in, head) || !(in >> n) || n < 0)
        return fail();
      std::vector<Point> points;
      for (int k = 0; k < n; ++k) {
        double x, y;
        if (!(in >> x >> y))
          return fail();
        points.push_back({x * scale, top - y * scale});
      }
      auto from = index.find(tail), to = index.find(head);
      if (from == index.end() || to == index.end())
        continue;
      auto it = edgeIndex.find((uint64_t(from->second) << 32) | uint32_t(to->second));
      if (it == edgeIndex.end())
        continue;
      EdgeSpline& spline = layout.edges[it->second];
      spline.points = std::move(points);
      std::string label;
      double lx, ly;
      if (readToken(in, label) && !label.empty() && label != "solid" && (in >> lx >> ly)) {
        spline.hasLabel = true;
        spline.labelCenter = {lx * scale, top - ly * scale};
      }
    } else if (kind == "stop") {
      return true;
    }
  }
  return true;
}

} // namespace shardscope::layout
