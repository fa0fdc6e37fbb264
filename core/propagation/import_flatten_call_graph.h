#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::propagation {

/// `-sdy-flatten-call-graph` (Shardy's flatten_call_graph.cc): every function is called from at
/// most one call site. Calls are visited callees first (Shardy's `walkCalls`); the first call of
/// a function keeps it, every later one calls a fresh copy of it and of everything it calls
/// (`<name>_<n>`, marked `sdy.original_func_name`). Fails, at the call that closes the cycle, on
/// a recursive call graph, which no number of copies flattens.
bool flattenCallGraph(ir::Module& module, support::DiagnosticSink& sink);

/// `-sdy-pre-order-funcs` (Shardy's pre_order_funcs.cc): moves the functions to the end of the
/// module in pre-order of the call graph (callers before callees; the reverse of the post-order
/// walk). Functions no public function reaches keep their place. Never fails.
bool preOrderFuncs(ir::Module& module, support::DiagnosticSink& sink);

/// `-sdy-propagate-sharding-from-func-to-call` (Shardy's propagate_sharding_from_func_to_call.cc):
/// a `func.call` without `sdy.sharding` gets its callee's result shardings, a result without one
/// being fully open on the mesh of the first result sharding that isn't on a maximal mesh. Calls
/// of callees without such a result sharding are left alone. Never fails.
bool propagateShardingFromFuncToCall(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::propagation
