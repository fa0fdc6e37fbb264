#pragma once

// The communication cost model of collectives: how many bytes each device sends and receives for
// every collective of a program, explicit (`sdy.all_gather`, `stablehlo.all_reduce`, ...) or
// inserted by partitioning, split by the mesh axes the data moves along.
//
// Model (the default, "ring"): a collective over a group of n devices runs as a ring, axis by
// axis from the major to the minor axis it names. With b the bytes of one device's operand:
//   all_gather          sends (n-1)·b            (every block travels once around the ring)
//   reduce_scatter      sends (n-1)/n·b          (a ring reduce-scatter)
//   all_reduce          sends 2·(n-1)/n·b        (reduce-scatter, then all-gather)
//   all_to_all          sends (n-1)/n·b per axis (each device keeps 1/n of its data)
//   collective_permute  sends b                  (devices that map to themselves send nothing)
//   collective_broadcast sends b                 (a pipelined chain)
//   all_slice           sends 0                  (a local slice)
// Received bytes equal sent bytes for every kind but collective_permute and broadcast, where they
// depend on the pairs. Over several axes the steps compose: an all_gather along axes a1 then a2
// sends (n1-1)·b on a1 and (n2-1)·n1·b on a2, which sums to (n1·n2-1)·b.

#include "core/ir/module.h"
#include "core/support/format_bytes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::analysis {

/// Bytes one device sends along one mesh axis. `axis` is the axis name (a sub-axis as
/// `"x":(1)2`), or `(groups)` when the devices of a collective match no mesh axes.
struct AxisTraffic {
  std::string axis;
  int64_t bytesSent = 0;
  bool operator==(const AxisTraffic&) const = default;
};

/// The cost of one collective under the ring model.
struct CollectiveCost {
  const ir::Operation* op = nullptr;
  /// `all_gather`, `all_slice`, `all_reduce`, `reduce_scatter`, `all_to_all`,
  /// `collective_permute` or `collective_broadcast`.
  std::string kind;
  /// The mesh axes it communicates along, major to minor (empty when unknown or none).
  std::vector<std::string> axes;
  /// The same axes as axis references (sub-axes with their pre-size and size), for the geometry
  /// of its groups and rings (`sharding::MeshView::groupsAlong`, `ringHops`).
  std::vector<ir::AxisRef> axisRefs;
  /// Devices per group and number of groups.
  int64_t groupSize = 1;
  int64_t numGroups = 1;
  /// Bytes of one device's operand and result (local shapes, padding included).
  int64_t operandBytes = 0;
  int64_t resultBytes = 0;
  /// Bytes one participating device sends and receives.
  int64_t bytesSent = 0;
  int64_t bytesReceived = 0;
  /// `bytesSent` split by axis (sums to `bytesSent`).
  std::vector<AxisTraffic> perAxis;
  /// Anything the model had to assume, e.g. why the axes are unknown.
  std::string note;
};

/// Costs of every collective of a module and their totals.
struct CostSummary {
  std::vector<CollectiveCost> collectives;
  /// Sum of `bytesSent` over the collectives (per device).
  int64_t totalBytesSent = 0;
  /// Per-axis totals, in the order axes first appear.
  std::vector<AxisTraffic> perAxis;
};

/// Returns true for the collectives the model prices (sdy and StableHLO ones).
bool isCostedCollective(const ir::Operation& op);

/// The cost of `op`, or nothing when it is not a collective or its types are not static tensors.
std::optional<CollectiveCost> collectiveCost(const ir::Module& module, const ir::Operation& op);

/// The costs of every collective in `module` (all functions, nested regions included), in program
/// order.
CostSummary collectiveCosts(const ir::Module& module);


} // namespace shardscope::analysis
