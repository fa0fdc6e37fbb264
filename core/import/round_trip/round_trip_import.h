#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// The options of XLA's `-xla-sdy-round-trip-import-pipeline`.
struct RoundTripImportOptions {
  /// Turn `stablehlo.constant`s into `sdy.constant`s first (`enable-constant-import`).
  bool enableConstantImport = true;
  /// `lift-and-dedup-meshes`: lift inlined meshes into `sdy.mesh` symbols and merge equal ones.
  bool liftAndDedupMeshes = false;
  /// `enable-hlo-sharding-v3`: shardings may be HloSharding V3 strings (`{mesh[...], [...]}`).
  bool enableHloShardingV3 = false;
};

/// The import steps of `-xla-sdy-round-trip-import-pipeline`, in XLA's order: symbol DCE,
/// constants, the Shardy attributes (`importShardyAttrs`), shard maps (`importShardMaps`), the
/// sdy custom calls and open while free variables (`runCommonPostImport`). The canonicalizer XLA
/// runs last is core/pipeline's and is run by the registered pipeline. Returns false after
/// located errors.
bool runRoundTripImport(ir::Module& module, const RoundTripImportOptions& options,
                        support::DiagnosticSink& sink);

/// Returns true when `module` carries Shardy's round-trip form: an `xla.sdy.*` frontend attribute
/// on the module, a function argument or result, or an op; an `xla.sdy.*` custom call; or a call of
/// a `xla.sdy.manual_computation_body` function.
bool hasSdyRoundTripAttrs(const ir::Module& module);

/// Reads a program in the round-trip form (what `jax.export` and XLA's dumps write) into Shardy's
/// own form with the default options; for loaders, which call it when `hasSdyRoundTripAttrs`.
/// Malformed `xla.sdy.*` strings are located errors. Returns false on failure.
bool importSdyRoundTripProgram(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
