// Shardy's rule for how an op may change the unreduced axes between its operands and results
// (`verifyUnreducedAxesTransition` in shardy/dialect/sdy/ir/utils.cc).
#include "core/sharding/axis_refs.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>

namespace shardscope::sharding::detail {

using ir::AxisRef;

namespace {

// The log-interval [pre, next) of axis `axis` covers; a full axis covers [1, size).
struct AxisInterval {
  int64_t pre = 1;
  int64_t next = 1;
};

AxisInterval intervalOf(const AxisRef& axis, const MeshView* mesh) {
  if (axis.subAxis)
    return {axis.subAxis->preSize, axis.subAxis->preSize * axis.subAxis->size};
  return {1, mesh && mesh->hasAxis(axis.name) ? mesh->axisSize(axis.name) : INT64_MAX};
}

AxisRef axisOfInterval(const std::string& name, AxisInterval interval, const MeshView* mesh) {
  if (interval.pre == 1 && mesh && mesh->hasAxis(name) && interval.next == mesh->axisSize(name))
    return AxisRef{name, std::nullopt};
  return AxisRef{name, ir::SubAxisInfo{interval.pre, interval.next / interval.pre}};
}

// The parts of the axes in `a` that no axis in `b` covers (Shardy's `getAxisSetDiff`).
std::vector<AxisRef> axisSetDiff(const std::vector<AxisRef>& a, const std::vector<AxisRef>& b,
                                 const MeshView* mesh) {
  if (a.empty() || a == b)
    return {};
  if (b.empty())
    return a;
  std::vector<AxisRef> result;
  for (const AxisRef& axis : a) {
    std::vector<AxisInterval> cuts;
    for (const AxisRef& other : b)
      if (other.name == axis.name && axisOverlaps(axis, other))
        cuts.push_back(intervalOf(other, mesh));
    std::sort(cuts.begin(), cuts.end(),
              [](const AxisInterval& x, const AxisInterval& y) { return x.pre < y.pre; });
    AxisInterval rest = intervalOf(axis, mesh);
    for (const AxisInterval& cut : cuts) {
      if (rest.pre < cut.pre)
        result.push_back(axisOfInterval(axis.name, {rest.pre, std::min(cut.pre, rest.next)}, mesh));
      rest.pre = std::max(rest.pre, cut.next);
      if (rest.pre >= rest.next)
        break;
    }
    if (rest.pre < rest.next)
      result.push_back(axisOfInterval(axis.name, rest, mesh));
  }
  return result;
}

std::vector<AxisRef> flatUnreduced(std::span<const ir::TensorSharding* const> shardings) {
  std::vector<AxisRef> axes;
  for (const ir::TensorSharding* sharding : shardings)
    if (sharding)
      axes.insert(axes.end(), sharding->unreducedAxes.begin(), sharding->unreducedAxes.end());
  return axes;
}

bool overlapsAny(const std::vector<AxisRef>& axes, const std::vector<AxisRef>& others) {
  return std::any_of(axes.begin(), axes.end(), [&](const AxisRef& axis) {
    return std::any_of(others.begin(), others.end(),
                       [&](const AxisRef& other) { return axisOverlaps(axis, other); });
  });
}

} // namespace

bool verifyUnreducedAxesTransition(const VerifyContext& ctx, const ErrorEmitter& emit,
                                   const UnreducedTransition& transition) {
  std::vector<AxisRef> operandAxes = flatUnreduced(transition.operands);
  std::vector<AxisRef> resultAxes = flatUnreduced(transition.results);

  // Shardy skips the check when the shardings don't agree on one mesh.
  const ir::Mesh* mesh = nullptr;
  for (auto list : {transition.operands, transition.results})
    for (const ir::TensorSharding* sharding : list) {
      const ir::Mesh* current = sharding ? ctx.meshOf(*sharding) : nullptr;
      if (!current)
        continue;
      if (!mesh)
        mesh = current;
      else if (!(*mesh == *current))
        return true;
    }
  std::optional<MeshView> view;
  if (mesh)
    view.emplace(*mesh);
  const MeshView* meshView = view ? &*view : nullptr;

  std::vector<AxisRef> introduced = axisSetDiff(resultAxes, operandAxes, meshView);
  std::vector<AxisRef> removed = axisSetDiff(operandAxes, resultAxes, meshView);

  auto verifyKind = [&](std::span<const ir::TensorSharding* const> shardings,
                        const std::vector<AxisRef>& diff, const std::string& expected,
                        const char* verb) {
    for (const ir::TensorSharding* sharding : shardings) {
      if (!sharding || !overlapsAny(sharding->unreducedAxes, diff))
        continue;
      std::string kind = reductionKindName(*sharding);
      if (kind != expected)
        return emit(std::string("cannot ") + verb + " '" + kind + "' unreduced axes. Expected '" +
                    expected + "'.");
    }
    return true;
  };

  if (!introduced.empty()) {
    if (!transition.introducedKind)
      return emit("cannot add new unreduced axis '" + introduced.front().name + "'.");
    if (!verifyKind(transition.results, introduced, *transition.introducedKind, "introduce"))
      return false;
  }
  if (!removed.empty()) {
    if (!transition.removedKind)
      return emit("dropped unreduced axis '" + removed.front().name +
                  "' without a blessed operation (e.g., sdy.reshard). This is an invalid "
                  "transition from unreduced to reduced.");
    if (!verifyKind(transition.operands, removed, *transition.removedKind, "reduce"))
      return false;
  }
  // Axes unreduced on both sides keep their reduction operator.
  for (const ir::TensorSharding* result : transition.results) {
    if (!result)
      continue;
    std::string resultKind = reductionKindName(*result);
    for (const ir::TensorSharding* operand : transition.operands) {
      if (!operand || !overlapsAny(result->unreducedAxes, operand->unreducedAxes))
        continue;
      std::string operandKind = reductionKindName(*operand);
      if (operandKind != resultKind)
        return emit("cannot change the reduction operator of kept unreduced axes from " +
                    operandKind + " to " + resultKind + ".");
    }
  }
  return true;
}

} // namespace shardscope::sharding::detail
