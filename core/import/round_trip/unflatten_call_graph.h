#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-unflatten-call-graph`: calls of functions that come from the same original function
/// (`sdy.original_func_name`, else the function's name) with the same manual axes and the same
/// argument and result shardings call one function again (the first one called). With
/// `dedupFunctionsFully` the shardings do not matter: the function with the most calls is kept,
/// and `mhlo.copy` ops with the expected shardings are inserted where an operand's sharding
/// differs from the kept function's argument sharding, or where the kept function's result
/// sharding differs from the one the call had (a kept function without a result sharding counts
/// as returning a closed, replicated value; copies for a call keep its `xla.sdy.manual_axes`).
/// Calls of inlinable manual computation bodies are left alone. `sdy.original_func_name` and
/// `xla.sdy.manual_axes` are removed from the functions afterwards (calls keep theirs). Never
/// fails.
bool unflattenCallGraph(ir::Module& module, bool dedupFunctionsFully,
                        support::DiagnosticSink& sink);

} // namespace shardscope::import_
