#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-export-named-computations`: every `sdy.named_computation<"name">` (innermost first)
/// becomes a `func.call` of a new private function `@name` (made unique with `_N` as MLIR's
/// symbol table does) holding its body, with the attribute `sdy.original_func_name = "name"`.
/// The in/out shardings become the function's argument/result `sdy.sharding`s; the call keeps the
/// op's discardable attributes and gets the out shardings as its `sdy.sharding`. Never fails.
bool exportNamedComputations(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
