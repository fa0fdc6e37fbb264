#pragma once

#include "core/ir/module.h"
#include "core/partition/reshard_to_collectives.h"
#include "core/support/diagnostic.h"

#include <cstdint>

namespace shardscope::partition {

struct ResolveSingleDeviceShardingOptions {
  /// The replica and partition counts the program runs with (see ConvertGlobalToLocalOptions):
  /// they choose `replica_id` or `partition_id` as the device id and size the device group.
  int64_t replicaCount = 1;
  int64_t partitionCount = 1;
};

/// `-sdy-resolve-single-device-sharding`: an op sharded on a maximal mesh
/// (`<[], device_ids=[d]>`) is computed by device `d` alone. In the SPMD program every device
/// runs it on device `d`'s operands: each operand sharded over a mesh is first all-gathered
/// (`sdy.all_gather`), then device `d`'s value is broadcast to all devices
/// (`stablehlo.all_reduce` of the value masked to zero on the other devices), so every device
/// computes the same result device `d` would. Run before -sdy-convert-global-to-local. When
/// `log` is given, every inserted collective is appended with why.
bool resolveSingleDeviceSharding(ir::Module& module,
                                 const ResolveSingleDeviceShardingOptions& options,
                                 support::DiagnosticSink& sink,
                                 std::vector<InsertedCollective>* log = nullptr);

} // namespace shardscope::partition
