// Shardy's rule for how an op may change the unreduced axes between its operands and results
// (`verifyUnreducedAxesTransition` in shardy/dialect/sdy/ir/utils.cc).
#include "core/sharding/axis_refs.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>

namespace shardscope::sharding::detail {

using ir::AxisRef;

namespace {

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
  // Without a mesh no sharding has axes.
  static const ir::Mesh kNoMesh;
  MeshView view(mesh ? *mesh : kNoMesh);
  std::vector<AxisRef> introduced = axisRefSetDiff(resultAxes, operandAxes, view);
  std::vector<AxisRef> removed = axisRefSetDiff(operandAxes, resultAxes, view);

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
