#include "core/propagation/sharding_projection.h"

#include "core/sharding/axis_refs.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace shardscope::propagation {

using ir::AxisRef;
using sharding::MeshView;

const FactorSharding* TensorFactorShardings::find(int64_t factor) const {
  if (factor < 0 || static_cast<size_t>(factor) >= factors.size() || !factors[factor])
    return nullptr;
  return &*factors[factor];
}

FactorSharding* TensorFactorShardings::find(int64_t factor) {
  return const_cast<FactorSharding*>(std::as_const(*this).find(factor));
}

bool isStrictAxisListPrefix(std::span<const AxisRef> prefix, std::span<const AxisRef> axes) {
  if (prefix.empty())
    return !axes.empty();
  if (prefix.size() > axes.size())
    return false;
  size_t last = prefix.size() - 1;
  for (size_t i = 0; i < last; ++i)
    if (!(prefix[i] == axes[i]))
      return false;
  if (prefix.size() == axes.size() && prefix[last] == axes[last])
    return false; // equal, not a strict prefix
  return sharding::axisPrefixOf(prefix[last], axes[last]);
}

bool isAxisListPrefix(std::span<const AxisRef> prefix, std::span<const AxisRef> axes) {
  return std::equal(prefix.begin(), prefix.end(), axes.begin(), axes.end()) ||
         isStrictAxisListPrefix(prefix, axes);
}

bool TensorFactorShardings::expandAxes(int64_t factor, std::span<const AxisRef> newAxes) {
  FactorSharding* fs = find(factor);
  if (!fs || !isStrictAxisListPrefix(fs->axes, newAxes))
    return false;
  fs->axes.assign(newAxes.begin(), newAxes.end());
  return true;
}

namespace {

// The part of a dimension's axis list not yet given to a factor: the index of the current axis
// and, when that axis has been split already, the sub-axis that remains of it.
struct AxisCursor {
  std::span<const AxisRef> axes;
  size_t index = 0;
  int64_t size = 0;                 // size of what remains of axes[index]
  std::optional<int64_t> preSize;   // set when the remainder is a sub-axis

  AxisCursor(std::span<const AxisRef> list, const MeshView& mesh) : axes(list) { load(mesh); }
  bool valid() const { return index < axes.size(); }
  void load(const MeshView& mesh) {
    if (!valid())
      return;
    size = mesh.sizeOf(axes[index]);
    preSize = axes[index].subAxis ? std::optional(axes[index].subAxis->preSize) : std::nullopt;
  }
  AxisRef current() const {
    if (!preSize)
      return AxisRef{axes[index].name, std::nullopt};
    return AxisRef{axes[index].name, ir::SubAxisInfo{*preSize, size}};
  }
  void advance(const MeshView& mesh) {
    ++index;
    load(mesh);
  }
};

// Moves everything that remains in `cursor` to `out`, merging consecutive sub-axes.
void takeRemaining(std::vector<AxisRef>& out, AxisCursor& cursor, const MeshView& mesh) {
  for (; cursor.valid(); cursor.advance(mesh))
    sharding::appendAxisOrMerge(out, cursor.current(), mesh);
}

// Gives a non-minor-most factor of size `factorSize` the major axes (or sub-axes) that divide it;
// the rest of the dimension overflows when the next axis is coprime with what remains.
void fillMajorFactor(FactorSharding& fs, int64_t factorSize, AxisCursor& cursor,
                     const MeshView& mesh) {
  int64_t remaining = factorSize;
  int64_t gcd = 1;
  // (An axis of unknown size, which verification rules out, just overflows.)
  while (cursor.valid() && cursor.size > 0 &&
         (cursor.size == 1 || (gcd = std::gcd(remaining, cursor.size)) > 1)) {
    if (cursor.size > gcd) {
      // The axis straddles this factor and the next: split off its major part.
      int64_t pre = cursor.preSize.value_or(1);
      fs.axes.push_back(AxisRef{cursor.axes[cursor.index].name, ir::SubAxisInfo{pre, gcd}});
      cursor.preSize = pre * gcd;
      cursor.size /= gcd;
      remaining /= gcd;
    } else {
      fs.axes.push_back(cursor.current());
      remaining /= cursor.size;
      cursor.advance(mesh);
    }
  }
  if (remaining > 1 && cursor.valid())
    takeRemaining(fs.overflowAxes, cursor, mesh);
}

} // namespace

TensorFactorShardings projectTensor(const ir::TensorMapping& mapping,
                                    const ir::TensorSharding* sharding,
                                    std::span<const int64_t> factorSizes, const MeshView& mesh,
                                    bool closedIfMissing) {
  TensorFactorShardings result;
  result.factors.resize(factorSizes.size());
  for (size_t dim = 0; dim < mapping.dims.size(); ++dim) {
    std::span<const AxisRef> axes;
    bool closed = closedIfMissing;
    if (sharding && dim < sharding->dims.size()) {
      axes = sharding->dims[dim].axes;
      closed = sharding->dims[dim].isClosed;
    }
    AxisCursor cursor(axes, mesh);
    bool overflowed = false;
    const std::vector<int64_t>& dimFactors = mapping.dims[dim];
    for (int64_t factor : dimFactors) {
      FactorSharding& fs = result.factors[factor].emplace();
      fs.isMinorMost = factor == dimFactors.back();
      if (overflowed) {
        // Nothing may shard a factor minor to an overflow (Shardy only closes the next one).
        fs.isClosed = true;
        break;
      }
      fs.isClosed = closed;
      if (fs.isMinorMost) {
        takeRemaining(fs.axes, cursor, mesh); // the minor-most factor may be padded
        break;
      }
      fillMajorFactor(fs, factorSizes[factor], cursor, mesh);
      overflowed = !fs.overflowAxes.empty();
    }
  }
  if (sharding) {
    result.replicatedAxes = sharding->replicatedAxes;
    result.unreducedAxes = sharding->unreducedAxes;
    result.unreducedKind = sharding->unreducedKind;
  }
  return result;
}

namespace {

// Appends `axes` to a dimension's axis list, merging the first into the last one when they are
// consecutive sub-axes (the boundary between two factors). Returns the product of their sizes.
int64_t appendFactorAxes(std::vector<AxisRef>& dimAxes, std::span<const AxisRef> axes,
                         const MeshView& mesh) {
  int64_t total = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    total *= mesh.sizeOf(axes[i]);
    if (i == 0)
      sharding::appendAxisOrMerge(dimAxes, axes[i], mesh);
    else
      dimAxes.push_back(axes[i]);
  }
  return total;
}

} // namespace

ir::TensorSharding TensorFactorShardings::toTensorSharding(
    const ir::TensorMapping& mapping, std::span<const int64_t> factorSizes,
    const std::string& meshName, const std::shared_ptr<const ir::Mesh>& inlineMesh,
    const MeshView& mesh) const {
  ir::TensorSharding out;
  out.meshName = meshName;
  out.inlineMesh = inlineMesh;
  for (const std::vector<int64_t>& dimFactors : mapping.dims) {
    ir::DimensionSharding dim;
    dim.isClosed = false;
    for (int64_t factor : dimFactors) {
      const FactorSharding* fs = find(factor);
      if (!fs)
        break;
      dim.isClosed = dim.isClosed || fs->isClosed;
      int64_t shardedSize = appendFactorAxes(dim.axes, fs->axes, mesh);
      if (!fs->overflowAxes.empty()) {
        appendFactorAxes(dim.axes, fs->overflowAxes, mesh);
        break;
      }
      // A factor that isn't fully sharded would make any minor factor need a strided view.
      if (shardedSize < factorSizes[factor])
        break;
    }
    out.dims.push_back(std::move(dim));
  }
  out.replicatedAxes = replicatedAxes;
  out.unreducedAxes = unreducedAxes;
  out.unreducedKind = unreducedKind;
  return out;
}

bool TensorUpdates::any() const {
  for (bool b : operands)
    if (b)
      return true;
  for (bool b : results)
    if (b)
      return true;
  return false;
}

TensorUpdates& TensorUpdates::operator|=(const TensorUpdates& other) {
  for (size_t i = 0; i < operands.size() && i < other.operands.size(); ++i)
    operands[i] = operands[i] || other.operands[i];
  for (size_t i = 0; i < results.size() && i < other.results.size(); ++i)
    results[i] = results[i] || other.results[i];
  return *this;
}

ShardingProjection ShardingProjection::build(
    std::span<const std::optional<ir::TensorSharding>> operands,
    std::span<const std::optional<ir::TensorSharding>> results, const ir::OpShardingRule& rule,
    const MeshView& mesh, bool closedIfMissing) {
  auto pointers = [](std::span<const std::optional<ir::TensorSharding>> shardings) {
    std::vector<const ir::TensorSharding*> out;
    out.reserve(shardings.size());
    for (const auto& s : shardings)
      out.push_back(s ? &*s : nullptr);
    return out;
  };
  return build(pointers(operands), pointers(results), rule, mesh, closedIfMissing);
}

ShardingProjection ShardingProjection::build(std::span<const ir::TensorSharding* const> operands,
                                             std::span<const ir::TensorSharding* const> results,
                                             const ir::OpShardingRule& rule, const MeshView& mesh,
                                             bool closedIfMissing) {
  ShardingProjection projection;
  size_t numOperands = std::min(rule.operands.size(), operands.size());
  size_t numResults = std::min(rule.results.size(), results.size());
  projection.m_operands.reserve(numOperands);
  projection.m_results.reserve(numResults);
  for (size_t i = 0; i < numOperands; ++i)
    projection.m_operands.push_back(
        projectTensor(rule.operands[i], operands[i], rule.factorSizes, mesh, closedIfMissing));
  for (size_t i = 0; i < numResults; ++i)
    projection.m_results.push_back(
        projectTensor(rule.results[i], results[i], rule.factorSizes, mesh, closedIfMissing));
  return projection;
}

const TensorFactorShardings& ShardingProjection::tensor(size_t i) const {
  return i < m_operands.size() ? m_operands[i] : m_results[i - m_operands.size()];
}

TensorFactorShardings& ShardingProjection::tensor(size_t i) {
  return i < m_operands.size() ? m_operands[i] : m_results[i - m_operands.size()];
}

TensorUpdates ShardingProjection::expandSharding(int64_t factor,
                                                 std::span<const AxisRef> newAxes) {
  TensorUpdates updates(m_operands.size(), m_results.size());
  for (size_t i = 0; i < m_operands.size(); ++i)
    updates.operands[i] = m_operands[i].expandAxes(factor, newAxes);
  for (size_t i = 0; i < m_results.size(); ++i)
    updates.results[i] = m_results[i].expandAxes(factor, newAxes);
  return updates;
}

} // namespace shardscope::propagation
