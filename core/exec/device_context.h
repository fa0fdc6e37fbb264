#pragma once

#include <cstdint>
#include <functional>
#include <memory>

namespace shardscope::exec {

class Communicator;

/// Where one interpreter runs inside a StableHLO process grid: its global device id, its replica
/// and partition ids and the grid size, plus the communicator collectives go through. The
/// default is the single-device grid (1 replica x 1 partition) with no communicator, where a
/// collective over a group of one device still works and anything larger is an error.
///
/// StableHLO numbers devices `device = replica * numPartitions + partition`; callers that build
/// contexts must follow that (see `DeviceContext::forDevice`).
struct DeviceContext {
  int64_t device = 0;
  int64_t replica = 0;
  int64_t partition = 0;
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  /// Not owned; may be null for single-device runs.
  Communicator* communicator = nullptr;

  /// Total number of devices of the grid.
  int64_t numDevices() const { return numReplicas * numPartitions; }
  /// The context of `device` in a `numReplicas` x `numPartitions` grid.
  static DeviceContext forDevice(int64_t device, int64_t numReplicas, int64_t numPartitions,
                                 Communicator* communicator) {
    return {device, device / numPartitions, device % numPartitions, numReplicas, numPartitions,
            communicator};
  }
};

/// Creates a communicator for `numDevices` devices; installed by drivers (the CLI's `interpret`
/// installs the local backend) so that `interpreter.run_parallel` can run without `core/exec`
/// depending on a backend.
using CommunicatorFactory = std::function<std::unique_ptr<Communicator>(int64_t numDevices)>;

} // namespace shardscope::exec
