#pragma once

// Shardy's choice of one common sharding per factor for `-sdy-insert-explicit-reshards`: the
// unary preference (keep the better of two tensors) and the factor-axes candidate heuristic,
// followed by moving need-replication axes to batching factors.

#include "core/ir/sdy_types.h"
#include "core/sharding/mesh_view.h"

#include <cstdint>
#include <map>
#include <vector>

namespace shardscope::partition {

/// The axes of one factor, major to minor.
using FactorAxes = std::vector<ir::AxisRef>;
/// The factor shardings of one tensor: factor index -> axes, for every factor the tensor maps.
using TensorFactorAxes = std::map<int64_t, FactorAxes>;

/// Returns Shardy's common axes for every factor of `rule` (indexed by factor) given the factor
/// shardings of the op's operands then results (`tensors`) and their element counts
/// (`tensorSizes`). A unary op (two non-scalar tensors, no need-replication factor, one factor
/// per dimension) keeps the preferred tensor's shardings; otherwise candidates are picked by
/// source size, factor type, local size and sharding size, a factor only once the factors before
/// it in a dimension are fully sharded. Sub-axes are split where picked axes overlap.
std::vector<FactorAxes> findCommonFactorAxes(const std::vector<TensorFactorAxes>& tensors,
                                             const std::vector<int64_t>& tensorSizes,
                                             const ir::OpShardingRule& rule,
                                             const sharding::MeshView& mesh);

/// The product of the sizes of `axes` on `mesh`.
int64_t factorAxesSize(const sharding::MeshView& mesh, const FactorAxes& axes);

} // namespace shardscope::partition
