#pragma once

// Data-flow ops in `-sdy-insert-explicit-reshards`: the values flowing into a result of
// `stablehlo.while` / `case` / `if` / `optimization_barrier` (operands, region terminator operands)
// are resharded to that result's sharding right where they are defined.

#include "core/ir/module.h"

namespace shardscope::partition {

/// Returns true for the data-flow ops `reshardDataFlowEdges` handles.
bool isDataFlowOp(const ir::Operation& op);

/// For every result of the data-flow op `op`, reshards each edge source whose sharding isn't
/// equivalent to the result's (to the result's, or to a closed replicated one when the result
/// has none), inserting the reshard just after the source's definition (at the start of its block
/// for a block argument) and making only that edge use it.
void reshardDataFlowEdges(const ir::Module& module, ir::Operation& op);

/// Reshards each operand of the `func.call` `call` whose sharding isn't equivalent to the callee's
/// argument sharding, right after the operand's definition. When the callee has no argument
/// shardings, the targets are closed replicated shardings on the mesh of the first sharded
/// operand (nothing happens when no operand is sharded).
void reshardCallOperands(const ir::Module& module, ir::Operation& call);

} // namespace shardscope::partition
