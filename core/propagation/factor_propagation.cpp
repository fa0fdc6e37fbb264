#include "core/propagation/factor_propagation.h"

#include "core/sharding/axis_refs.h"

#include <algorithm>
#include <numeric>

namespace shardscope::propagation {

using ir::AxisRef;

Direction parseDirection(std::string_view text) {
  if (text == "FORWARD")
    return Direction::Forward;
  if (text == "BACKWARD")
    return Direction::Backward;
  if (text == "BOTH")
    return Direction::Both;
  return Direction::None;
}

namespace {

// The largest prefix of `axis` overlapping none of `others`.
std::optional<AxisRef> prefixWithoutOverlap(AxisRef axis, std::span<const AxisRef> others) {
  for (const AxisRef& other : others) {
    std::optional<AxisRef> prefix = sharding::axisPrefixWithoutOverlap(axis, other);
    if (!prefix)
      return std::nullopt;
    axis = *prefix;
  }
  return axis;
}

} // namespace

std::optional<AxisRef> noConflictsAcrossFactors(AxisRef axis, const TensorFactorShardings& tensor,
                                                int64_t factor,
                                                std::span<const std::vector<AxisRef>> newAxes) {
  for (size_t other = 0; other < tensor.factors.size(); ++other) {
    const std::optional<FactorSharding>& fs = tensor.factors[other];
    if (!fs || static_cast<int64_t>(other) == factor)
      continue;
    std::optional<AxisRef> prefix = prefixWithoutOverlap(axis, fs->overflowAxes);
    if (prefix)
      prefix = prefixWithoutOverlap(*prefix, fs->axes);
    if (prefix && !newAxes.empty())
      prefix = prefixWithoutOverlap(*prefix, newAxes[other]);
    if (!prefix)
      return std::nullopt;
    axis = *prefix;
  }
  return axis;
}

std::optional<AxisRef> noConflictsWithinFactor(AxisRef axis, const TensorFactorShardings& tensor,
                                               const FactorSharding& fs, int64_t prevShardedSize,
                                               int64_t factorSize, const sharding::MeshView* mesh) {
  std::optional<AxisRef> result = prefixWithoutOverlap(axis, tensor.replicatedAxes);
  if (result)
    result = prefixWithoutOverlap(*result, tensor.unreducedAxes);
  if (!result)
    return std::nullopt;
  for (const AxisRef& held : fs.axes)
    if (sharding::axisContains(held, *result))
      return result;
  if (!fs.isClosed && fs.overflowAxes.empty()) {
    if (fs.isMinorMost || !mesh)
      return result;
    if (prevShardedSize > 0 && factorSize % prevShardedSize == 0) {
      int64_t axisSize = mesh->sizeOf(*result);
      int64_t gcd = std::gcd(factorSize / prevShardedSize, axisSize);
      if (gcd == axisSize)
        return result;
      if (gcd != 1)
        return AxisRef{result->name, ir::SubAxisInfo{sharding::MeshView::preSizeOf(*result), gcd}};
    }
  }
  if (!fs.axes.empty() && sharding::axisPrefixOf(fs.axes.back(), *result))
    return fs.axes.back();
  return std::nullopt;
}

namespace {

std::optional<AxisRef> compatiblePrefixForTensor(const AxisRef& axis,
                                                 const TensorFactorShardings& tensor,
                                                 int64_t factor, int64_t prevShardedSize,
                                                 int64_t factorSize, const sharding::MeshView* mesh,
                                                 std::span<const std::vector<AxisRef>> newAxes) {
  std::optional<AxisRef> result = noConflictsAcrossFactors(axis, tensor, factor, newAxes);
  if (!result)
    return std::nullopt;
  const FactorSharding* fs = tensor.find(factor);
  // A tensor without the factor only conflicts through its other factors; its replicated axes
  // don't matter since the factor doesn't shard it.
  if (!fs)
    return result;
  return noConflictsWithinFactor(*result, tensor, *fs, prevShardedSize, factorSize, mesh);
}

struct Compatible {
  std::vector<AxisRef> axes;
  bool canExpand = true;
};

// Merges the factor axes `next` of one more tensor into the running compatible list: the common
// major axes, extended by the longer list when there is no conflict and expansion is allowed.
Compatible mergeCompatible(std::span<const AxisRef> old, std::span<const AxisRef> next,
                           bool canExpand) {
  Compatible out;
  size_t i = 0;
  for (; i < old.size() && i < next.size(); ++i) {
    const AxisRef& o = old[i];
    const AxisRef& n = next[i];
    if (n.name != o.name)
      return {out.axes, false};
    if (n.subAxis == o.subAxis) {
      out.axes.push_back(n);
      continue;
    }
    if (sharding::axisPrefixOf(n, o)) {
      // A following axis in `next` would conflict with the rest of `o`.
      if (i + 1 < next.size()) {
        out.axes.push_back(n);
        return {out.axes, false};
      }
      out.axes.push_back(o);
    } else if (sharding::axisPrefixOf(o, n)) {
      if (!canExpand || i + 1 < old.size()) {
        out.axes.push_back(o);
        return {out.axes, false};
      }
      out.axes.push_back(n);
    } else {
      return {out.axes, false};
    }
  }
  out.axes.insert(out.axes.end(), old.begin() + static_cast<std::ptrdiff_t>(i), old.end());
  if (canExpand && i < next.size())
    out.axes.insert(out.axes.end(), next.begin() + static_cast<std::ptrdiff_t>(i), next.end());
  out.canExpand = canExpand;
  return out;
}

} // namespace

std::vector<AxisRef> BasicFactorPropagation::compatibleMajorAxes(
    const ShardingProjection& projection, int64_t factor, Direction direction) const {
  // Forward: operands may expand the axes, results only restrict them; backward the opposite.
  const auto& first = direction == Direction::Backward ? projection.results() : projection.operands();
  const auto& second =
      direction == Direction::Backward ? projection.operands() : projection.results();
  Compatible running;
  auto visit = [&](const std::vector<TensorFactorShardings>& tensors) {
    for (const TensorFactorShardings& tensor : tensors)
      if (const FactorSharding* fs = tensor.find(factor))
        running = mergeCompatible(running.axes, fs->axes, running.canExpand);
  };
  visit(first);
  if (direction != Direction::Both)
    running.canExpand = false;
  visit(second);
  return running.axes;
}

std::optional<AxisRef> BasicFactorPropagation::compatiblePrefix(
    const AxisRef& axis, const ShardingProjection& projection, int64_t factor,
    int64_t prevShardedSize, int64_t factorSize, const sharding::MeshView* mesh,
    std::span<const std::vector<AxisRef>> newAxesPerFactor) const {
  std::optional<AxisRef> result = axis;
  for (size_t t = 0; t < projection.numTensors() && result; ++t)
    result = compatiblePrefixForTensor(*result, projection.tensor(t), factor, prevShardedSize,
                                       factorSize, mesh, newAxesPerFactor);
  return result;
}

void BasicFactorPropagation::truncateByRemovingConflicts(
    std::vector<AxisRef>& axes,
    const std::function<std::optional<AxisRef>(const AxisRef&, int64_t)>& removeConflicts,
    const sharding::MeshView* mesh, bool conservative) const {
  truncateAxes(axes, removeConflicts, mesh, conservative);
}

std::vector<AxisRef> BasicFactorPropagation::compatibleMajorShardingAxes(
    const ShardingProjection& projection, int64_t factor, Direction direction,
    const FactorPropagationInput& input) const {
  if (direction == Direction::None)
    return {};
  std::vector<AxisRef> axes = compatibleMajorAxes(projection, factor, direction);
  int64_t factorSize = input.factorSizes[factor];
  truncateAxes(
      axes,
      [&](const AxisRef& axis, int64_t prevShardedSize) {
        return compatiblePrefix(axis, projection, factor, prevShardedSize, factorSize,
                                input.mesh);
      },
      input.mesh, input.conservative);
  return axes;
}

TensorUpdates BasicFactorPropagation::propagate(ShardingProjection& projection,
                                                const FactorPropagationInput& input) const {
  TensorUpdates updates(projection.numOperands(), projection.numResults());
  // Factors are propagated one at a time; later factors see the expansions of earlier ones.
  for (size_t factor = 0; factor < input.factorSizes.size(); ++factor) {
    Direction direction = input.direction ? input.direction(static_cast<int64_t>(factor))
                                          : Direction::Both;
    std::vector<AxisRef> axes =
        compatibleMajorShardingAxes(projection, static_cast<int64_t>(factor), direction, input);
    updates |= projection.expandSharding(static_cast<int64_t>(factor), axes);
  }
  return updates;
}

} // namespace shardscope::propagation
