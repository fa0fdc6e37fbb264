#include "core/sharding/sharding_layout.h"

#include "core/ir/type.h"
#include "core/sharding/axis_refs.h"

#include <algorithm>
#include <map>

namespace shardscope::sharding {

namespace {

bool fail(std::string* error, std::string message) {
  if (error)
    *error = std::move(message);
  return false;
}

// An axis is usable when the mesh has it and a sub-axis splits it evenly.
bool checkAxis(const MeshView& mesh, const ir::AxisRef& axis, std::string* error) {
  if (!mesh.hasAxis(axis.name))
    return fail(error, "unknown axis name: \"" + axis.name + "\"");
  if (axis.subAxis &&
      (axis.subAxis->preSize < 1 || axis.subAxis->size < 1 || mesh.postSizeOf(axis) <= 0))
    return fail(error, "invalid sub-axis: " + axisRefString(axis));
  return true;
}

} // namespace

ShardingLayout::AxisDigit ShardingLayout::digitOf(const MeshView& mesh, const ir::AxisRef& axis) {
  // The index along `axis` is `(coordinate / postSize) % size`, and the coordinate is
  // `(position / stride) % fullSize` with `stride` the product of the minor axes; since
  // `postSize * size` divides `fullSize`, that is `(position / (stride * postSize)) % size`.
  AxisDigit digit;
  std::optional<size_t> index = mesh.axisIndex(axis.name);
  digit.size = mesh.sizeOf(axis);
  if (!index || digit.size <= 0 || mesh.postSizeAt(*index, axis) <= 0)
    return digit; // `indexAlong` has no answer: index 0
  int64_t stride = 1;
  for (size_t i = *index + 1; i < mesh.numAxes(); ++i) {
    int64_t size = mesh.mesh().axes[i].size;
    if (size <= 0)
      return digit; // every position peels down to coordinate 0
    stride *= size;
  }
  digit.divisor = stride * mesh.postSizeAt(*index, axis);
  return digit;
}

std::optional<ShardingLayout> ShardingLayout::create(const ir::TensorSharding& sharding,
                                                     const ir::Mesh& mesh,
                                                     std::span<const int64_t> shape,
                                                     std::string* error) {
  if (sharding.dims.size() != shape.size()) {
    fail(error, "sharding doesn't match tensor rank: " + std::to_string(sharding.dims.size()) +
                    " != " + std::to_string(shape.size()));
    return std::nullopt;
  }
  ShardingLayout layout;
  MeshView view(mesh);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == ir::kDynamicSize || shape[d] < 0) {
      fail(error, "dim " + std::to_string(d) + " is dynamic");
      return std::nullopt;
    }
    int64_t shards = 1;
    std::vector<AxisDigit> digits;
    for (const ir::AxisRef& axis : sharding.dims[d].axes) {
      if (!checkAxis(view, axis, error))
        return std::nullopt;
      shards *= view.sizeOf(axis);
      digits.push_back(digitOf(view, axis));
    }
    layout.m_shards.push_back(shards);
    layout.m_local.push_back(shards > 0 ? (shape[d] + shards - 1) / shards : 0);
    layout.m_dimDigits.push_back(std::move(digits));
  }
  for (const ir::AxisRef& axis : sharding.unreducedAxes) {
    if (!checkAxis(view, axis, error))
      return std::nullopt;
    layout.m_unreducedDigits.push_back(digitOf(view, axis));
  }
  layout.m_shape.assign(shape.begin(), shape.end());
  layout.m_deviceIds = view.deviceIds();
  return layout;
}

int64_t ShardingLayout::numShards() const {
  int64_t n = 1;
  for (int64_t s : m_shards)
    n *= s;
  return n;
}

std::vector<int64_t> ShardingLayout::localShape() const { return m_local; }

std::vector<int64_t> ShardingLayout::paddedShape() const {
  std::vector<int64_t> padded = localShape();
  for (size_t d = 0; d < padded.size(); ++d)
    padded[d] *= m_shards[d];
  return padded;
}

bool ShardingLayout::isPadded(size_t dim) const { return m_shape[dim] % m_shards[dim] != 0; }

DeviceBlock ShardingLayout::blockAt(int64_t position) const {
  DeviceBlock block;
  block.deviceId = m_deviceIds[static_cast<size_t>(position)];
  block.shardIndex.reserve(m_shape.size());
  block.ranges.reserve(m_shape.size());
  for (size_t d = 0; d < m_shape.size(); ++d) {
    int64_t index = 0;
    for (const AxisDigit& digit : m_dimDigits[d])
      index = index * digit.size + digit.at(position);
    block.shardIndex.push_back(index);
    int64_t begin = std::min(index * m_local[d], m_shape[d]);
    int64_t end = std::min(begin + m_local[d], m_shape[d]);
    block.ranges.push_back({begin, end});
  }
  return block;
}

std::vector<int64_t> ShardingLayout::unreducedIndexAt(int64_t position) const {
  std::vector<int64_t> index;
  for (const AxisDigit& digit : m_unreducedDigits)
    index.push_back(digit.at(position));
  return index;
}

std::optional<DeviceBlock> ShardingLayout::blockOf(int64_t deviceId) const {
  auto it = std::find(m_deviceIds.begin(), m_deviceIds.end(), deviceId);
  if (it == m_deviceIds.end())
    return std::nullopt;
  return blockAt(it - m_deviceIds.begin());
}

std::vector<DeviceBlock> ShardingLayout::blocks() const {
  std::vector<DeviceBlock> all;
  all.reserve(m_deviceIds.size());
  for (int64_t p = 0; p < numDevices(); ++p)
    all.push_back(blockAt(p));
  return all;
}

std::vector<std::vector<int64_t>> ShardingLayout::replicaGroups() const {
  std::map<std::pair<std::vector<int64_t>, std::vector<int64_t>>, std::vector<int64_t>> groups;
  for (int64_t p = 0; p < numDevices(); ++p) {
    DeviceBlock block = blockAt(p);
    groups[{block.shardIndex, unreducedIndexAt(p)}].push_back(block.deviceId);
  }
  std::vector<std::vector<int64_t>> out;
  for (auto& [key, devices] : groups)
    out.push_back(std::move(devices));
  return out;
}

} // namespace shardscope::sharding
