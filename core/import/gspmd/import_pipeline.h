#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <functional>

namespace shardscope::import_::gspmd {

/// XLA's shard map import (`-xla-sdy-shard-map-import`, round_trip_common/shard_map_import.cc):
/// every `func.call @shmap_body...` whose operands each come from
/// `@SPMDFullToShardShape(@Sharding(x))` and whose used results each go to
/// `@SPMDShardToFullShape(@Sharding(r))` becomes an `sdy.manual_computation` over the union of
/// the axes of its in/out shardings (the imported shardings of the `@Sharding` calls of the
/// operands and of the `@SPMDShardToFullShape` calls), with the callee's body inlined (cloned
/// for later calls of the same callee), the custom calls and the callee erased. Run after
/// `importShardings`. A call that does not match the pattern is an error with XLA's message.
bool importShardMaps(ir::Module& module, support::DiagnosticSink& sink);

/// A step of the pipeline that lives in another module (core/import/common): XLA's common pre-
/// and post-import passes. A null step is skipped.
using PipelineStep = std::function<bool(ir::Module&, support::DiagnosticSink&)>;

/// What `runGspmdImportPipeline` runs around its own steps.
struct GspmdImportPipelineSteps {
  /// `addCommonPreImportPasses`: symbol DCE, constants to `sdy.constant`.
  PipelineStep commonPreImport;
  /// `addCommonPostImportPasses`: `@Sharding` custom calls to sharding constraints, sharding
  /// groups, open while free variables.
  PipelineStep commonPostImport;
};

/// XLA's `-xla-sdy-stablehlo-import-pipeline` (and `-xla-sdy-mhlo-import-pipeline`, whose input
/// is the same program in MHLO): common pre-import steps, `importShardings` (axes `axis_N`),
/// `importShardMaps`, common post-import steps. Stops at the first failing step.
bool runGspmdImportPipeline(ir::Module& module, const GspmdImportPipelineSteps& steps,
                            support::DiagnosticSink& sink);

} // namespace shardscope::import_::gspmd
