#pragma once

// Reductions whose result partitioning changes. A `stablehlo.reduce` over dimensions the program
// shards is partitioned as each device reducing its block, starting from the init, followed by
// an all-reduce of the partial results over the devices of the reduced dimensions:
// - when the init is not the identity of the body (a sum from 10), the init enters once per
//   device and the sharded result differs from the unsharded one. XLA's SPMD partitioner and
//   Shardy make the same assumption (the init is the identity); JAX always emits the identity,
//   hand-written and generated programs may not. Idempotent bodies (max, min) are unaffected;
// - when the body is not a sum, a maximum or a minimum (a product, a logical and, an argmax), the
//   all-reduce cannot combine the partial results as the body would (Shardy's all-reduce knows
//   those three operators), and sums them.

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <string>
#include <vector>

namespace shardscope::analysis {

struct ShardedReductionFinding {
  const ir::Operation* reduce = nullptr;
  /// The whole finding, for a warning at the reduce.
  std::string message;
};

/// Every `stablehlo.reduce` of `module` (a stage with shardings: propagated or partitioned)
/// whose inputs are sharded along a reduced dimension and whose result partitioning changes.
std::vector<ShardedReductionFinding> shardedReductionFindings(const ir::Module& module);

/// Reports each of them as a warning at its reduce.
void checkShardedReductions(const ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::analysis
