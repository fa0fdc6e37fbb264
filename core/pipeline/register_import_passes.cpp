// Registers the import passes of core/propagation (and the export passes that undo them) under
// `sdy_opt`'s names.
#include "core/import/round_trip/dedup_meshes.h"
#include "core/import/round_trip/remove_size_one_axes.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"
#include "core/propagation/import_apply_sharding_constraints.h"
#include "core/propagation/import_constant_splitter.h"
#include "core/propagation/import_data_flow_edges.h"
#include "core/propagation/import_flatten_call_graph.h"
#include "core/propagation/import_manual_axes_cleanup.h"
#include "core/propagation/import_pipeline.h"
#include "core/propagation/import_sharding_cleanup.h"
#include "core/propagation/import_sharding_groups.h"

namespace shardscope::pipeline {

namespace {

// Shardy's import_pipeline.cc: symbol DCE, inlined meshes lifted to symbols, size-one axes
// removed from shardings, function result shardings onto calls, constants split per use, then
// the steps of `propagation::runImportPipeline` (which starts with the second DCE).
bool runImportPipeline(ir::Module& module, const PassOptions& options,
                       support::DiagnosticSink& sink) {
  if (!propagation::eraseDeadSymbols(module, sink) || !import_::liftInlinedMeshes(module, sink) ||
      !import_::removeSizeOneAxes(module, sink) ||
      !propagation::propagateShardingFromFuncToCall(module, sink) ||
      !propagation::splitConstants(module, sink))
    return false;
  propagation::ImportOptions importOptions;
  importOptions.dedupFunctionsFully = options.getBool("dedup-functions-fully", false);
  return propagation::runImportPipeline(module, importOptions, sink);
}

} // namespace

void registerImportPasses(PassRegistry& registry) {
  registry.add(modulePass("sdy-apply-sharding-constraints",
                          "applies closed sharding constraints to their inputs",
                          propagation::applyShardingConstraints));
  registry.add(modulePass("sdy-sharding-group-import",
                          "validates, merges and renumbers sharding groups",
                          propagation::importShardingGroups));
  registry.add(modulePass("sdy-add-data-flow-edges",
                          "adds sdy.data_flow_edge ops on the edge owners of data-flow ops",
                          propagation::addDataFlowEdges));
  registry.add(modulePass("sdy-sink-data-flow-edges",
                          "moves data-flow edge shardings back onto their ops, drops the edges",
                          propagation::sinkDataFlowEdges));
  registry.add(modulePass("sdy-close-shardings",
                          "closes all shardings and drops their replicated axes",
                          propagation::closeShardings));
  registry.add(modulePass("sdy-manual-axes-cleanup",
                          "sorts manual axes and states unused ones as replicated",
                          propagation::cleanupManualAxes));
  registry.add(modulePass("sdy-sharding-constraint-to-reshard",
                          "turns sharding constraints into reshards",
                          propagation::shardingConstraintsToReshards));
  registry.add(modulePass("sdy-drop-sharding-and-mesh", "removes shardings and unreferenced meshes",
                          propagation::dropShardingAndMesh));
  registry.add(modulePass("symbol-dce", "erases unreferenced private functions",
                          propagation::eraseDeadSymbols));
  registry.add(modulePass("sdy-lift-inlined-meshes",
                          "replaces inlined meshes by mesh symbols and dedups equal mesh symbols",
                          import_::liftInlinedMeshes));
  registry.add(modulePass("sdy-constant-or-scalar-splitter",
                          "gives every use of a constant sub-computation its own copy",
                          propagation::splitConstants));
  registry.add(modulePass("sdy-remove-size-one-axes",
                          "removes axes of size one from every sharding",
                          import_::removeSizeOneAxes));
  registry.add(modulePass("sdy-flatten-call-graph",
                          "gives every call site its own copy of the called function",
                          propagation::flattenCallGraph));
  registry.add(modulePass("sdy-pre-order-funcs",
                          "orders the functions callers first (pre-order of the call graph)",
                          propagation::preOrderFuncs));
  registry.add(modulePass("sdy-propagate-sharding-from-func-to-call",
                          "gives calls without shardings their callee's result shardings",
                          propagation::propagateShardingFromFuncToCall));
  registry.add(modulePass("sdy-constant-or-scalar-merger",
                          "merges identical constants and scalar broadcasts",
                          propagation::mergeConstants));
  registry.add({"sdy-import-pipeline",
                "symbol DCE, inlined meshes lifted, size-one axes removed, call shardings, "
                "constants split, manual axes cleanup, data-flow edges, sharding constraints and "
                "sharding groups",
                {"dedup-functions-fully"},
                runImportPipeline});
}

} // namespace shardscope::pipeline
