#pragma once

#include "core/import/gspmd/export_shardings.h"

namespace shardscope::import_::gspmd {

/// The op half of XLA's `ExportOpsPass` (stablehlo_round_trip/export_ops.cc): `sdy.constant`
/// becomes `stablehlo.constant`; `sdy.reshard`, `sdy.sharding_constraint` and the collectives
/// that move data (`all_gather`, `all_slice`, `all_to_all`, `collective_permute`) become
/// `mhlo.copy` carrying the target sharding; `sdy.all_reduce` and `sdy.propagation_barrier` are
/// replaced by their operand (GSPMD has no such ops; the shardings around them say it all);
/// `sdy.sharding_group` is erased. Never fails.
bool exportSdyOps(ir::Module& module, support::DiagnosticSink& sink);

/// XLA's `-xla-sdy-stablehlo-export-pipeline` as far as ShardScope models it: `exportSdyOps`,
/// then `exportShardings` with missing control-flow shardings added. Manual computations are not
/// yet rewritten to XLA's `@SPMDFullToShardShape` / `@SPMDShardToFullShape` form: each is a
/// warning and keeps its Shardy form (with its body; its meshes inline).
bool runGspmdExportPipeline(ir::Module& module, ExportShardingsOptions options,
                            support::DiagnosticSink& sink);

} // namespace shardscope::import_::gspmd
