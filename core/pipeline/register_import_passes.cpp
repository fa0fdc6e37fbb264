// Registers the import passes of core/propagation (and the export passes that undo them) under
// `sdy_opt`'s names.
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"
#include "core/propagation/import_apply_sharding_constraints.h"
#include "core/propagation/import_data_flow_edges.h"
#include "core/propagation/import_manual_axes_cleanup.h"
#include "core/propagation/import_pipeline.h"
#include "core/propagation/import_sharding_cleanup.h"
#include "core/propagation/import_sharding_groups.h"

namespace shardscope::pipeline {

namespace {

bool runImportPipeline(ir::Module& module, const PassOptions& options,
                       support::DiagnosticSink& sink) {
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
  registry.add({"sdy-import-pipeline",
                "symbol DCE, manual axes cleanup, data-flow edges, sharding constraints and "
                "sharding groups",
                {"dedup-functions-fully"},
                runImportPipeline});
}

} // namespace shardscope::pipeline
