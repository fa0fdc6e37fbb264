#pragma once

// Unreduced axes in `-sdy-insert-explicit-reshards`: a value that is a partial sum along some
// axes (`unreduced={"x"}`) is all-reduced over them where its user doesn't keep them unreduced.

#include "core/ir/module.h"
#include "core/sharding/mesh_view.h"

#include <optional>
#include <vector>

namespace shardscope::partition {

/// The axes of `a` that no axis of `b` covers (a partly covered axis leaves its uncovered
/// sub-axes), sorted in mesh order with consecutive sub-axes merged.
std::vector<ir::AxisRef> axisSetDiff(const std::vector<ir::AxisRef>& a,
                                     const std::vector<ir::AxisRef>& b,
                                     const sharding::MeshView& mesh);

/// When operand `index` of `user` has unreduced axes that `target` (the sharding the user wants,
/// or nothing for replicated) doesn't keep unreduced, inserts `sdy.all_reduce` over them just
/// before `before` (default: `user`) and makes the user take it. Returns the operand's sharding
/// afterwards.
std::optional<ir::TensorSharding>
allReduceUnreducedOperand(const ir::Module& module, ir::Operation& user, unsigned index,
                          const std::optional<ir::TensorSharding>& target,
                          ir::Operation* before = nullptr);

/// Applies `allReduceUnreducedOperand` to every operand of `op` with the sharding of its first
/// result as the target (Shardy assumes all results share their unreduced axes).
void allReduceUnreducedOperands(const ir::Module& module, ir::Operation& op);

/// When `target` keeps unreduced axes that operand `index` of `user` (with sharding `source`)
/// doesn't have: reshards the operand to `target`'s dimension shardings (keeping its unreduced
/// axes) if they differ, then inserts `sdy.replicated_to_unreduced` over the missing axes, all
/// just before `user`. Returns false (changing nothing) when there is nothing to add.
bool makeOperandUnreduced(const ir::Module& module, ir::Operation& user, unsigned index,
                          const ir::TensorSharding& source, const ir::TensorSharding& target);

/// Replaces an `sdy.reshard` whose result has more unreduced axes than its input by
/// `sdy.replicated_to_unreduced` (axes that were replicated) and/or `sdy.sharded_to_unreduced`
/// (axes dropped from the minor end of dimension shardings). Returns true when it did.
bool convertReshardToUnreducedCollectives(const ir::Module& module, ir::Operation& op);

} // namespace shardscope::partition
