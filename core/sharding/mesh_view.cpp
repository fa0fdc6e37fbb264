#include "core/sharding/mesh_view.h"

namespace shardscope::sharding {

std::optional<size_t> MeshView::axisIndex(std::string_view name) const {
  for (size_t i = 0; i < m_mesh->axes.size(); ++i)
    if (m_mesh->axes[i].name == name)
      return i;
  return std::nullopt;
}

int64_t MeshView::axisSize(std::string_view name) const {
  std::optional<size_t> index = axisIndex(name);
  return index ? m_mesh->axes[*index].size : 0;
}

int64_t MeshView::totalSize() const {
  int64_t total = 1;
  for (const ir::MeshAxis& axis : m_mesh->axes)
    total *= axis.size;
  return total;
}

std::optional<int64_t> MeshView::maximalDeviceId() const {
  if (!isMaximal())
    return std::nullopt;
  return m_mesh->deviceIds.front();
}

std::vector<int64_t> MeshView::deviceIds() const {
  if (!m_mesh->deviceIds.empty())
    return m_mesh->deviceIds;
  std::vector<int64_t> ids(static_cast<size_t>(totalSize()));
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = static_cast<int64_t>(i);
  return ids;
}

int64_t MeshView::deviceIdAt(int64_t position) const {
  if (!m_mesh->deviceIds.empty())
    return m_mesh->deviceIds[static_cast<size_t>(position)];
  return position;
}

std::optional<int64_t> MeshView::positionOf(int64_t deviceId) const {
  if (m_mesh->deviceIds.empty()) {
    if (deviceId < 0 || deviceId >= totalSize())
      return std::nullopt;
    return deviceId;
  }
  for (size_t i = 0; i < m_mesh->deviceIds.size(); ++i)
    if (m_mesh->deviceIds[i] == deviceId)
      return static_cast<int64_t>(i);
  return std::nullopt;
}

std::vector<int64_t> MeshView::coordinatesAt(int64_t position) const {
  std::vector<int64_t> coords(m_mesh->axes.size());
  for (size_t i = coords.size(); i-- > 0;) {
    int64_t size = m_mesh->axes[i].size;
    coords[i] = size > 0 ? position % size : 0;
    position = size > 0 ? position / size : 0;
  }
  return coords;
}

std::optional<std::vector<int64_t>> MeshView::coordinatesOf(int64_t deviceId) const {
  std::optional<int64_t> position = positionOf(deviceId);
  if (!position)
    return std::nullopt;
  return coordinatesAt(*position);
}

int64_t MeshView::positionAt(std::span<const int64_t> coordinates) const {
  int64_t position = 0;
  for (size_t i = 0; i < m_mesh->axes.size() && i < coordinates.size(); ++i)
    position = position * m_mesh->axes[i].size + coordinates[i];
  return position;
}

int64_t MeshView::sizeOf(const ir::AxisRef& axis) const {
  if (axis.subAxis)
    return axis.subAxis->size;
  return axisSize(axis.name);
}

int64_t MeshView::postSizeOf(const ir::AxisRef& axis) const {
  std::optional<size_t> index = axisIndex(axis.name);
  return index ? postSizeAt(*index, axis) : 0;
}

// `postSizeOf` for the axis at `index`, without looking its name up again.
int64_t MeshView::postSizeAt(size_t index, const ir::AxisRef& axis) const {
  int64_t full = m_mesh->axes[index].size;
  int64_t size = axis.subAxis ? axis.subAxis->size : full;
  int64_t next = preSizeOf(axis) * size;
  if (full <= 0 || next <= 0 || full % next != 0)
    return 0;
  return full / next;
}

int64_t MeshView::coordinateAt(int64_t position, size_t index) const {
  // `coordinatesAt(position)[index]` without building the vector: peel off the minor axes.
  for (size_t i = m_mesh->axes.size(); i-- > index + 1;) {
    int64_t size = m_mesh->axes[i].size;
    position = size > 0 ? position / size : 0;
  }
  int64_t size = m_mesh->axes[index].size;
  return size > 0 ? position % size : 0;
}

std::optional<int64_t> MeshView::indexAlong(const ir::AxisRef& axis, int64_t position) const {
  // Called per device for every axis of every layout: look the axis name up once.
  std::optional<size_t> index = axisIndex(axis.name);
  if (!index)
    return std::nullopt;
  int64_t size = axis.subAxis ? axis.subAxis->size : m_mesh->axes[*index].size;
  int64_t post = postSizeAt(*index, axis);
  if (size <= 0 || post <= 0)
    return std::nullopt;
  return (coordinateAt(position, *index) / post) % size;
}

std::optional<int64_t> MeshView::withIndexAlong(const ir::AxisRef& axis, int64_t position,
                                                int64_t index) const {
  std::optional<size_t> a = axisIndex(axis.name);
  std::optional<int64_t> current = indexAlong(axis, position);
  if (!a || !current)
    return std::nullopt;
  int64_t stride = 1; // positions between neighbours along axis `a`
  for (size_t b = *a + 1; b < m_mesh->axes.size(); ++b)
    stride *= m_mesh->axes[b].size;
  // Along the axis, the sub-axis digit is worth `post` coordinates.
  return position + (index - *current) * postSizeAt(*a, axis) * stride;
}

std::vector<MeshView::RingHop> MeshView::ringHops(const ir::AxisRef& axis) const {
  std::vector<RingHop> hops;
  const int64_t size = sizeOf(axis);
  if (size < 2 || !indexAlong(axis, 0))
    return hops;
  const int64_t n = totalSize();
  hops.reserve(static_cast<size_t>(n));
  for (int64_t p = 0; p < n; ++p) {
    const int64_t index = *indexAlong(axis, p);
    const int64_t next = (index + 1) % size;
    hops.push_back({p, *withIndexAlong(axis, p, next), next == 0});
  }
  return hops;
}

std::vector<int64_t> MeshView::groupsAlong(std::span<const ir::AxisRef> axes) const {
  const int64_t n = totalSize();
  std::vector<int64_t> groups(static_cast<size_t>(n), -1);
  // A group's representative: the device with index 0 along every axis of the collective.
  std::vector<int64_t> numberOf(static_cast<size_t>(n), -1);
  int64_t next = 0;
  for (int64_t p = 0; p < n; ++p) {
    int64_t base = p;
    for (const ir::AxisRef& axis : axes) {
      std::optional<int64_t> moved = withIndexAlong(axis, base, 0);
      if (!moved)
        return std::vector<int64_t>(static_cast<size_t>(n), -1);
      base = *moved;
    }
    int64_t& number = numberOf[static_cast<size_t>(base)];
    if (number < 0)
      number = next++;
    groups[static_cast<size_t>(p)] = number;
  }
  return groups;
}

} // namespace shardscope::sharding
