#include "widgets/controller/graph_snapshot.h"

#include "widgets/controller/collective_rows.h"
#include "widgets/controller/op_ids.h"

#include "core/io/mlir/mlir.h"
#include "core/layout/dot_writer.h"
#include "core/layout/graph_layout.h"
#include "core/layout/graph_view.h"
#include "core/layout/program_graph.h"
#include "core/session/program.h"

namespace shardscope::widgets {

namespace {

// The analysis facts the graph shows: value names, variance, implicit pbroadcasts, collectives
// with their cost and why they are there.
layout::GraphAnnotations annotate(const session::Program& program,
                                  const session::StageAnalyses& analyses, const ir::Operation& fn,
                                  StageId stage,
                                  const std::unordered_map<const ir::Value*, std::string>& names) {
  layout::GraphAnnotations annotations;
  annotations.valueNames = &names;
  const auto forEachValue = [&fn](auto&& visit) {
    fn.walk([&](const ir::Operation& op) {
      for (const auto& r : op.results())
        visit(*r);
      for (unsigned i = 0; i < op.numRegions(); ++i)
        if (!op.region(i).empty())
          for (const auto& a : op.region(i).front().arguments())
            visit(*a);
    });
  };
  if (const std::optional<analysis::ShardMapAnalysis>& shardMaps = analyses.shardMaps) {
    forEachValue([&](const ir::Value& v) {
      if (const analysis::VarianceSet* set = shardMaps->variance.varianceOf(v))
        annotations.variance[&v] = set->str();
    });
    for (const analysis::PbroadcastSite& site : shardMaps->variance.pbroadcasts()) {
      std::string axes = "{";
      for (size_t i = 0; i < site.axes.size(); ++i)
        axes += (i ? ", \"" : "\"") + site.axes[i] + "\"";
      annotations.pbroadcasts.push_back(
          {site.op, site.operandIndex, axes + "}", analysis::pbroadcastReasonName(site.reason)});
    }
  }
  // Under explicit mesh axes, the edges of the program as written (the one JAX traced) carry the
  // types JAX gives the values; later stages show the shardings their passes gave.
  if (const std::optional<analysis::ExplicitTyping>& typing = analyses.explicitTypes)
    forEachValue([&](const ir::Value& v) {
      if (const analysis::ExplicitType* t = typing->typeOf(v); t && t->known)
        annotations.typeLabels[&v] = analysis::shortTypeStr(*t);
    });
  // Collectives with their cost and cause: a per-device collective has the cause of the
  // partitioned one it came from.
  for (const analysis::CollectiveCost& cost : analyses.collectives.collectives) {
    layout::OpMark mark;
    mark.collective = true;
    mark.bytes = cost.bytesSent;
    const auto origin = analyses.origins.find(cost.op);
    const ir::Operation* caused = stage == StageId::Partitioned    ? cost.op
                                  : origin != analyses.origins.end() ? origin->second
                                                                     : nullptr;
    if (caused) {
      const session::Program::CollectiveCause cause = program.causeOf(*caused);
      mark.inserted = cause.inserted;
      mark.note = cause.why;
    }
    annotations.ops[cost.op] = mark;
  }
  return annotations;
}

// The ids of the ops inside cluster `c` of `graph`, nested clusters included.
void addInnerOpIds(const layout::ProgramGraph& graph, int c, QStringList& out) {
  const layout::GraphCluster& cluster = graph.clusters[static_cast<size_t>(c)];
  for (int n : cluster.nodes)
    if (const ir::Operation* op = graph.nodes[static_cast<size_t>(n)].op)
      out.push_back(opIdOf(*op));
  for (int child : cluster.children)
    addInnerOpIds(graph, child, out);
}

// Copies the laid-out graph into the snapshot, with the house styles of each kind.
void fillLayout(GraphSnapshot& snap, const layout::ProgramGraph& graph,
                const layout::VisibleGraph& visible, const layout::GraphLayout& l) {
  snap.bounds = QRectF(0, 0, l.width, l.height);
  auto color = [](const char* c) { return QColor(QLatin1String(c)); };
  for (size_t i = 0; i < visible.nodes.size() && i < l.nodes.size(); ++i) {
    const layout::VisibleNode& vn = visible.nodes[i];
    const layout::NodeBox& box = l.nodes[i];
    GraphNodeItem item;
    item.id = QString::fromStdString(vn.id);
    item.kind = QString::fromLatin1(layout::nodeKindName(vn.kind));
    if (vn.graphNode >= 0 && graph.nodes[vn.graphNode].op)
      item.opId = opIdOf(*graph.nodes[vn.graphNode].op);
    if (vn.kind == layout::NodeKind::Summary && vn.graphCluster >= 0) {
      item.clusterId = QString::fromStdString(graph.clusters[vn.graphCluster].id);
      addInnerOpIds(graph, vn.graphCluster, item.innerOpIds);
    }
    for (const std::string& line : layout::labelLines(vn))
      item.lines.push_back(QString::fromStdString(line));
    item.note = QString::fromStdString(vn.note);
    item.bytes = vn.bytes;
    item.rect = QRectF(box.center.x - box.width / 2, box.center.y - box.height / 2, box.width,
                       box.height);
    const layout::NodeStyle style = layout::nodeStyle(vn.kind);
    item.fill = color(style.fill);
    item.border = color(style.border);
    item.text = color(style.text);
    item.badge = color(layout::badgeColour(vn.kind, vn.bytes));
    snap.nodes.push_back(item);
  }
  for (size_t i = 0; i < l.edges.size(); ++i) {
    const layout::EdgeSpline& e = l.edges[i];
    GraphEdgeItem item;
    for (const layout::Point& p : e.points)
      item.points.push_back(QPointF(p.x, p.y));
    item.hasArrow = e.hasArrow;
    item.arrowTip = QPointF(e.arrowTip.x, e.arrowTip.y);
    item.hasLabel = e.hasLabel;
    item.labelCenter = QPointF(e.labelCenter.x, e.labelCenter.y);
    if (i < visible.edges.size()) {
      item.label = QString::fromStdString(visible.edges[i].label);
      if (visible.edges[i].values == 1)
        item.value = QString::fromStdString(visible.edges[i].value);
    }
    snap.edges.push_back(item);
  }
  for (size_t i = 0; i < visible.clusters.size() && i < l.clusters.size(); ++i) {
    const layout::ClusterBox& box = l.clusters[i];
    GraphClusterItem item;
    item.id = QString::fromStdString(visible.clusters[i].id);
    item.label = QString::fromStdString(visible.clusters[i].label);
    item.rect = QRectF(box.topLeft.x, box.topLeft.y, box.width, box.height);
    item.labelCenter = QPointF(box.labelCenter.x, box.labelCenter.y);
    const layout::NodeStyle style = layout::clusterStyle(visible.clusters[i].kind);
    item.fill = color(style.fill);
    item.border = color(style.border);
    snap.clusters.push_back(item);
  }
}

} // namespace

GraphSnapshotPtr buildGraphSnapshot(session::Program* program, StageId stage,
                                  const QString& function, const QStringList& expanded,
                                  const QStringList& collapsed, const std::atomic<bool>* cancel) {
  auto snap = std::make_shared<GraphSnapshot>();
  snap->stage = stage;
  const auto finish = [&] { return GraphSnapshotPtr(snap); };
  if (!program) {
    snap->status = QStringLiteral("No program is loaded.");
    return finish();
  }
  support::CollectingSink sink;
  const session::Stage engineStage = session::kAllStages[static_cast<int>(stage)];
  const ir::Module* module = program->stage(engineStage, sink, cancel);
  if (!module && cancel && cancel->load()) {
    snap->status = QStringLiteral("Cancelled while computing the %1 stage.")
                       .arg(stageTitle(stage).toLower());
    return finish();
  }
  if (!module) {
    snap->status = session::isGradientStage(engineStage) && !sink.diagnostics().empty()
                       ? QStringLiteral("No gradient: %1")
                             .arg(QString::fromStdString(sink.diagnostics().front().message))
                       : QStringLiteral("This stage could not be computed (see Problems).");
    return finish();
  }
  // A gradient stage is about its gradient function; the others about `main`.
  const std::string wanted = !function.isEmpty()              ? function.toStdString()
                             : program->defaultFunction(engineStage).empty()
                                 ? std::string("main")
                                 : program->defaultFunction(engineStage);
  const ir::Operation* fn = nullptr;
  for (ir::Operation* f : module->functions()) {
    snap->functions.push_back(qs(ir::func::name(*f)));
    if (!fn && ir::func::body(*f) && ir::func::name(*f) == wanted)
      fn = f;
  }
  if (!fn)
    for (ir::Operation* f : module->functions())
      if (!fn && ir::func::body(*f))
        fn = f;
  if (!fn) {
    snap->status = QStringLiteral("The stage has no function with a body.");
    return finish();
  }
  snap->function = qs(ir::func::name(*fn));
  const auto names = displayValueNames(*module);
  const session::StageAnalyses* analyses = program->analyses(engineStage, sink, cancel);
  if (!analyses) {
    snap->status = QStringLiteral("Cancelled while computing the %1 stage.")
                       .arg(stageTitle(stage).toLower());
    return finish();
  }
  const layout::GraphAnnotations annotations = annotate(*program, *analyses, *fn, stage, names);
  const layout::ProgramGraph graph = layout::buildProgramGraph(*module, *fn, annotations);
  layout::CollapseState state;
  for (const QString& id : expanded)
    state.expanded.insert(id.toStdString());
  for (const QString& id : collapsed)
    state.collapsed.insert(id.toStdString());
  const layout::VisibleGraph visible = layout::visibleGraph(graph, state);
  snap->opCount = visible.opCount;
  layout::LayoutOptions options;
  options.cancel = cancel;
  const layout::LayoutResult result = layout::layoutGraph(visible, options);
  switch (result.status) {
  case layout::LayoutStatus::Ok:
    break;
  case layout::LayoutStatus::TooLarge:
    snap->status = QStringLiteral("The graph is too large to lay out (%1 visible nodes): "
                                  "collapse clusters.").arg(visible.nodes.size());
    return finish();
  case layout::LayoutStatus::Cancelled:
    snap->status = QStringLiteral("Layout cancelled.");
    return finish();
  case layout::LayoutStatus::Failed:
    snap->status = QStringLiteral("Layout failed: %1").arg(QString::fromStdString(result.error));
    return finish();
  }
  fillLayout(*snap, graph, visible, result.layout);
  return finish();
}

} // namespace shardscope::widgets
