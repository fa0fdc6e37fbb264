#pragma once

// The report's data: everything shown, collected once from a program and its stages, as the JSON
// document of `resources/report.schema.json` plus the laid-out graph of each stage.

#include "core/analysis/collective_cost.h"
#include "core/analysis/shard_map_analysis.h"
#include "core/layout/graph_layout.h"
#include "core/layout/graph_view.h"
#include "core/layout/program_graph.h"
#include "core/report/report.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::report::detail {

/// One stage's graph, laid out when asked.
struct StageGraph {
  session::Stage stage = session::Stage::AsWritten;
  bool ok = false;
  layout::ProgramGraph graph;
  layout::VisibleGraph visible;
  bool laidOut = false;
  layout::GraphLayout layout;
  std::string note;
};

struct ReportModel {
  nlohmann::ordered_json data;
  std::vector<StageGraph> graphs;
  /// Rows of the HTML value table.
  size_t maxTableRows = 5000;
};

/// Analyses of one report computed once and shared by its parts (stage graphs, value table,
/// collectives): stage modules do not change while a report is collected. Safe to use from
/// several threads: each analysis is computed once, by the first thread asking for it.
class AnalysisCache {
public:
  using ValueNames = std::unordered_map<const ir::Value*, std::string>;
  using CostsByOp = std::unordered_map<const ir::Operation*, const analysis::CollectiveCost*>;
  /// `analysis::analyzeShardMaps(module)` with its diagnostics dropped.
  const analysis::ShardMapAnalysis& shardMaps(const ir::Module& module);
  /// `analysis::collectiveCosts(module)`.
  const analysis::CostSummary& costs(const ir::Module& module);
  /// The costs of `module`'s collectives keyed by op.
  const CostsByOp& costsByOp(const ir::Module& module);
  /// The names of the values of function `fn` as the source gives them, in every stage
  /// (`io::mlir::printedValueNames` with `ValueNames::Source`, restricted to one function:
  /// functions are isolated, so their names do not depend on each other).
  const ValueNames& functionNames(const ir::Operation& fn);

private:
  /// One analysis of one key, computed by the first caller.
  template <typename T> struct Slot {
    std::once_flag once;
    T value;
  };
  /// The slot of `key` in `slots`, created empty on first use (map nodes never move).
  template <typename T, typename Key>
  Slot<T>& slot(std::map<const Key*, Slot<T>>& slots, const Key& key);

  std::mutex m_mutex; ///< guards the maps, not the slots' values
  std::map<const ir::Module*, Slot<analysis::ShardMapAnalysis>> m_shardMaps;
  std::map<const ir::Module*, Slot<analysis::CostSummary>> m_costs;
  std::map<const ir::Module*, Slot<CostsByOp>> m_costsByOp;
  std::map<const ir::Operation*, Slot<ValueNames>> m_names;
};

/// What to compute: layouts are only needed for HTML and SVG.
enum class LayoutNeed { None, All };

/// Collects the report of `program`. Returns false after reporting to `sink`.
bool buildReportModel(session::Program& program, const ReportOptions& options, LayoutNeed need,
                      ReportModel& model, support::DiagnosticSink& sink);

/// The graph of `stage` of `program`'s function `function` with the analysis marks (collectives
/// with their bytes and causes, implicit pbroadcasts, variance). Returns false when the stage
/// fails (reported to `sink`) or the function does not exist.
bool buildStageGraph(session::Program& program, session::Stage stage, const std::string& function,
                     const ReportOptions& options, StageGraph& out, support::DiagnosticSink& sink);
/// The same, sharing analyses through `cache`.
bool buildStageGraph(session::Program& program, session::Stage stage, const std::string& function,
                     const ReportOptions& options, StageGraph& out, support::DiagnosticSink& sink,
                     AnalysisCache& cache);

/// Lays out `graph.visible`, collapsing further while it is larger than the options allow.
void layoutStageGraph(StageGraph& graph, const ReportOptions& options);

/// The diff between two stage graphs as JSON (`changes`, `summary`).
nlohmann::ordered_json diffGraphs(const StageGraph& from, const StageGraph& to);

/// Marks the nodes of `to.visible` that `diff` lists as changed or added (CSS classes).
void markDiff(const nlohmann::ordered_json& diff, StageGraph& to);

/// The visible graph of a stage as JSON (the `graph` of a stage in the schema).
nlohmann::ordered_json graphJson(const StageGraph& graph);

/// The HTML page of a collected report.
std::string writeHtml(const ReportModel& model);

/// The name of a function to show: `requested`, else `main`, else the first function.
std::string pickFunction(const ir::Module& module, const std::string& requested);

} // namespace shardscope::report::detail
