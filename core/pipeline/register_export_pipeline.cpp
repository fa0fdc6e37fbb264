// `-sdy-export-pipeline`: the post-processing Shardy runs after propagation, composed from the
// export passes of core/propagation and core/partition in the order of Shardy's
// export_pipeline.cc (`addExportPipeline`), plus the few export steps that have no pass elsewhere.
#include "core/partition/export_passes.h"
#include "core/partition/insert_explicit_reshards.h"
#include "core/partition/reshard_to_collectives.h"
#include "core/partition/update_non_divisible.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"
#include "core/propagation/import_constant_splitter.h"
#include "core/propagation/import_data_flow_edges.h"
#include "core/propagation/import_pipeline.h"
#include "core/propagation/import_sharding_cleanup.h"
#include "core/propagation/propagate_basic.h"
#include "core/sharding/verify_unreduced_axes.h"

#include <vector>

namespace shardscope::pipeline {

namespace {

// Shardy's `-sdy-remove-sharding-groups`: groups only matter during propagation.
bool removeShardingGroups(ir::Module& module, support::DiagnosticSink&) {
  std::vector<ir::Operation*> groups;
  module.op().walk([&](ir::Operation& op) {
    if (op.is("sdy.sharding_group"))
      groups.push_back(&op);
  });
  for (ir::Operation* op : groups) {
    op->dropAllReferences();
    op->parentBlock()->erase(op);
  }
  return true;
}

bool dropShardingRules(ir::Module& module, support::DiagnosticSink&) {
  propagation::removeShardingRules(module);
  return true;
}

// Shardy's `runShardyPartitioner`: explicit reshards (only those the minimal partitioner needs
// unless `enableInsertExplicitCollectives`), their lowering to collectives, and the canonicalizer
// restricted to the reshard / collective patterns. Shardy's starts with `-sdy-verify-unreduced-axes`,
// registered but not run here: without Shardy's call-graph flattening and func-call reshards,
// calls that pass unreduced values would be reported.
bool runPartitioner(ir::Module& module, const ExportOptions& options,
                    support::DiagnosticSink& sink) {
  partition::InsertExplicitReshardsOptions reshardOptions;
  reshardOptions.enableFullVersion = options.enableInsertExplicitCollectives;
  if (!partition::insertExplicitReshards(module, reshardOptions, sink))
    return false;
  if (options.enableInsertExplicitCollectives) {
    canonicalize(module, kReshardPatterns);
    if (!partition::reshardToCollectives(module, partition::ReshardToCollectivesOptions(), sink))
      return false;
    // The all-slices just inserted may fuse with preceding all-reduces into reduce-scatters.
  }
  canonicalize(module, kCollectivePatterns);
  return true;
}

// `-sdy-export-pipeline` on its own: the export steps, then the meshes inlined into the shardings
// (Shardy's `-sdy-inline-meshes`) so the exported module is self-contained, as sdy_opt's
// `-sdy-export-pipeline` prints it.
bool runExportPipeline(ir::Module& module, const PassOptions& passOptions,
                       support::DiagnosticSink& sink) {
  ExportOptions options;
  options.avoidExportForPartitioning = passOptions.getBool("avoid-export-for-partitioning", false);
  options.enableInsertExplicitCollectives =
      passOptions.getBool("enable-insert-explicit-collectives", false);
  options.keepShardingRules = passOptions.getBool("keep-sharding-rules", false);
  options.updateNonDivisibleInputOutputShardings =
      passOptions.getBool("update-non-divisible-input-output-shardings", true);
  return runExportSteps(module, options, sink) && partition::inlineMeshes(module, sink);
}

} // namespace

// The steps of Shardy's `addExportPipeline`, in its order. Steps Shardy has that are not modelled
// here: sinking `sdy.func_data_flow_edge` ops and un-flattening the call graph (ShardScope never
// flattens it), removing propagation debug info, and the CMV1 all-gather/reduce-scatter removal.
bool runExportSteps(ir::Module& module, const ExportOptions& options,
                    support::DiagnosticSink& sink) {
  // Shardy keeps a symbol DCE after un-flattening the call graph.
  if (!propagation::eraseDeadSymbols(module, sink) || !propagation::mergeConstants(module, sink) ||
      !propagation::sinkDataFlowEdges(module, sink))
    return false;
  if (!options.avoidExportForPartitioning &&
      (!removeShardingGroups(module, sink) ||
       !propagation::shardingConstraintsToReshards(module, sink)))
    return false;
  if (options.updateNonDivisibleInputOutputShardings &&
      (!partition::updateNonDivisibleInputOutputShardings(module, sink) ||
       !partition::removeSubAxesInInputOutputShardings(module, sink)))
    return false;
  if (!partition::closeShardingsKeepingUnreduced(module, sink))
    return false;
  if (!options.avoidExportForPartitioning && !runPartitioner(module, options, sink))
    return false;
  if (!options.keepShardingRules)
    dropShardingRules(module, sink);
  return true;
}

void registerExportPipeline(PassRegistry& registry) {
  registry.add(
      {"sdy-export-pipeline",
       "export passes after propagation: sharding constraints to reshards, divisible "
       "boundary shardings, closing, explicit reshards/collectives, inlined meshes",
       {"avoid-export-for-partitioning", "enable-insert-explicit-collectives",
        "keep-sharding-rules", "update-non-divisible-input-output-shardings", "dump-directory"},
       runExportPipeline});
  registry.add(modulePass("sdy-remove-sub-axes-in-input-output-shardings",
                          "drops sub-axes (and what follows) from open dimensions of the main "
                          "function's argument and result shardings",
                          partition::removeSubAxesInInputOutputShardings));
  registry.add(modulePass("sdy-verify-unreduced-axes",
                          "verifies that no op drops or wrongly introduces unreduced axes",
                          [](ir::Module& module, support::DiagnosticSink& sink) {
                            return sharding::verifyUnreducedAxes(module, sink);
                          }));
  registry.add(modulePass("sdy-inline-meshes",
                          "inlines mesh symbols into the shardings and erases the sdy.mesh ops",
                          partition::inlineMeshes));
  registry.add(modulePass("sdy-remove-sharding-groups", "removes sdy.sharding_group ops",
                          removeShardingGroups));
  registry.add(modulePass("sdy-drop-sharding-rules",
                          "removes the sdy.sharding_rule attributes that aren't custom",
                          dropShardingRules));
}

} // namespace shardscope::pipeline
