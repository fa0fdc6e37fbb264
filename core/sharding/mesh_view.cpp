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

} // namespace shardscope::sharding
