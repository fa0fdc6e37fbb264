#pragma once

// Internal helpers of the import passes that copy functions (constant splitting, call-graph
// flattening). Not part of the module's API.

#include "core/ir/module.h"

#include <string>
#include <vector>

namespace shardscope::propagation::detail {

/// The callee of a `func.call` (empty when it has none).
std::string calleeOf(const ir::Operation& call);

/// The name a function had before it was copied (`sdy.original_func_name`), else its name.
std::string originalFuncName(const ir::Operation& fn);

/// New symbol names as MLIR's `SymbolTable::insert` makes them unique: `name` when free, else
/// `name_<n>` with one counter for the whole pass (so copies of `foo` and `bar` made by one pass
/// are `foo_0` and `bar_1`).
struct SymbolNamer {
  unsigned counter = 0;
  std::string unique(const ir::Module& module, const std::string& name);
};

/// Shardy's `cloneFuncRecursively`: appends to the module a copy of `fn` marked with its original
/// name, after copies of every function it calls (which its calls then call). Returns the name
/// of the copy.
std::string cloneFuncRecursively(ir::Module& module, const ir::Operation& fn, SymbolNamer& namer);

/// The functions in the order of Shardy's post-order call-graph walk (`iterateFuncs`,
/// `walkCalls`): callees before callers, depth first from the public functions in module order,
/// calls in op order. Functions no public function reaches are left out.
std::vector<ir::Operation*> funcsCalleesFirst(const ir::Module& module);

} // namespace shardscope::propagation::detail
