#pragma once

#include "core/ir/sdy_types.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace shardscope::sharding {

/// A read-only view of a logical mesh (`ir::Mesh`) with the queries the sharding layers need:
/// axis sizes, the device order (honouring `device_ids`), device coordinates and the arithmetic
/// of sub-axes (`"x":(preSize)size`).
///
/// Devices are laid out in a row-major array whose dimensions are the mesh axes, major to minor.
/// The *position* of a device is its row-major index in that array; the *device id* at a position
/// is `device_ids[position]`, or the position itself when the mesh has no explicit `device_ids`.
///
/// The view keeps a reference to `mesh`, which must outlive it. The mesh is assumed to be valid
/// (see `verifyModule`); queries about unknown axes return 0 / nothing rather than asserting.
class MeshView {
public:
  explicit MeshView(const ir::Mesh& mesh) : m_mesh(&mesh) {}

  /// The viewed mesh.
  const ir::Mesh& mesh() const { return *m_mesh; }

  /// The number of axes.
  size_t numAxes() const { return m_mesh->axes.size(); }
  /// The index of axis `name` in the mesh (major to minor), or nothing.
  std::optional<size_t> axisIndex(std::string_view name) const;
  /// Returns true when the mesh has an axis `name`.
  bool hasAxis(std::string_view name) const { return axisIndex(name).has_value(); }
  /// The size of full axis `name`, or 0 when the mesh has no such axis.
  int64_t axisSize(std::string_view name) const;

  /// The product of all axis sizes: the number of devices the mesh spans (1 for a mesh without
  /// axes, i.e. an empty or maximal mesh).
  int64_t totalSize() const;
  /// Returns true for a maximal mesh: no axes and exactly one device id (`<[], device_ids=[3]>`).
  bool isMaximal() const { return m_mesh->axes.empty() && m_mesh->deviceIds.size() == 1; }
  /// The single device of a maximal mesh, or nothing.
  std::optional<int64_t> maximalDeviceId() const;
  /// Returns true for a mesh with neither axes nor device ids (`<[]>`).
  bool isEmpty() const { return m_mesh->axes.empty() && m_mesh->deviceIds.empty(); }

  /// The device ids in position order: `device_ids` when given, else 0..totalSize()-1.
  std::vector<int64_t> deviceIds() const;
  /// The device id at row-major `position`. Precondition: 0 <= position < totalSize().
  int64_t deviceIdAt(int64_t position) const;
  /// The row-major position of `deviceId`, or nothing when the mesh does not hold it.
  std::optional<int64_t> positionOf(int64_t deviceId) const;
  /// The coordinates (one per axis, major to minor) of the device at `position`.
  std::vector<int64_t> coordinatesAt(int64_t position) const;
  /// The coordinates of `deviceId`, or nothing when the mesh does not hold it.
  std::optional<std::vector<int64_t>> coordinatesOf(int64_t deviceId) const;
  /// The row-major position of `coordinates` (one per axis). Precondition: in range.
  int64_t positionAt(std::span<const int64_t> coordinates) const;
  /// `coordinatesAt(position)[index]`, without building the vector. Precondition:
  /// index < numAxes().
  int64_t coordinateAt(int64_t position, size_t index) const;

  // Sub-axis arithmetic. A full axis "x" of size n behaves like the sub-axis "x":(1)n: axis "x" is
  // reshaped into [preSize, size, postSize] and the sub-axis is the middle dimension.

  /// The size of `axis`: the sub-axis size, or the full axis size (0 for an unknown axis).
  int64_t sizeOf(const ir::AxisRef& axis) const;
  /// The pre-size of `axis` (the product of the sub-axes major to it); 1 for a full axis.
  static int64_t preSizeOf(const ir::AxisRef& axis) {
    return axis.subAxis ? axis.subAxis->preSize : 1;
  }
  /// `preSize * size`: the pre-size a sub-axis just minor to `axis` would have.
  int64_t nextPreSizeOf(const ir::AxisRef& axis) const { return preSizeOf(axis) * sizeOf(axis); }
  /// `fullSize / (preSize * size)`: the product of the sub-axes minor to `axis` (0 when
  /// `axis` is unknown or its next pre-size doesn't divide the full size).
  int64_t postSizeOf(const ir::AxisRef& axis) const;
  /// `postSizeOf(axis)` when `axis` names the axis at `index` (no name lookup). Precondition:
  /// index < numAxes().
  int64_t postSizeAt(size_t index, const ir::AxisRef& axis) const;
  /// The index (0..sizeOf(axis)-1) of the device at `position` along `axis`, or nothing when the
  /// axis is unknown or invalid.
  std::optional<int64_t> indexAlong(const ir::AxisRef& axis, int64_t position) const;
  /// The position of the device whose index along `axis` is `index` and whose other coordinates
  /// (other axes, and the other sub-axes of `axis`'s axis) are those of `position`; nothing for
  /// an unknown or invalid axis. Precondition: 0 <= index < sizeOf(axis).
  std::optional<int64_t> withIndexAlong(const ir::AxisRef& axis, int64_t position,
                                        int64_t index) const;

  // Geometry of collectives (the mesh view draws it; the ring model prices it).

  /// One step of a ring along an axis: the device at `from` sends to the one at `to`.
  struct RingHop {
    int64_t from = 0; ///< positions
    int64_t to = 0;
    bool wraps = false; ///< the closing step, from the ring's last device back to its first
  };
  /// Every device's step of the rings along `axis` (rings of sizeOf(axis) devices, in index
  /// order): one hop per position, in position order; empty for an unknown axis or a ring of
  /// fewer than 2 devices.
  std::vector<RingHop> ringHops(const ir::AxisRef& axis) const;
  /// The group of each position (by position) for a collective over `axes`: devices that differ
  /// only in their indices along `axes` share a group; groups are numbered 0.. in order of their
  /// first position. All -1 when an axis is unknown.
  std::vector<int64_t> groupsAlong(std::span<const ir::AxisRef> axes) const;

private:
  const ir::Mesh* m_mesh;
};

} // namespace shardscope::sharding
