#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::propagation {

/// What Shardy's conservative propagation pipeline does to a flattened call graph after
/// propagating (propagation_pipeline.cc): `-sdy-import-func-calls` turned every call into a named
/// computation and erased the callees, so `-sdy-export-named-computations` recreates them in
/// post-order of the call sites (a callee's own calls first), appended to the module and named
/// after the original function, made unique as MLIR's `SymbolTable::insert` does (`bar`, then
/// `bar_0`, one counter for the pass); then `-sdy-unflatten-call-graph` makes every call go to the
/// first function, in call order, with the same original name and the same argument and result
/// shardings, and `-symbol-dce` erases the copies no call reaches.
///
/// Expects each function to be called from at most one call (`flattenCallGraph`); a module with
/// a function called twice is left as it is. Never fails.
bool exportFlattenedCallGraph(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::propagation
