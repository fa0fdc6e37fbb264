#pragma once

#include "core/ir/sdy_types.h"
#include "core/sharding/mesh_view.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shardscope::sharding {

/// A half-open range `[begin, end)` of global indices along one tensor dimension. A device that
/// only holds padding of a non-divisible dimension gets an empty range (`begin == end`).
struct IndexRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
  bool empty() const { return end <= begin; }
  bool operator==(const IndexRange&) const = default;
};

/// The block of the tensor one device holds.
struct DeviceBlock {
  int64_t deviceId = 0;
  /// The index of the device's shard along each dimension (0..shardsPerDim[d]-1).
  std::vector<int64_t> shardIndex;
  /// The global index range the device holds along each dimension, padding excluded.
  std::vector<IndexRange> ranges;
};

/// How a `TensorSharding` lays a tensor of a static shape out over the devices of a mesh: the
/// number of shards per dimension, the local (per-device) shape, each device's block and the
/// groups of devices that hold the same data.
///
/// Dimension `d` sharded on axes `a1..ak` (major to minor, sub-axes allowed) is split into
/// `shards = size(a1) * ... * size(ak)` blocks of `ceil(dim / shards)` elements; the last blocks
/// are padded when `dim` isn't divisible (Shardy allows that). A device's shard index along `d` is
/// its mixed-radix index along `a1..ak`, where its index along sub-axis `"x":(m)k` is
/// `(coord_x / (size(x) / (m*k))) % k`. Devices are enumerated in mesh order (row-major over the
/// axes), with ids taken from `device_ids` when the mesh has them.
class ShardingLayout {
public:
  /// Builds the layout of `sharding` for a tensor of `shape` on `mesh`. Returns nothing and sets
  /// `error` (when given) if the rank differs from the number of dimension shardings, a dimension
  /// is dynamic, or an axis is unknown or an invalid sub-axis of `mesh`.
  static std::optional<ShardingLayout> create(const ir::TensorSharding& sharding,
                                              const ir::Mesh& mesh, std::span<const int64_t> shape,
                                              std::string* error = nullptr);

  /// The global shape.
  const std::vector<int64_t>& globalShape() const { return m_shape; }
  /// The number of shards (blocks) along each dimension.
  const std::vector<int64_t>& shardsPerDim() const { return m_shards; }
  /// The product of `shardsPerDim()`: the number of distinct blocks.
  int64_t numShards() const;
  /// The per-device shape: `ceil(dim / shards)` per dimension.
  std::vector<int64_t> localShape() const;
  /// The global shape rounded up to whole blocks: `localShape()[d] * shardsPerDim()[d]`.
  std::vector<int64_t> paddedShape() const;
  /// Returns true when dimension `dim` isn't divisible by its number of shards.
  bool isPadded(size_t dim) const;

  /// The number of devices of the mesh.
  int64_t numDevices() const { return static_cast<int64_t>(m_deviceIds.size()); }
  /// The block of `deviceId`, or nothing when the mesh doesn't hold that device.
  std::optional<DeviceBlock> blockOf(int64_t deviceId) const;
  /// The blocks of all devices, in mesh order.
  std::vector<DeviceBlock> blocks() const;
  /// The groups of devices holding identical data: the same block and, for unreduced axes, the
  /// same partial value (the same index along every unreduced axis). Groups are sorted by shard
  /// index (row-major), then by unreduced index; device ids within a group are in mesh order.
  std::vector<std::vector<int64_t>> replicaGroups() const;

private:
  /// Where a device's index along one (sub-)axis sits in its mesh position:
  /// `(position / divisor) % size` (always 0 when `divisor` is 0). Precomputed so that building
  /// blocks needs neither the mesh nor axis-name lookups.
  struct AxisDigit {
    int64_t divisor = 0;
    int64_t size = 1;
    int64_t at(int64_t position) const { return divisor > 0 ? (position / divisor) % size : 0; }
  };
  static AxisDigit digitOf(const MeshView& mesh, const ir::AxisRef& axis);

  ShardingLayout() = default;
  DeviceBlock blockAt(int64_t position) const;
  std::vector<int64_t> unreducedIndexAt(int64_t position) const;

  std::vector<int64_t> m_shape;
  std::vector<int64_t> m_shards;
  std::vector<int64_t> m_local;
  std::vector<std::vector<AxisDigit>> m_dimDigits;
  std::vector<AxisDigit> m_unreducedDigits;
  std::vector<int64_t> m_deviceIds;
};

} // namespace shardscope::sharding
