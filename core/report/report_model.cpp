// Collecting a report: stages, graphs, values, collectives, meshes, diagnostics, diffs, runs.
#include "core/report/detail/report_model.h"

#include "core/analysis/collective_cost.h"
#include "core/analysis/shard_map_analysis.h"
#include "core/io/mlir/mlir.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <map>

namespace shardscope::report::detail {

using Json = nlohmann::ordered_json;

namespace {

std::string shardyOf(const ir::Value& value) {
  std::optional<ir::TensorSharding> scratch;
  const ir::TensorSharding* s = sharding::valueShardingRef(value, scratch);
  return s ? sharding::shardyNotation(*s) : std::string();
}

// Collective marks for the graph of function `fn` of `stage`: costs and causes come from the
// partitioned stage, where collectives still name their mesh axes; per-device collectives map back
// through OpIndex. Only the ops of `fn` are marked: the graph shows nothing else.
void markCollectives(session::Program& program, session::Stage stage, const ir::Module& module,
                     const ir::Operation& fn, layout::GraphAnnotations& annotations,
                     AnalysisCache& cache) {
  support::CollectingSink ignored;
  if (stage != session::Stage::PerDevice) {
    const auto& costs = cache.costsByOp(module);
    fn.walk([&](const ir::Operation& op) {
      auto it = costs.find(&op);
      if (it == costs.end())
        return;
      layout::OpMark mark{true, false, it->second->bytesSent, ""};
      if (stage == session::Stage::Partitioned) {
        session::Program::CollectiveCause cause = program.causeOf(op);
        mark.inserted = cause.inserted;
        mark.note = cause.why;
      } else {
        mark.note = "written in the program";
      }
      annotations.ops[&op] = mark;
    });
    return;
  }
  const ir::Module* global = program.stage(session::Stage::Partitioned, ignored);
  if (!global)
    return;
  const auto& costs = cache.costsByOp(*global);
  session::OpIndex globalIndex(*global), localIndex(module);
  fn.walk([&](const ir::Operation& op) {
    if (!analysis::isCostedCollective(op))
      return;
    layout::OpMark mark{true, false, -1, ""};
    if (const ir::Operation* g = session::correspondingOp(localIndex, globalIndex, op)) {
      if (auto it = costs.find(g); it != costs.end())
        mark.bytes = it->second->bytesSent;
      session::Program::CollectiveCause cause = program.causeOf(*g);
      mark.inserted = cause.inserted;
      mark.note = cause.why;
    }
    annotations.ops[&op] = mark;
  });
}

void markVariance(const ir::Operation& fn, const analysis::ShardMapAnalysis& shardMaps,
                  layout::GraphAnnotations& annotations) {
  auto note = [&](const ir::Value& value) {
    if (const analysis::VarianceSet* set = shardMaps.variance.varianceOf(value))
      annotations.variance[&value] = set->str();
  };
  fn.walk([&](const ir::Operation& op) {
    for (const auto& result : op.results())
      note(*result);
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          note(*arg);
  });
  for (const analysis::PbroadcastSite& site : shardMaps.variance.pbroadcasts()) {
    if (site.op->parentOfName("func.func") != &fn)
      continue;
    annotations.pbroadcasts.push_back({site.op, site.operandIndex, analysis::quotedAxes(site.axes),
                                       analysis::pbroadcastReasonName(site.reason)});
  }
}

Json locJson(support::SourceLocation loc) {
  if (!loc.isValid())
    return nullptr;
  return Json{{"line", loc.line}, {"column", loc.column}};
}

} // namespace

template <typename T, typename Key>
AnalysisCache::Slot<T>& AnalysisCache::slot(std::map<const Key*, Slot<T>>& slots,
                                            const Key& key) {
  std::lock_guard lock(m_mutex);
  return slots[&key];
}

const analysis::ShardMapAnalysis& AnalysisCache::shardMaps(const ir::Module& module) {
  Slot<analysis::ShardMapAnalysis>& s = slot(m_shardMaps, module);
  std::call_once(s.once, [&] {
    support::CollectingSink ignored;
    s.value = analysis::analyzeShardMaps(module, ignored);
  });
  return s.value;
}

const analysis::CostSummary& AnalysisCache::costs(const ir::Module& module) {
  Slot<analysis::CostSummary>& s = slot(m_costs, module);
  std::call_once(s.once, [&] { s.value = analysis::collectiveCosts(module); });
  return s.value;
}

const AnalysisCache::CostsByOp& AnalysisCache::costsByOp(const ir::Module& module) {
  Slot<CostsByOp>& s = slot(m_costsByOp, module);
  std::call_once(s.once, [&] {
    const analysis::CostSummary& summary = costs(module);
    s.value.reserve(summary.collectives.size());
    for (const analysis::CollectiveCost& cost : summary.collectives)
      s.value.emplace(cost.op, &cost);
  });
  return s.value;
}

const AnalysisCache::ValueNames& AnalysisCache::functionNames(const ir::Operation& fn) {
  Slot<ValueNames>& s = slot(m_names, fn);
  std::call_once(s.once, [&] {
    s.value = io::mlir::printedValueNames(fn, io::mlir::ValueNames::Source);
  });
  return s.value;
}

Json graphJson(const StageGraph& g) {
  const layout::VisibleGraph& v = g.visible;
  Json nodes = Json::array(), edges = Json::array(), clusters = Json::array();
  for (const layout::VisibleCluster& c : v.clusters)
    clusters.push_back({{"id", c.id},
                        {"kind", layout::clusterKindName(c.kind)},
                        {"label", c.label},
                        {"parent", c.parent < 0 ? Json(nullptr) : Json(v.clusters[c.parent].id)}});
  for (const layout::VisibleNode& n : v.nodes) {
    Json node{{"id", n.id},
              {"kind", layout::nodeKindName(n.kind)},
              {"title", n.title},
              {"attributes", n.attributes},
              {"cluster", n.cluster < 0 ? Json(nullptr) : Json(v.clusters[n.cluster].id)}};
    if (n.bytes >= 0)
      node["bytes"] = n.bytes;
    if (!n.note.empty())
      node["note"] = n.note;
    if (!n.jaxName.empty())
      node["jaxName"] = n.jaxName;
    if (n.graphNode >= 0)
      node["loc"] = locJson(g.graph.nodes[n.graphNode].loc);
    nodes.push_back(std::move(node));
  }
  for (const layout::VisibleEdge& e : v.edges)
    edges.push_back({{"from", v.nodes[e.from].id},
                     {"to", v.nodes[e.to].id},
                     {"value", e.value},
                     {"label", e.label},
                     {"values", e.values}});
  return Json{{"function", v.function}, {"opCount", v.opCount},   {"hiddenNodes", v.hiddenNodes},
              {"nodes", nodes},         {"edges", edges},         {"clusters", clusters},
              {"laidOut", g.laidOut},   {"note", g.note}};
}

namespace {
} // namespace

std::string pickFunction(const ir::Module& module, const std::string& requested) {
  std::string want = requested.starts_with("@") ? requested.substr(1) : requested;
  if (!want.empty())
    return module.lookupFunction(want) ? want : std::string();
  if (module.lookupFunction("main"))
    return "main";
  std::vector<ir::Operation*> fns = module.functions();
  return fns.empty() ? std::string() : std::string(ir::func::name(*fns.front()));
}

bool buildStageGraph(session::Program& program, session::Stage stage, const std::string& function,
                     const ReportOptions& options, StageGraph& out,
                     support::DiagnosticSink& sink) {
  AnalysisCache cache;
  return buildStageGraph(program, stage, function, options, out, sink, cache);
}

bool buildStageGraph(session::Program& program, session::Stage stage, const std::string& function,
                     const ReportOptions& options, StageGraph& out, support::DiagnosticSink& sink,
                     AnalysisCache& cache) {
  out.stage = stage;
  const ir::Module* module = program.stage(stage, sink);
  if (!module)
    return false;
  const ir::Operation* fn = module->lookupFunction(function);
  if (!fn)
    return false;
  layout::GraphAnnotations annotations;
  annotations.valueNames = &cache.functionNames(*fn);
  markCollectives(program, stage, *module, *fn, annotations, cache);
  markVariance(*fn, cache.shardMaps(*module), annotations);
  out.graph = layout::buildProgramGraph(*module, *fn, annotations);
  layout::CollapseState state;
  if (options.collapseDepth >= 0)
    state.depth = options.collapseDepth;
  out.visible = layout::visibleGraph(out.graph, state);
  out.ok = true;
  return true;
}

void layoutStageGraph(StageGraph& g, const ReportOptions& options) {
  layout::CollapseState state;
  state.depth = options.collapseDepth >= 0 ? options.collapseDepth : 1000;
  layout::LayoutOptions layoutOptions;
  layoutOptions.maxNodes = options.maxLayoutNodes;
  layoutOptions.cancel = options.cancel;
  for (int attempt = 0; attempt < 64; ++attempt) {
    layout::LayoutResult result = layout::layoutGraph(g.visible, layoutOptions);
    if (result.status == layout::LayoutStatus::Ok) {
      g.layout = std::move(result.layout);
      g.laidOut = true;
      return;
    }
    if (result.status != layout::LayoutStatus::TooLarge) {
      g.note = result.status == layout::LayoutStatus::Cancelled ? "layout cancelled"
                                                                : result.error;
      return;
    }
    // Too large: fold chains and segments first, then one nesting level at a time.
    if (state.smallProgramOps > 0) {
      state.smallProgramOps = 0;
    } else {
      int deepest = 0;
      for (const layout::GraphCluster& c : g.graph.clusters)
        deepest = std::max(deepest, c.depth + 1);
      if (std::min(state.depth, deepest) == 0) {
        g.note = result.error;
        return;
      }
      state.depth = std::min(state.depth, deepest) - 1;
    }
    std::string classes;
    g.visible = layout::visibleGraph(g.graph, state);
    g.note = "collapsed to fit the layout limit of " + std::to_string(options.maxLayoutNodes) +
             " nodes";
  }
}

Json diffGraphs(const StageGraph& from, const StageGraph& to) {
  // Every op node's result shardings, by stable id.
  auto index = [](const StageGraph& g) {
    std::map<std::string, std::pair<const layout::GraphNode*, std::string>> out;
    for (const layout::GraphNode& n : g.graph.nodes) {
      if (!n.op)
        continue;
      std::string shardings;
      for (const auto& result : n.op->results())
        shardings += (shardings.empty() ? "" : "; ") + shardyOf(*result);
      out[n.id] = {&n, shardings};
    }
    return out;
  };
  auto a = index(from), b = index(to);
  Json changes = Json::array();
  int changed = 0, added = 0, removed = 0, addedCollectives = 0;
  for (const auto& [id, entry] : b) {
    const layout::GraphNode& node = *entry.first;
    auto it = a.find(id);
    bool collective = node.kind == layout::NodeKind::Collective ||
                      node.kind == layout::NodeKind::InsertedCollective;
    if (it == a.end()) {
      ++added;
      addedCollectives += collective;
      Json c{{"id", id}, {"change", collective ? "added-collective" : "added"}, {"op", node.opName},
             {"loc", locJson(node.loc)}, {"after", entry.second}};
      if (node.bytes >= 0)
        c["bytes"] = node.bytes;
      if (!node.note.empty())
        c["why"] = node.note;
      changes.push_back(std::move(c));
    } else if (it->second.second != entry.second) {
      ++changed;
      changes.push_back({{"id", id}, {"change", "sharding-changed"}, {"op", node.opName},
                         {"loc", locJson(node.loc)}, {"before", it->second.second},
                         {"after", entry.second}});
    }
  }
  for (const auto& [id, entry] : a)
    if (!b.count(id)) {
      ++removed;
      changes.push_back({{"id", id}, {"change", "removed"}, {"op", entry.first->opName},
                         {"loc", locJson(entry.first->loc)}, {"before", entry.second}});
    }
  return Json{{"changes", changes},
              {"summary",
               {{"shardingsChanged", changed},
                {"added", added},
                {"addedCollectives", addedCollectives},
                {"removed", removed}}}};
}

void markDiff(const Json& diff, StageGraph& to) {
  std::map<std::string, std::string> kinds;
  for (const Json& change : diff["changes"])
    kinds[change["id"].get<std::string>()] = change["change"].get<std::string>();
  for (layout::VisibleNode& node : to.visible.nodes)
    if (auto it = kinds.find(node.id); it != kinds.end())
      node.classes = it->second == "sharding-changed" ? "diff-changed" : "diff-added";
}

} // namespace shardscope::report::detail
