#include "core/partition/detail/mesh_groups.h"

#include <algorithm>
#include <map>

namespace shardscope::partition::detail {

int64_t indexAlongAxes(const sharding::MeshView& mesh, std::span<const ir::AxisRef> axes,
                       int64_t position) {
  int64_t index = 0;
  for (const ir::AxisRef& axis : axes)
    index = index * mesh.sizeOf(axis) + mesh.indexAlong(axis, position).value_or(0);
  return index;
}

std::vector<std::vector<int64_t>> groupsAlong(const sharding::MeshView& mesh,
                                              std::span<const ir::AxisRef> axes) {
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
