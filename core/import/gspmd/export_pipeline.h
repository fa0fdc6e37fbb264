#pragma once

#include "core/import/gspmd/export_shardings.h"
#include "core/import/gspmd/import_pipeline.h"

namespace shardscope::import_::gspmd {

/// The op half of XLA's `ExportOpsPass` (stablehlo_round_trip/export_ops.cc): `sdy.constant`
/// becomes `stablehlo.constant`; `sdy.reshard`, `sdy.sharding_constraint` and the collectives
/// that move data (`all_gather`, `all_slice`, `all_to_all`, `collective_permute`) become
/// `mhlo.copy` carrying the target sharding; `sdy.all_reduce` and `sdy.propagation_barrier` are
/// replaced by their operand (GSPMD has no such ops; the shardings around them say it all);
/// `sdy.sharding_group` is erased. Never fails.
bool exportSdyOps(ir::Module& module, support::DiagnosticSink& sink);

/// XLA's shard map export: every `sdy.manual_computation` becomes, per operand, an `mhlo.copy`
/// with its in sharding and `@SPMDFullToShardShape` with the in sharding less the manual axes;
/// then its body, inlined, each op marked with the manual axes (and given a closed replicated
/// sharding if it has none); then per result an `mhlo.copy` with the local out sharding and
/// `@SPMDShardToFullShape` with the out sharding. Nested computations add their axes to their
/// parent's. The manual axes ride in `xla.sdy.manual_axes` until `exportShardings`.
bool exportManualComputations(ir::Module& module, support::DiagnosticSink& sink);

/// XLA's `-xla-sdy-stablehlo-export-pipeline` as far as ShardScope models it:
/// `exportNamedComputations` (a step of core/import/common, skipped when null), `exportSdyOps`,
/// `exportManualComputations`, then `exportShardings` with missing control-flow shardings added.
/// The `sdy.original_func_name` markers of exported named computations are dropped at the end,
/// as XLA's call-graph unflattening (not modelled) drops them. (Host callbacks are not
/// rewritten.)
bool runGspmdExportPipeline(ir::Module& module, ExportShardingsOptions options,
                            const PipelineStep& exportNamedComputations,
                            support::DiagnosticSink& sink);

} // namespace shardscope::import_::gspmd
