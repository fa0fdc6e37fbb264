#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// What `runCommonPreImport` does.
struct CommonPreImportOptions {
  /// Turn `stablehlo.constant`s into `sdy.constant`s (`-xla-sdy-import-constants`).
  bool importConstants = true;
};

/// The steps XLA runs before importing shardings in its pipelines (`addCommonPreImportPasses`):
/// symbol DCE, then constants to `sdy.constant`. XLA's StableHLO clean-ups for HLO export (tuple
/// flattening, prepare-for-export) have no counterpart here: ShardScope reads StableHLO as JAX
/// and XLA's MLIR dumps write it. Returns false when a step fails.
bool runCommonPreImport(ir::Module& module, const CommonPreImportOptions& options,
                        support::DiagnosticSink& sink);

/// The steps XLA runs after importing shardings (`addCommonPostImportPasses`): the sdy custom
/// calls to Shardy ops, then open shardings for while-loop free variables. Returns false when a
/// step fails (a malformed custom call).
bool runCommonPostImport(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
