#pragma once

namespace shardscope::ir {
class Module;
}
namespace shardscope::support {
class DiagnosticSink;
}

namespace shardscope::pipeline {

class PassRegistry;

/// Groups of canonicalization patterns, like the labels Shardy's pipelines use to restrict
/// MLIR's canonicalizer (`kCollectiveLabel`, `kReshardLabel`).
enum CanonicalizePatternGroup : unsigned {
  kCollectivePatterns = 1u << 0,        ///< folding and fusing sdy collectives
  kReshardPatterns = 1u << 1,           ///< reshard of reshard, reshard CSE
  kManualComputationPatterns = 1u << 2, ///< sdy.manual_computation clean-ups
  kAllCanonicalizePatterns = kCollectivePatterns | kReshardPatterns | kManualComputationPatterns,
};

/// Runs the canonicalizer (`-canonicalize`) with only the pattern groups in `patternGroups`
/// (a mask of `CanonicalizePatternGroup`). Dead code is removed either way.
void canonicalize(ir::Module& module, unsigned patternGroups);

/// Adds every built-in pass (canonicalization, propagation, partitioning, ...) to `registry`.
void registerBuiltinPasses(PassRegistry& registry);

/// Adds `canonicalize`.
void registerCanonicalizePass(PassRegistry& registry);
/// Adds `sdy-populate-op-sharding-rules` (register_rule_passes.cpp).
void registerRulePasses(PassRegistry& registry);
/// Adds the import passes: `sdy-apply-sharding-constraints`, `sdy-sharding-group-import`,
/// `sdy-add-data-flow-edges`, `sdy-sink-data-flow-edges`, `sdy-close-shardings`,
/// `sdy-manual-axes-cleanup`, `sdy-import-pipeline` (register_import_passes.cpp).
void registerImportPasses(PassRegistry& registry);
/// Adds the propagation passes: `sdy-basic-propagate`, `sdy-aggressive-propagate`,
/// `sdy-op-priority-propagate`, `sdy-user-priority-propagate`, `sdy-propagation-pipeline`
/// (register_propagation_passes.cpp).
void registerPropagationPasses(PassRegistry& registry);
/// Adds the export passes of core/partition: `sdy-reshard-to-collectives`
/// (register_partition_passes.cpp).
void registerPartitionPasses(PassRegistry& registry);
/// Shardy's `ExportOptions` that ShardScope models (`-sdy-export-pipeline` options).
struct ExportOptions {
  /// Leave sharding constraints, sharding groups and implicit reshards in place, so the module
  /// can go through another round of propagation.
  bool avoidExportForPartitioning = false;
  /// Run the full explicit-reshard insertion and lower the reshards to collectives.
  bool enableInsertExplicitCollectives = false;
  bool keepShardingRules = false;
  bool updateNonDivisibleInputOutputShardings = true;
};

/// The steps of Shardy's `addExportPipeline` (what `-sdy-export-pipeline` runs before inlining
/// the meshes), for pipelines that end with it (register_export_pipeline.cpp).
bool runExportSteps(ir::Module& module, const ExportOptions& options,
                    support::DiagnosticSink& sink);

/// Adds `sdy-export-pipeline` and the export steps it needs that have no pass of their own
/// elsewhere: `sdy-remove-sub-axes-in-input-output-shardings`, `sdy-inline-meshes`,
/// `sdy-remove-sharding-groups`, `sdy-drop-sharding-rules` (register_export_pipeline.cpp).
void registerExportPipeline(PassRegistry& registry);

/// Adds XLA's GSPMD import and export (core/import/gspmd): `xla-sdy-import-shardings`,
/// `xla-sdy-shard-map-import`, `xla-sdy-stablehlo-import-pipeline`,
/// `xla-sdy-mhlo-import-pipeline`, `xla-sdy-stablehlo-export-shardings`,
/// `xla-sdy-stablehlo-export-pipeline` (register_xla_gspmd_passes.cpp).
void registerXlaGspmdPasses(PassRegistry& registry);

/// Adds the passes of XLA's Shardy integration (core/import): `xla-sdy-import-constants`,
/// `xla-sdy-import-sdy-custom-calls`, `xla-sdy-open-while-free-vars-sharding`, the round-trip
/// import and export pipelines and their steps (register_xla_round_trip_passes.cpp).
void registerXlaRoundTripPasses(PassRegistry& registry);

/// Adds the `stablehlo-opt` passes ShardScope implements: `chlo-legalize-to-stablehlo`
/// (core/import/chlo; register_stablehlo_passes.cpp).
void registerStablehloPasses(PassRegistry& registry);

} // namespace shardscope::pipeline
