// Registers the passes of XLA's Shardy integration (core/import) under `sdy_opt`'s names
// (`-xla-sdy-...`).
#include "core/import/common/export_named_computations.h"
#include "core/import/common/import_constants.h"
#include "core/import/common/import_sdy_custom_calls.h"
#include "core/import/common/open_while_free_vars_sharding.h"
#include "core/import/round_trip/clone_manual_computation_calls.h"
#include "core/import/round_trip/dedup_meshes.h"
#include "core/import/round_trip/import_shardy_attrs.h"
#include "core/import/round_trip/remove_size_one_axes.h"
#include "core/import/round_trip/round_trip_export.h"
#include "core/import/round_trip/round_trip_import.h"
#include "core/import/round_trip/shard_map_import.h"
#include "core/import/round_trip/sharding_transform.h"
#include "core/import/round_trip/unflatten_call_graph.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"

namespace shardscope::pipeline {

namespace {

bool runRoundTripImportPipeline(ir::Module& module, const PassOptions& options,
                                support::DiagnosticSink& sink) {
  import_::RoundTripImportOptions importOptions;
  importOptions.enableConstantImport = options.getBool("enable-constant-import", true);
  importOptions.liftAndDedupMeshes = options.getBool("lift-and-dedup-meshes", false);
  importOptions.enableHloShardingV3 = options.getBool("enable-hlo-sharding-v3", false);
  importOptions.importOnlyUninlineableFuncCalls =
      options.getBool("import-only-uninlineable-func-calls", true);
  if (!import_::runRoundTripImport(module, importOptions, sink))
    return false;
  // XLA ends with MLIR's canonicalizer (no folding, no constant CSE).
  canonicalize(module, kCollectivePatterns | kReshardPatterns);
  return true;
}

bool runRoundTripExportPipeline(ir::Module& module, const PassOptions& options,
                                support::DiagnosticSink& sink) {
  import_::RoundTripExportOptions exportOptions;
  exportOptions.keepMeshesInlined = options.getBool("keep-meshes-inlined", false);
  exportOptions.enableHloShardingV3 = options.getBool("enable-hlo-sharding-v3", false);
  return import_::runRoundTripExport(module, exportOptions, sink);
}

// XLA's testing pipeline: export, through HLO and back, import. ShardScope has no HLO, so the
// exported module is imported directly.
bool runRoundTripTestingPipeline(ir::Module& module, const PassOptions& options,
                                 support::DiagnosticSink& sink) {
  if (!runRoundTripExportPipeline(module, options, sink) ||
      !runRoundTripImportPipeline(module, options, sink))
    return false;
  // HloSharding V3 (mesh and axes) has no dimension priorities, so they do not survive HLO.
  if (options.getBool("enable-hlo-sharding-v3", false))
    import_::transformShardings(module, [](const ir::TensorSharding& sharding) {
      ir::TensorSharding out = sharding;
      for (auto& dim : out.dims)
        dim.priority.reset();
      return out;
    });
  return true;
}

bool runExportNamedComputations(ir::Module& module, const PassOptions& options,
                                support::DiagnosticSink& sink) {
  return import_::exportNamedComputations(module, options.getBool("dedup-functions-fully", false),
                                          sink);
}

bool runUnflattenCallGraph(ir::Module& module, const PassOptions& options,
                           support::DiagnosticSink& sink) {
  return import_::unflattenCallGraph(module, options.getBool("dedup-functions-fully", false),
                                     sink);
}

} // namespace

void registerXlaRoundTripPasses(PassRegistry& registry) {
  registry.add(modulePass("xla-sdy-import-constants",
                          "turns stablehlo.constant ops into sdy.constant ops",
                          import_::importConstants));
  registry.add(modulePass("xla-sdy-import-sdy-custom-calls",
                          "turns Sharding, xla.sdy.ShardingGroup and xla.sdy.PropagationBarrier "
                          "custom calls into Shardy ops",
                          import_::importSdyCustomCalls));
  registry.add(modulePass("xla-sdy-open-while-free-vars-sharding",
                          "adds fully open sharding constraints on sharded free variables of "
                          "while loops",
                          import_::openWhileFreeVarsSharding));
  registry.add({"xla-sdy-export-named-computations",
                "turns sdy.named_computation ops into calls of new private functions",
                {"dedup-functions-fully"},
                runExportNamedComputations});
  registry.add({"xla-sdy-unflatten-call-graph",
                "calls functions of the same origin and shardings through one function again",
                {"dedup-functions-fully"},
                runUnflattenCallGraph});
  registry.add(modulePass("xla-sdy-round-trip-import-shardy-attrs",
                          "reads meshes, shardings and sharding rules kept as xla.sdy.* frontend "
                          "attribute strings",
                          import_::importShardyAttrs));
  registry.add(modulePass("xla-sdy-round-trip-shard-map-import",
                          "turns calls of xla.sdy.manual_computation_body functions between shape "
                          "custom calls into sdy.manual_computation ops",
                          import_::importShardMaps));
  registry.add(modulePass("xla-sdy-round-trip-clone-manual-computation-calls",
                          "gives each call of a manual computation body its own function",
                          import_::cloneManualComputationCalls));
  registry.add(modulePass("xla-sdy-round-trip-remove-size-one-axes",
                          "drops mesh axes of size one from every sharding",
                          import_::removeSizeOneAxes));
  registry.add(modulePass("xla-sdy-round-trip-dedup-meshes",
                          "folds meshes with the same devices into the first such mesh",
                          import_::dedupMeshes));
  registry.add(modulePass("xla-sdy-round-trip-export-ops",
                          "turns Shardy ops without an HLO counterpart into custom calls",
                          import_::exportSdyOps));
  registry.add(modulePass("xla-sdy-round-trip-shard-map-export",
                          "outlines sdy.manual_computation bodies into functions called between "
                          "shape custom calls",
                          import_::exportShardMaps));
  registry.add(modulePass("xla-sdy-round-trip-export-shardy-attrs",
                          "saves meshes, shardings and sharding rules as xla.sdy.* frontend "
                          "attribute strings",
                          import_::exportShardyAttrs));
  registry.add({"xla-sdy-round-trip-export-pipeline",
                "exports the sdy dialect into Shardy's round-trip form",
                {"keep-meshes-inlined", "enable-hlo-sharding-v3"},
                runRoundTripExportPipeline});
  registry.add({"xla-sdy-round-trip-testing-pipeline",
                "round-trip export followed by round-trip import",
                {"enable-hlo-sharding-v3"},
                runRoundTripTestingPipeline});
  registry.add({"xla-sdy-round-trip-import-pipeline",
                "imports a module in Shardy's round-trip form into the sdy dialect",
                {"enable-constant-import", "lift-and-dedup-meshes", "enable-hlo-sharding-v3",
                 "import-only-uninlineable-func-calls"},
                runRoundTripImportPipeline});
  // Shardy carries a copy of XLA's round-trip import pipeline under its own name, without
  // options (so with XLA's defaults); both must give the same module.
  registry.add({"sdy-round-trip-import-pipeline",
                "imports a module in Shardy's round-trip form into the sdy dialect (Shardy's "
                "copy of -xla-sdy-round-trip-import-pipeline)",
                {},
                runRoundTripImportPipeline});
}

} // namespace shardscope::pipeline
