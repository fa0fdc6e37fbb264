#include "core/partition/detail/mesh_groups.h"

#include <algorithm>
#include <map>
#include <optional>

namespace shardscope::partition::detail {

int64_t indexAlongAxes(const sharding::MeshView& mesh, std::span<const ir::AxisRef> axes,
                       int64_t position) {
  int64_t index = 0;
  for (const ir::AxisRef& axis : axes)
    index = index * mesh.sizeOf(axis) + mesh.indexAlong(axis, position).value_or(0);
  return index;
}

namespace {

// `groupsAlong` by arithmetic, one pass over the devices with no per-device allocation. Taking a
// device's parts along `axes` out of its row-major position gives the position of the first
// device of its group (all those parts zero), which comes before every other member; the member's
// slot in the group is its mixed-radix index along `axes`. Returns nothing (the caller falls back
// to the general grouping) when an axis is unknown or its sub-axis does not divide the axis, or
// when two members of a group land in one slot (axes that overlap).
std::optional<std::vector<std::vector<int64_t>>>
groupsByArithmetic(const sharding::MeshView& mesh, std::span<const ir::AxisRef> axes) {
  struct Part {
    int64_t stride; // of the axis in the row-major position
    int64_t full;   // the full axis size
    int64_t post;   // the sub-axes minor to this one
    int64_t size;   // of this (sub-)axis
  };
  const std::vector<ir::MeshAxis>& meshAxes = mesh.mesh().axes;
  std::vector<int64_t> strides(meshAxes.size(), 1);
  for (size_t i = meshAxes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * meshAxes[i].size;
  std::vector<Part> parts;
  int64_t groupSize = 1;
  for (const ir::AxisRef& axis : axes) {
    std::optional<size_t> index = mesh.axisIndex(axis.name);
    if (!index)
      return std::nullopt;
    int64_t size = mesh.sizeOf(axis);
    int64_t post = mesh.postSizeAt(*index, axis);
    if (size <= 0 || post <= 0)
      return std::nullopt;
    parts.push_back({strides[*index], meshAxes[*index].size, post, size});
    groupSize *= size;
  }
  int64_t total = mesh.totalSize();
  if (groupSize <= 0 || total % groupSize != 0)
    return std::nullopt;
  std::vector<std::vector<int64_t>> groups;
  groups.reserve(static_cast<size_t>(total / groupSize));
  // The group of each first device, by its position (-1 for other devices).
  std::vector<int64_t> groupAt(static_cast<size_t>(total), -1);
  for (int64_t p = 0; p < total; ++p) {
    int64_t base = p;
    int64_t slot = 0;
    for (const Part& part : parts) {
      int64_t index = ((p / part.stride) % part.full / part.post) % part.size;
      base -= index * part.post * part.stride;
      slot = slot * part.size + index;
    }
    if (base == p) {
      groupAt[static_cast<size_t>(p)] = static_cast<int64_t>(groups.size());
      groups.emplace_back(static_cast<size_t>(groupSize), -1);
    }
    int64_t group = groupAt[static_cast<size_t>(base)];
    if (group < 0)
      return std::nullopt;
    int64_t& member = groups[static_cast<size_t>(group)][static_cast<size_t>(slot)];
    if (member != -1)
      return std::nullopt;
    member = mesh.deviceIdAt(p);
  }
  return groups;
}

} // namespace

std::vector<std::vector<int64_t>> groupsAlong(const sharding::MeshView& mesh,
                                              std::span<const ir::AxisRef> axes) {
  if (auto groups = groupsByArithmetic(mesh, axes))
    return std::move(*groups);
  // Two devices are in one group iff their coordinates agree once the parts along `axes` are
  // taken out: coordinate c of axis x is the sum over x's sub-axes of index * post-size.
  std::map<std::vector<int64_t>, size_t> groupOf;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> members;
  for (int64_t p = 0; p < mesh.totalSize(); ++p) {
    std::vector<int64_t> key = mesh.coordinatesAt(p);
    for (const ir::AxisRef& axis : axes) {
      auto axisIndex = mesh.axisIndex(axis.name);
      if (!axisIndex)
        continue;
      key[*axisIndex] -= mesh.indexAlong(axis, p).value_or(0) * mesh.postSizeOf(axis);
    }
    auto [it, inserted] = groupOf.emplace(key, members.size());
    if (inserted)
      members.emplace_back();
    members[it->second].push_back({indexAlongAxes(mesh, axes, p), mesh.deviceIdAt(p)});
  }
  std::vector<std::vector<int64_t>> groups;
  for (auto& group : members) {
    std::sort(group.begin(), group.end());
    std::vector<int64_t> ids;
    for (const auto& [index, id] : group)
      ids.push_back(id);
    groups.push_back(std::move(ids));
  }
  return groups;
}

} // namespace shardscope::partition::detail
