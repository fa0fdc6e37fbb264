#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-round-trip-clone-manual-computation-calls`: gives every call of a
/// `xla.sdy.manual_computation_body` function its own function. The first call of a body keeps
/// it; each later call gets a copy, appended to the module and named like MLIR's symbol table
/// names clashes (`@body_0`, `@body_1`, ...). Never fails.
bool cloneManualComputationCalls(ir::Module& module, support::DiagnosticSink& sink);

/// Returns `base` if no function or mesh of `module` is named so, else the first free
/// `base_N` (N = 0, 1, ...), as MLIR's `SymbolTable::insert` renames a clashing symbol.
std::string uniqueSymbolName(const ir::Module& module, std::string_view base);

} // namespace shardscope::import_
