#pragma once

// StableHLO process groups: which devices a collective op on one device talks to.

#include "core/exec/communicator.h"
#include "core/exec/device_context.h"
#include "core/ir/operation.h"

#include <cstdint>
#include <vector>

namespace shardscope::exec {

/// How a collective forms its process groups (StableHLO spec, "Collective ops").
enum class GroupMode { CrossReplica, CrossPartition, CrossReplicaAndPartition, FlattenedIds };

/// Returns the mode of a StableHLO collective `op` from its `channel_handle` and
/// `use_global_device_ids` attributes (the spec's table; `all_to_all`, `collective_permute` and
/// `collective_broadcast` use cross_replica without a channel and cross_partition with one).
GroupMode groupMode(const ir::Operation& op);

/// Reads `replica_groups` (or `source_target_pairs` for `collective_permute`) of `op` and returns
/// the ordered device group the op on `ctx`'s device communicates with, as global device ids.
/// `-1` entries pad groups and are dropped. An empty `replica_groups` means one group of all
/// replicas (cross_replica) or all partitions (cross_partition). A `collective_broadcast` device
/// in no group gets an empty group (it receives zeros without communicating). Fails with a message when the
/// device is in no group or in several, or an id is out of range.
CommResult<std::vector<int64_t>> processGroup(const ir::Operation& op, const DeviceContext& ctx);

/// Returns true for the collectives the interpreter routes through a `Communicator`
/// (StableHLO and sdy).
bool isCollectiveOp(std::string_view name);

} // namespace shardscope::exec
