#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::propagation {

/// Options of `-sdy-import-pipeline`.
struct ImportOptions {
  /// Keep one callee per call site regardless of shardings (`dedup-functions-fully`). Call graphs
  /// are never flattened or inlined here, so this only documents the mode the caller runs in.
  bool dedupFunctionsFully = false;
};

/// MLIR's `-symbol-dce`: erases private functions no live symbol or op refers to (through
/// `callee`). Never fails.
bool eraseDeadSymbols(ir::Module& module, support::DiagnosticSink& sink);

/// The steps of `-sdy-import-pipeline` that follow constant splitting, in Shardy's order: symbol
/// DCE, manual axes cleanup, data-flow edges, sharding constraints, sharding group import. Stops
/// at the first failing step. The registered pipeline (core/pipeline) runs the earlier steps
/// first (symbol DCE, inlined-mesh lifting, size-one axis removal, call shardings, constant
/// splitting). Call graphs are kept as they are (no inlining, no flattening), as with
/// `dedup-functions-fully=true`.
bool runImportPipeline(ir::Module& module, const ImportOptions& options,
                       support::DiagnosticSink& sink);

} // namespace shardscope::propagation
