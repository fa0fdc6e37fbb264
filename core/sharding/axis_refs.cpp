#include "core/sharding/axis_refs.h"

#include "core/ir/attribute.h"

#include <algorithm>

namespace shardscope::sharding {

using ir::AxisRef;

namespace {
// Next pre-size of a sub-axis; full axes are handled by the callers.
int64_t subNext(const AxisRef& a) { return a.subAxis->preSize * a.subAxis->size; }
} // namespace

bool axisContains(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name)
    return false;
  if (!a.subAxis)
    return true;
  if (!b.subAxis)
    return false;
  return a.subAxis->preSize <= b.subAxis->preSize && subNext(a) >= subNext(b);
}

bool axisOverlaps(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name)
    return false;
  if (!a.subAxis || !b.subAxis)
    return true;
  return a.subAxis->preSize < subNext(b) && b.subAxis->preSize < subNext(a);
}

bool axisPrefixOf(const AxisRef& a, const AxisRef& b) {
  return axisContains(b, a) && MeshView::preSizeOf(a) == MeshView::preSizeOf(b);
}

bool axisSuffixOf(const AxisRef& a, const AxisRef& b, const MeshView& mesh) {
  return axisContains(b, a) && mesh.nextPreSizeOf(a) == mesh.nextPreSizeOf(b);
}

bool axisCanMerge(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name || !a.subAxis || !b.subAxis)
    return false;
  return subNext(a) == b.subAxis->preSize;
}

AxisRef axisMerge(const AxisRef& a, const AxisRef& b, const MeshView& mesh) {
  int64_t preSize = a.subAxis->preSize;
  int64_t size = a.subAxis->size * b.subAxis->size;
  if (preSize == 1 && mesh.axisSize(a.name) == size)
    return AxisRef{a.name, std::nullopt};
  return AxisRef{a.name, ir::SubAxisInfo{preSize, size}};
}

bool axisCanCoexist(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name || !a.subAxis || !b.subAxis)
    return true;
  // The initializer-list form returns values: the two-argument form would return references to
  // the temporaries `subNext` returns, dead by the next line (garbage, then a division by zero,
  // in an optimised build).
  auto [minPre, maxPre] = std::minmax({a.subAxis->preSize, b.subAxis->preSize});
  auto [minNext, maxNext] = std::minmax({subNext(a), subNext(b)});
  if (minNext > maxPre) // overlapping: the shared part and both ends must be sub-axes
    return minNext % maxPre == 0 && maxPre % minPre == 0 && maxNext % minNext == 0;
  return maxPre % minNext == 0; // disjoint: the gap between them must be a sub-axis
}

std::optional<AxisRef> axisPrefixWithoutOverlap(const AxisRef& a, const AxisRef& b) {
  if (!axisCanCoexist(a, b))
    return std::nullopt;
  if (!axisOverlaps(a, b))
    return a;
  int64_t aPre = MeshView::preSizeOf(a);
  int64_t bPre = MeshView::preSizeOf(b);
  if (aPre >= bPre)
    return std::nullopt;
  return AxisRef{a.name, ir::SubAxisInfo{aPre, bPre / aPre}};
}

void appendAxisOrMerge(std::vector<AxisRef>& axes, const AxisRef& axis, const MeshView& mesh) {
  if (!axes.empty() && axisCanMerge(axes.back(), axis)) {
    axes.back() = axisMerge(axes.back(), axis, mesh);
    return;
  }
  axes.push_back(axis);
}

bool axisMeshLess(const MeshView& mesh, const AxisRef& a, const AxisRef& b) {
  if (a.name == b.name) {
    if (!a.subAxis)
      return false;
    if (!b.subAxis)
      return true;
    return std::pair(a.subAxis->preSize, a.subAxis->size) <
           std::pair(b.subAxis->preSize, b.subAxis->size);
  }
  std::optional<size_t> ai = mesh.axisIndex(a.name);
  std::optional<size_t> bi = mesh.axisIndex(b.name);
  if (ai && bi)
    return *ai < *bi;
  if (ai != bi)
    return ai.has_value(); // known axes before unknown ones
  return a.name < b.name;
}

bool isMeshSorted(const MeshView& mesh, std::span<const AxisRef> axes) {
  return std::is_sorted(axes.begin(), axes.end(), [&](const AxisRef& a, const AxisRef& b) {
    return axisMeshLess(mesh, a, b);
  });
}

std::vector<AxisRef> sortAndMerge(std::vector<AxisRef> axes, const MeshView& mesh) {
  std::stable_sort(axes.begin(), axes.end(),
                   [&](const AxisRef& a, const AxisRef& b) { return axisMeshLess(mesh, a, b); });
  std::vector<AxisRef> merged;
  for (const AxisRef& axis : axes)
    appendAxisOrMerge(merged, axis, mesh);
  return merged;
}

std::string axisRefString(const AxisRef& axis) {
  std::string out;
  ir::printAxisRef(axis, out);
  return out;
}

std::string axisRefListString(std::span<const AxisRef> axes) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i)
      out += ", ";
    ir::printAxisRef(axes[i], out);
  }
  out += ']';
  return out;
}

namespace {

// The log-interval [pre, next) an axis ref covers; a full axis covers [1, size).
std::pair<int64_t, int64_t> intervalOf(const AxisRef& axis, const MeshView& mesh) {
  if (axis.subAxis)
    return {axis.subAxis->preSize, subNext(axis)};
  return {1, mesh.hasAxis(axis.name) ? mesh.axisSize(axis.name) : INT64_MAX};
}

AxisRef axisOfInterval(const std::string& name, int64_t pre, int64_t next, const MeshView& mesh) {
  if (pre == 1 && mesh.hasAxis(name) && next == mesh.axisSize(name))
    return AxisRef{name, std::nullopt};
  return AxisRef{name, ir::SubAxisInfo{pre, next / pre}};
}

} // namespace

std::vector<AxisRef> axisRefSetDiff(const std::vector<AxisRef>& a, const std::vector<AxisRef>& b,
                                 const MeshView& mesh) {
  if (a.empty() || a == b)
    return {};
  if (b.empty())
    return a;
  std::vector<AxisRef> result;
  for (const AxisRef& axis : a) {
    std::vector<std::pair<int64_t, int64_t>> cuts;
    for (const AxisRef& other : b)
      if (axisOverlaps(axis, other))
        cuts.push_back(intervalOf(other, mesh));
    std::sort(cuts.begin(), cuts.end());
    auto [pre, next] = intervalOf(axis, mesh);
    for (const auto& [cutPre, cutNext] : cuts) {
      if (pre < cutPre)
        result.push_back(axisOfInterval(axis.name, pre, std::min(cutPre, next), mesh));
      pre = std::max(pre, cutNext);
      if (pre >= next)
        break;
    }
    if (pre < next)
      result.push_back(axisOfInterval(axis.name, pre, next, mesh));
  }
  return result;
}

} // namespace shardscope::sharding
