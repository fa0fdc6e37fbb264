#include "core/session/analyses.h"

#include "core/analysis/sharded_reductions.h"
#include "core/autodiff/function_costs.h"
#include "core/session/program.h"

#include <map>
#include <string>
#include <tuple>

namespace shardscope::session {

namespace {

// The per-device stage's collectives have lost the mesh, and so their axes: each takes them (with
// its groups and note) from the partitioned collective it came from.
void inheritAxes(analysis::CostSummary& perDevice, const analysis::CostSummary& partitioned,
                 const std::unordered_map<const ir::Operation*, const ir::Operation*>& origins) {
  std::unordered_map<const ir::Operation*, const analysis::CollectiveCost*> byOp;
  for (const analysis::CollectiveCost& cost : partitioned.collectives)
    byOp[cost.op] = &cost;
  for (analysis::CollectiveCost& cost : perDevice.collectives) {
    const auto origin = origins.find(cost.op);
    if (origin == origins.end() || !cost.axes.empty())
      continue;
    const analysis::CollectiveCost& from = *byOp.at(origin->second);
    cost.axes = from.axes;
    cost.axisRefs = from.axisRefs;
    cost.perAxis = from.perAxis;
    cost.groupSize = from.groupSize;
    cost.numGroups = from.numGroups;
    cost.note = from.note;
  }
}

} // namespace

std::unordered_map<const ir::Operation*, const ir::Operation*>
partitionedOrigins(const analysis::CostSummary& perDevice,
                   const analysis::CostSummary& partitioned) {
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, std::string>;
  std::map<Key, std::vector<const ir::Operation*>> global;
  for (const analysis::CollectiveCost& cost : partitioned.collectives) {
    const support::SourceLocation loc = cost.op->loc();
    global[{loc.fileId, loc.line, loc.column, cost.kind}].push_back(cost.op);
  }
  std::unordered_map<const ir::Operation*, const ir::Operation*> origins;
  std::map<Key, size_t> seen;
  for (const analysis::CollectiveCost& cost : perDevice.collectives) {
    const support::SourceLocation loc = cost.op->loc();
    const Key key{loc.fileId, loc.line, loc.column, cost.kind};
    const size_t k = seen[key]++;
    const auto it = global.find(key);
    if (it != global.end() && k < it->second.size())
      origins[cost.op] = it->second[k];
  }
  return origins;
}

const StageAnalyses* Program::analyses(Stage stage, support::DiagnosticSink& sink,
                                       const CancelFlag* cancel) {
  const size_t index = static_cast<size_t>(stage);
  {
    std::lock_guard lock(m_analysesMutex);
    if (m_analyses[index])
      return m_analyses[index].get();
  }
  const ir::Module* module = this->stage(stage, sink, cancel);
  if (!module)
    return nullptr;
  auto out = std::make_unique<StageAnalyses>();
  support::CollectingSink found;
  if (stage != Stage::PerDevice)
    out->shardMaps = analysis::analyzeShardMaps(*module, found);
  // Under explicit sharding, the values of the program as written (the one JAX traced) have the
  // types JAX gives them, and the ops JAX would reject while tracing are findings.
  if (stage == Stage::AsWritten && module->op().hasAttr(analysis::kAxisTypesAttr))
    out->explicitTypes = analysis::computeExplicitTypes(*module, {}, found);
  // Reductions over sharded dimensions whose result partitioning changes (an init that is not
  // the identity enters once per device; a product is all-reduced as a sum).
  if (stage == Stage::Partitioned)
    analysis::checkShardedReductions(*module, found);
  out->collectives = analysis::collectiveCosts(*module);
  if (isGradientStage(stage))
    if (const ir::Operation* fn = module->lookupFunction(defaultFunction(stage)))
      out->gradientCollectives = autodiff::functionCosts(*module, *fn);
  if (stage == Stage::PerDevice)
    if (const StageAnalyses* partitioned = analyses(Stage::Partitioned, sink, cancel)) {
      out->origins = partitionedOrigins(out->collectives, partitioned->collectives);
      inheritAxes(out->collectives, partitioned->collectives, out->origins);
    }
  out->diagnostics = found.diagnostics();
  if (cancel && cancel->load())
    return nullptr;
  std::lock_guard lock(m_analysesMutex);
  if (!m_analyses[index])
    m_analyses[index] = std::move(out);
  return m_analyses[index].get();
}

std::optional<analysis::ExplicitTyping>
Program::explicitTypes(const analysis::ExplicitTypingOptions& options,
                       support::DiagnosticSink& sink) const {
  return analysis::computeExplicitTypes(asWritten(), options, sink);
}

} // namespace shardscope::session
