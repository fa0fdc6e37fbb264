#pragma once
// Internal to core/partition: device groups of a mesh for lowering collectives.

#include "core/ir/sdy_types.h"
#include "core/sharding/mesh_view.h"

#include <cstdint>
#include <span>
#include <vector>

namespace shardscope::partition::detail {

/// The groups of devices of `mesh` that differ only in their index along `axes` (full axes or
/// sub-axes): one group per combination of the other (sub-)axes, in mesh order of their first
/// device. Each group lists device ids ordered by the mixed-radix index along `axes` (the first
/// axis is the most major), which is the order a collective over `axes` concatenates pieces in.
/// With no axes, every device is its own group.
std::vector<std::vector<int64_t>> groupsAlong(const sharding::MeshView& mesh,
                                              std::span<const ir::AxisRef> axes);

/// The mixed-radix index of the device at `position` along `axes` (0 for no axes).
int64_t indexAlongAxes(const sharding::MeshView& mesh, std::span<const ir::AxisRef> axes,
                       int64_t position);

} // namespace shardscope::partition::detail
