#include "core/partition/explicit_reshards_reshape.h"

#include "core/sharding/axis_refs.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace shardscope::partition {
namespace {

using ir::AxisRef;
using propagation::TensorFactorShardings;
using sharding::MeshView;
using Axes = std::vector<AxisRef>;

AxisRef subAxis(const std::string& name, int64_t preSize, int64_t size, const MeshView& mesh) {
  if (preSize == 1 && size == mesh.axisSize(name))
    return AxisRef{name, std::nullopt};
  return AxisRef{name, ir::SubAxisInfo{preSize, size}};
}

int64_t shardingSize(const TensorFactorShardings& tensor, const MeshView& mesh) {
  int64_t size = 1;
  for (const auto& fs : tensor.factors)
    if (fs)
      for (const AxisRef& a : fs->axes)
        size *= mesh.sizeOf(a);
  return size;
}

// The factors of `mapping` in dimension order.
std::vector<int64_t> flatFactors(const ir::TensorMapping& mapping) {
  std::vector<int64_t> factors;
  for (const std::vector<int64_t>& dim : mapping.dims)
    factors.insert(factors.end(), dim.begin(), dim.end());
  return factors;
}

// Gives `axes` to `factors` axis by axis: each axis goes, split by the gcd with the room left,
// to the first factors with room for part of it; what no factor can take goes to the last one.
TensorFactorShardings distribute(TensorFactorShardings tensor, const std::vector<int64_t>& factors,
                                 const ir::OpShardingRule& rule, const Axes& axes,
                                 const MeshView& mesh) {
  std::vector<int64_t> room;
  for (int64_t f : factors) {
    room.push_back(rule.factorSizes[static_cast<size_t>(f)]);
    // The projection leaves out the factors minor to an overflowing one.
    auto& slot = tensor.factors[static_cast<size_t>(f)];
    if (!slot)
      slot.emplace();
    slot->axes.clear();
    slot->overflowAxes.clear();
  }
  for (const AxisRef& axis : axes) {
    int64_t pre = MeshView::preSizeOf(axis);
    int64_t size = mesh.sizeOf(axis);
    for (size_t i = 0; i < factors.size() && size > 1; ++i) {
      const int64_t g = std::gcd(room[i], size);
      if (g <= 1)
        continue;
      sharding::appendAxisOrMerge(tensor.find(factors[i])->axes, subAxis(axis.name, pre, g, mesh),
                                  mesh);
      room[i] /= g;
      pre *= g;
      size /= g;
    }
    if (size > 1 && !factors.empty())
      sharding::appendAxisOrMerge(tensor.find(factors.back())->axes,
                                  subAxis(axis.name, pre, size, mesh), mesh);
  }
  return tensor;
}

// The longest common prefix of two axis lists (the last axis may be a common prefix sub-axis).
Axes greatestCommonPrefix(const Axes& a, const Axes& b) {
  Axes out;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) {
      out.push_back(a[i]);
      continue;
    }
    if (sharding::axisPrefixOf(a[i], b[i]))
      out.push_back(a[i]);
    else if (sharding::axisPrefixOf(b[i], a[i]))
      out.push_back(b[i]);
    break;
  }
  return out;
}

} // namespace

std::pair<ir::TensorSharding, ir::TensorSharding>
alignReshapeWithOverflowAxes(const propagation::ShardingProjection& projection,
                             const ir::OpShardingRule& rule, const std::string& meshName,
                             const MeshView& mesh) {
  const TensorFactorShardings& in = projection.tensor(0);
  const TensorFactorShardings& out = projection.tensor(1);
  const TensorFactorShardings& preferred =
      shardingSize(in, mesh) >= shardingSize(out, mesh) ? in : out;
  Axes all;
  for (const auto& fs : preferred.factors)
    if (fs) {
      all.insert(all.end(), fs->axes.begin(), fs->axes.end());
      all.insert(all.end(), fs->overflowAxes.begin(), fs->overflowAxes.end());
    }
  const ir::TensorMapping& inMapping = rule.operands[0];
  const ir::TensorMapping& outMapping = rule.results[0];
  ir::TensorSharding inBuilt =
      distribute(in, flatFactors(inMapping), rule, all, mesh)
          .toTensorSharding(inMapping, rule.factorSizes, meshName, nullptr, mesh);
  ir::TensorSharding outBuilt =
      distribute(out, flatFactors(outMapping), rule, all, mesh)
          .toTensorSharding(outMapping, rule.factorSizes, meshName, nullptr, mesh);
  // Keep, per factor, what the two rebuilt sides agree on.
  TensorFactorShardings inLegal =
      propagation::projectTensor(inMapping, &inBuilt, rule.factorSizes, mesh, false);
  TensorFactorShardings outLegal =
      propagation::projectTensor(outMapping, &outBuilt, rule.factorSizes, mesh, false);
  TensorFactorShardings inFinal = in;
  TensorFactorShardings outFinal = out;
  for (size_t f = 0; f < rule.factorSizes.size(); ++f) {
    const auto* a = inLegal.find(static_cast<int64_t>(f));
    const auto* b = outLegal.find(static_cast<int64_t>(f));
    Axes common = a && b ? greatestCommonPrefix(a->axes, b->axes)
                  : a    ? a->axes
                  : b    ? b->axes
                         : Axes{};
    for (auto [t, mapping] : {std::pair{&inFinal, &inMapping}, std::pair{&outFinal, &outMapping}}) {
      const std::vector<int64_t> factors = flatFactors(*mapping);
      if (std::find(factors.begin(), factors.end(), static_cast<int64_t>(f)) == factors.end())
        continue;
      auto& slot = t->factors[f];
      if (!slot)
        slot.emplace();
      slot->axes = common;
      slot->overflowAxes.clear();
    }
  }
  return {inFinal.toTensorSharding(inMapping, rule.factorSizes, meshName, nullptr, mesh),
          outFinal.toTensorSharding(outMapping, rule.factorSizes, meshName, nullptr, mesh)};
}

} // namespace shardscope::partition
