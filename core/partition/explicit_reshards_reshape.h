#pragma once

// Reshapes whose shardings have axes overflowing a factor (an axis that doesn't divide what
// remains of a non-minor factor of a merged or split dimension) in
// `-sdy-insert-explicit-reshards`: Shardy redistributes the axes of the more sharded side over
// the factors of both sides and keeps what both agree on.

#include "core/ir/sdy_types.h"
#include "core/propagation/sharding_projection.h"
#include "core/sharding/mesh_view.h"

#include <string>
#include <utility>

namespace shardscope::partition {

/// Returns the operand and result shardings of a reshape with overflow axes: the axes (and
/// overflow axes) of the side with the larger sharding, in factor order, are given axis by axis
/// to the first factors (operand and result each in dimension order) with room for part of them,
/// splitting sub-axes by the gcd, any rest going to the last factor; each side is rebuilt from
/// that, and every factor keeps the greatest common prefix of the two sides.
std::pair<ir::TensorSharding, ir::TensorSharding>
alignReshapeWithOverflowAxes(const propagation::ShardingProjection& projection,
                             const ir::OpShardingRule& rule, const std::string& meshName,
                             const sharding::MeshView& mesh);

} // namespace shardscope::partition
