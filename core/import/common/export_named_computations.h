#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-export-named-computations`: every `sdy.named_computation<"name">` (innermost first)
/// becomes a `func.call` of a new private function `@name` (made unique with `_N` as MLIR's
/// symbol table does) holding its body, with the attribute `sdy.original_func_name = "name"`.
/// The in/out shardings become the function's argument/result `sdy.sharding`s; the call keeps the
/// op's discardable attributes and gets the out shardings as its `sdy.sharding`. Never fails.
///
/// With `dedupFunctionsFully` (XLA's `dedup-functions-fully=true`) all named computations of one
/// name (and manual axes) call a single function, made from the one whose in/out shardings are
/// the most common for that name (the earliest on a tie). Where a call site disagrees with the
/// function, `mhlo.copy` ops reshard: operands to the argument shardings before the call, results
/// from the function's result shardings (which the call gets) to the site's out shardings after
/// it. A missing out sharding on either side counts as fully closed and replicated.
bool exportNamedComputations(ir::Module& module, bool dedupFunctionsFully,
                             support::DiagnosticSink& sink);
/// `exportNamedComputations` without `dedupFunctionsFully`.
bool exportNamedComputations(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
