#include "core/propagation/propagate_aggressive.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string_view>
#include <tuple>
#include <unordered_set>

namespace shardscope::propagation {

using ir::AxisRef;

namespace {

// StableHLO ops with the `Elementwise` or `BroadcastingElementwise` trait.
constexpr std::string_view kElementwiseOps[] = {
    "stablehlo.abs",          "stablehlo.add",
    "stablehlo.and",          "stablehlo.atan2",
    "stablehlo.cbrt",         "stablehlo.ceil",
    "stablehlo.clamp",        "stablehlo.count_leading_zeros",
    "stablehlo.compare",      "stablehlo.complex",
    "stablehlo.convert",      "stablehlo.cosine",
    "stablehlo.divide",       "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor",
    "stablehlo.imag",         "stablehlo.is_finite",
    "stablehlo.log",          "stablehlo.log_plus_one",
    "stablehlo.logistic",                     
    "stablehlo.maximum",      "stablehlo.minimum",
    "stablehlo.multiply",     "stablehlo.negate",
    "stablehlo.not",          "stablehlo.or",
    "stablehlo.popcnt",       "stablehlo.power",
    "stablehlo.real",         "stablehlo.reduce_precision",
    "stablehlo.remainder",    "stablehlo.round_nearest_afz",
    "stablehlo.round_nearest_even", "stablehlo.rsqrt",
    "stablehlo.select",       "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
    "stablehlo.sign",         "stablehlo.sine",
    "stablehlo.sqrt",         "stablehlo.subtract",
    "stablehlo.tan",          "stablehlo.tanh",
    "stablehlo.uniform_dequantize", "stablehlo.uniform_quantize",
    "stablehlo.xor",
    // Shardy's own ops, treated as element-wise by the propagation schedule.
    "sdy.propagation_barrier", "sdy.sharding_constraint",
    "sdy.reshard",
};

// A cheap hash of an op name: its length and its last characters (enough to tell the names of
// the list apart; equal names are still compared in full).
struct OpNameHash {
  size_t operator()(std::string_view name) const {
    size_t hash = name.size();
    for (size_t i = name.size() > 4 ? name.size() - 4 : 0; i < name.size(); ++i)
      hash = hash * 131 + static_cast<unsigned char>(name[i]);
    return hash;
  }
};

struct SourceTensor {
  int64_t index = -1;
  int64_t size = -1;
};

// For each factor with candidate axes, the largest tensor whose factor axes extend the candidate
// (the tensor the axes come from); ties go to the first tensor.
std::vector<SourceTensor> sourceTensors(const ShardingProjection& projection,
                                        std::span<const int64_t> factorSizes,
                                        const std::vector<std::vector<AxisRef>>& candidates) {
  std::vector<SourceTensor> sources(factorSizes.size());
  for (size_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    // The tensor's size by its factors, saturated: a rule may give factor sizes that do not
    // multiply to the tensor's (Shardy does not check them), even ones near the int64 limits.
    int64_t size = 1;
    for (size_t f = 0; f < tensor.factors.size(); ++f)
      if (tensor.factors[f] && factorSizes[f] > 0 &&
          __builtin_mul_overflow(size, factorSizes[f], &size))
        size = std::numeric_limits<int64_t>::max();
    for (size_t f = 0; f < tensor.factors.size(); ++f) {
      if (!tensor.factors[f] || candidates[f].empty() ||
          !isAxisListPrefix(candidates[f], tensor.factors[f]->axes))
        continue;
      if (size > sources[f].size)
        sources[f] = {static_cast<int64_t>(t), size};
    }
  }
  return sources;
}

// Element-wise ops don't propagate sideways to an operand beyond what a result holds: an operand
// sharded further than the result would only be all-gathered again.
void cancelSidewaysForElementwise(const ShardingProjection& projection, int64_t factor,
                                  std::vector<AxisRef>& axes, bool elementwise) {
  if (!elementwise)
    return;
  for (const TensorFactorShardings& result : projection.results())
    if (const FactorSharding* fs = result.find(factor);
        fs && isStrictAxisListPrefix(fs->axes, axes))
      axes = fs->axes;
}

Direction directionOf(const FactorPropagationInput& input, size_t factor) {
  return input.direction ? input.direction(static_cast<int64_t>(factor)) : Direction::Both;
}

// The order factors claim axes in: larger source tensors first, then (for element-wise ops) the
// more sharded candidates, then the smaller source index and factor index.
std::vector<size_t> factorOrder(const ShardingProjection& projection,
                                const FactorPropagationInput& input,
                                const std::vector<std::vector<AxisRef>>& candidates,
                                bool elementwise) {
  size_t numFactors = input.factorSizes.size();
  std::vector<SourceTensor> sources = sourceTensors(projection, input.factorSizes, candidates);
  std::vector<int64_t> shardedSize(numFactors, 0);
  for (size_t f = 0; f < numFactors && elementwise; ++f) {
    shardedSize[f] = 1;
    for (const AxisRef& axis : candidates[f])
      shardedSize[f] *= input.mesh ? input.mesh->sizeOf(axis) : 1;
  }
  std::vector<size_t> order(numFactors);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tuple(-sources[a].size, -shardedSize[a], sources[a].index, a) <
           std::tuple(-sources[b].size, -shardedSize[b], sources[b].index, b);
  });
  return order;
}

} // namespace

bool isElementwise(const ir::Operation& op) {
  if (op.is("stablehlo.bitcast_convert"))
    return op.numOperands() == 1 && op.numResults() == 1 &&
           op.operand(0)->type().isTensor() && op.result(0)->type().isTensor() &&
           std::ranges::equal(op.operand(0)->type().shape(), op.result(0)->type().shape());
  // Hot (the op-priority schedule asks for every op of every round): a hash lookup rather than a
  // scan of the list, with a hash that skips the dialect prefix all names share.
  static const std::unordered_set<std::string_view, OpNameHash> kSet(std::begin(kElementwiseOps),
                                                                     std::end(kElementwiseOps));
  return kSet.contains(op.name());
}

std::vector<AxisRef> AggressiveFactorPropagation::propagatedAxes(
    const TensorFactorShardings& tensor, int64_t factor, std::vector<AxisRef> candidates,
    const FactorPropagationInput& input) const {
  const FactorSharding* fs = tensor.find(factor);
  // Removing conflicts only shortens the candidates (or shrinks the last one to a prefix
  // sub-axis): when the tensor's axes aren't a strict prefix of them, they won't be of what
  // remains. Checked first because it's the common case, and cheap.
  if (!fs || !isStrictAxisListPrefix(fs->axes, candidates))
    return {};
  int64_t factorSize = input.factorSizes[factor];
  truncateAxes(
      candidates,
      [&](const AxisRef& axis, int64_t prevShardedSize) {
        return noConflictsWithinFactor(axis, tensor, *fs, prevShardedSize, factorSize, input.mesh);
      },
      input.mesh, input.conservative);
  if (!isStrictAxisListPrefix(fs->axes, candidates))
    return {};
  // Conflicts with the tensor's other factors, as already updated for earlier factors.
  truncateAxes(
      candidates,
      [&](const AxisRef& axis, int64_t) {
        return noConflictsAcrossFactors(axis, tensor, factor, {});
      },
      input.mesh, input.conservative);
  return candidates;
}

std::vector<std::vector<AxisRef>>
AggressiveFactorPropagation::candidateAxes(const ShardingProjection& projection,
                                           const FactorPropagationInput& input) const {
  std::vector<std::vector<AxisRef>> candidates;
  for (size_t f = 0; f < input.factorSizes.size(); ++f) {
    Direction d = directionOf(input, f);
    candidates.push_back(d == Direction::None
                             ? std::vector<AxisRef>{}
                             : compatibleMajorAxes(projection, static_cast<int64_t>(f), d));
  }
  return candidates;
}

TensorUpdates AggressiveFactorPropagation::propagate(ShardingProjection& projection,
                                                     const FactorPropagationInput& input) const {
  TensorUpdates updates(projection.numOperands(), projection.numResults());
  std::vector<std::vector<AxisRef>> candidates = candidateAxes(projection, input);
  if (std::all_of(candidates.begin(), candidates.end(), [](const auto& c) { return c.empty(); }))
    return updates;
  size_t numOperands = projection.numOperands();
  bool elementwise = input.op && isElementwise(*input.op);
  for (size_t f : factorOrder(projection, input, candidates, elementwise)) {
    if (candidates[f].empty())
      continue; // no tensor can take anything
    Direction d = directionOf(input, f);
    auto factor = static_cast<int64_t>(f);
    // Backward propagation doesn't move axes sideways between results, nor forward between
    // operands.
    for (size_t r = 0; d != Direction::Backward && r < projection.numResults(); ++r) {
      TensorFactorShardings& tensor = projection.tensor(numOperands + r);
      std::vector<AxisRef> axes = propagatedAxes(tensor, factor, candidates[f], input);
      if (!axes.empty() && tensor.expandAxes(factor, axes))
        updates.results[r] = true;
    }
    for (size_t o = 0; d != Direction::Forward && o < numOperands; ++o) {
      TensorFactorShardings& tensor = projection.tensor(o);
      std::vector<AxisRef> axes = propagatedAxes(tensor, factor, candidates[f], input);
      if (axes.empty())
        continue;
      cancelSidewaysForElementwise(projection, factor, axes, elementwise);
      if (tensor.expandAxes(factor, axes))
        updates.operands[o] = true;
    }
  }
  return updates;
}

} // namespace shardscope::propagation
