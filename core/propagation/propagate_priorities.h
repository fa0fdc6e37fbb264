#pragma once

// The schedules of the priority passes. Op priorities (`-sdy-op-priority-propagate`) restrict,
// round after round, the direction each kind of op may propagate in: first only pass-through ops
// (element-wise, reshape, transpose, data-flow edges, host offloading) whose operands have no
// other use, then all of them, then only pass-through factors, then everything but broadcasts
// forward, then everything. User priorities (`-sdy-user-priority-propagate`) propagate the dimension shardings
// marked `p0` first, then `p1`, ...: dimensions of a later priority are kept empty and closed,
// with their axes explicitly replicated, until their round.

#include "core/ir/module.h"
#include "core/propagation/propagate_engine.h"

#include <cstdint>
#include <vector>

namespace shardscope::propagation {

/// The number of op-priority rounds.
inline constexpr int kNumOpPriorities = 5;

/// The direction of `op` along a factor in op-priority round `round` (0-based): the union of
/// the schedule's heuristics up to that round, intersected with `outer` (when given).
OpDirectionFn opPriorityDirection(int round, OpDirectionFn outer);
/// The same for every factor of an op at once, as the engine asks for them.
OpDirectionsFn opPriorityDirections(int round);

/// Union and intersection of directions (`BOTH > FORWARD == BACKWARD > NONE`).
Direction unionOf(Direction a, Direction b);
Direction intersectionOf(Direction a, Direction b);

/// A tensor whose annotation has dimension shardings of some user priority, with that
/// annotation.
struct PrioritizedSharding {
  TensorRef tensor;
  ir::TensorSharding original;
};

/// The tensors with dimension shardings of one non-zero priority.
struct PriorityRound {
  int64_t priority = 0;
  std::vector<PrioritizedSharding> tensors;
};

/// Prepares `module` for user-priority propagation: every sharding keeps only its dimension
/// shardings of priority 0 (or none), the others become empty, closed and their axes replicated.
/// Returns the rounds of the other priorities, in increasing order.
std::vector<PriorityRound> initializeUserPriorities(ir::Module& module);

/// Restores the dimension shardings of `round`'s priority (removing their axes from the
/// replicated ones) on top of what propagation found so far.
void applyUserPriority(const PriorityRound& round);

} // namespace shardscope::propagation
