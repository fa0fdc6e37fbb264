#include "core/analysis/variance_set.h"

#include "core/sharding/notation.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

// Mesh position of `axis`; names the mesh doesn't know sort after every mesh axis.
size_t positionIn(std::span<const std::string> meshOrder, std::string_view axis) {
  auto it = std::find(meshOrder.begin(), meshOrder.end(), axis);
  return static_cast<size_t>(it - meshOrder.begin());
}

bool meshLess(std::span<const std::string> meshOrder, std::string_view a, std::string_view b) {
  size_t pa = positionIn(meshOrder, a), pb = positionIn(meshOrder, b);
  return pa != pb ? pa < pb : a < b;
}

} // namespace

std::vector<std::string> VarianceSet::axes() const {
  std::vector<std::string> out;
  for (const AxisOrigin& e : m_entries)
    out.push_back(e.axis);
  return out;
}

const AxisOrigin* VarianceSet::originOf(std::string_view axis) const {
  for (const AxisOrigin& e : m_entries)
    if (e.axis == axis)
      return &e;
  return nullptr;
}

void VarianceSet::add(AxisOrigin origin, std::span<const std::string> meshOrder) {
  if (contains(origin.axis))
    return;
  auto pos = std::find_if(m_entries.begin(), m_entries.end(), [&](const AxisOrigin& e) {
    return meshLess(meshOrder, origin.axis, e.axis);
  });
  m_entries.insert(pos, std::move(origin));
}

void VarianceSet::unite(const VarianceSet& other, std::span<const std::string> meshOrder) {
  for (const AxisOrigin& e : other.m_entries)
    add(e, meshOrder);
}

void VarianceSet::remove(std::string_view axis) {
  std::erase_if(m_entries, [&](const AxisOrigin& e) { return e.axis == axis; });
}

void VarianceSet::restrictTo(std::span<const std::string> keep) {
  std::erase_if(m_entries, [&](const AxisOrigin& e) {
    return std::find(keep.begin(), keep.end(), e.axis) == keep.end();
  });
}

std::vector<std::string> VarianceSet::missing(const VarianceSet& other) const {
  std::vector<std::string> out;
  for (const AxisOrigin& e : other.m_entries)
    if (!contains(e.axis))
      out.push_back(e.axis);
  return out;
}

std::string VarianceSet::str() const {
  return sharding::jaxVaryingUnreducedSuffix(axes(), {});
}

std::string quotedAxes(std::span<const std::string> axes) {
  std::string out;
  for (size_t i = 0; i < axes.size(); ++i)
    out += (i ? ", '" : "'") + axes[i] + "'";
  return out;
}

std::vector<std::string> sortedByMesh(std::vector<std::string> axes,
                                      std::span<const std::string> meshOrder) {
  std::sort(axes.begin(), axes.end(),
            [&](const std::string& a, const std::string& b) { return meshLess(meshOrder, a, b); });
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

} // namespace shardscope::analysis
