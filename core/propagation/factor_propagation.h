#pragma once

// Factor propagation strategies (Shardy's `FactorPropagation`): given the factor view of an op's
// tensors, decide which axes each factor should be sharded on and expand the tensors' factor
// shardings accordingly.

#include "core/ir/operation.h"
#include "core/propagation/sharding_projection.h"

#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace shardscope::propagation {

/// Which way shardings may flow through an op along a factor.
enum class Direction { None, Forward, Backward, Both };

/// Returns the direction along factor `factor` of the op being propagated.
using FactorDirectionFn = std::function<Direction(int64_t factor)>;

/// Parses `NONE`, `FORWARD`, `BACKWARD`, `BOTH` (the `allowed_direction` of a barrier).
Direction parseDirection(std::string_view text);

/// Inputs shared by every factor of one propagation step.
struct FactorPropagationInput {
  std::span<const int64_t> factorSizes;
  const sharding::MeshView* mesh = nullptr;
  FactorDirectionFn direction;
  /// The op propagated through, for warnings; may be null.
  const ir::Operation* op = nullptr;
  /// Shardy's `conservative-propagation`: never propagate sub-axes.
  bool conservative = false;
};

/// Removes from `axis` its overlap with the axes (and overflow axes) of the other factors of
/// `tensor` and, when `newAxes` isn't empty, with the axes the other factors are about to get.
/// Returns the largest non-overlapping prefix, or nothing.
std::optional<ir::AxisRef> noConflictsAcrossFactors(ir::AxisRef axis,
                                                    const TensorFactorShardings& tensor,
                                                    int64_t factor,
                                                    std::span<const std::vector<ir::AxisRef>> newAxes);

/// Removes conflicts of `axis` within factor `fs` of `tensor`: explicitly replicated or unreduced
/// axes, and a factor that can't take it (closed, overflowing, or a non-minor-most factor it
/// would overflow; then only the largest sub-axis dividing what remains of the factor is kept),
/// unless the factor already holds the axis (or a prefix of it). `prevShardedSize` is the product
/// of the sizes of the axes major to `axis`; without `mesh`, divisibility isn't checked.
std::optional<ir::AxisRef> noConflictsWithinFactor(ir::AxisRef axis,
                                                   const TensorFactorShardings& tensor,
                                                   const FactorSharding& fs,
                                                   int64_t prevShardedSize, int64_t factorSize,
                                                   const sharding::MeshView* mesh);

/// A strategy that updates the factor shardings of a projection.
class FactorPropagation {
public:
  virtual ~FactorPropagation() = default;
  /// Expands the factor shardings in `projection` and returns which tensors changed.
  virtual TensorUpdates propagate(ShardingProjection& projection,
                                  const FactorPropagationInput& input) const = 0;
};

/// Shardy's `BasicFactorPropagation`: for each factor, the longest list of major axes every
/// tensor agrees on (one may extend another), truncated at the first axis that conflicts with
/// another factor, an explicitly replicated/unreduced axis, a closed factor or divisibility.
class BasicFactorPropagation : public FactorPropagation {
public:
  TensorUpdates propagate(ShardingProjection& projection,
                          const FactorPropagationInput& input) const override;

  /// The axes factor `factor` can be sharded on for all tensors, given the direction.
  std::vector<ir::AxisRef> compatibleMajorShardingAxes(const ShardingProjection& projection,
                                                       int64_t factor, Direction direction,
                                                       const FactorPropagationInput& input) const;

  /// The largest prefix of `axis` that can shard `factor` in every tensor without conflict;
  /// `prevShardedSize` is the product of the sizes of the axes major to `axis`.
  /// `newAxesPerFactor`, when non-empty, holds axes other factors are about to get.
  std::optional<ir::AxisRef>
  compatiblePrefix(const ir::AxisRef& axis, const ShardingProjection& projection, int64_t factor,
                   int64_t prevShardedSize, int64_t factorSize, const sharding::MeshView* mesh,
                   std::span<const std::vector<ir::AxisRef>> newAxesPerFactor = {}) const;

  /// Truncates `axes` at the first axis `removeConflicts` (given the axis and the product of the
  /// sizes of the axes major to it) rejects, or shrinks it to the prefix it returns. In
  /// conservative mode sub-axes are rejected too.
  void truncateByRemovingConflicts(
      std::vector<ir::AxisRef>& axes,
      const std::function<std::optional<ir::AxisRef>(const ir::AxisRef&, int64_t)>& removeConflicts,
      const sharding::MeshView* mesh, bool conservative) const;

  /// `truncateByRemovingConflicts` with any callable, for the hot loops (no `std::function`
  /// call per axis).
  template <typename RemoveConflicts>
  static void truncateAxes(std::vector<ir::AxisRef>& axes, RemoveConflicts&& removeConflicts,
                           const sharding::MeshView* mesh, bool conservative);

  /// The compatible major axes of `factor` ignoring conflicts with other factors.
  std::vector<ir::AxisRef> compatibleMajorAxes(const ShardingProjection& projection,
                                               int64_t factor, Direction direction) const;
};

template <typename RemoveConflicts>
void BasicFactorPropagation::truncateAxes(std::vector<ir::AxisRef>& axes,
                                          RemoveConflicts&& removeConflicts,
                                          const sharding::MeshView* mesh, bool conservative) {
  int64_t prevShardedSize = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<ir::AxisRef> kept = removeConflicts(axes[i], prevShardedSize);
    if (!kept || (conservative && kept->subAxis)) {
      axes.resize(i);
      return;
    }
    if (!(*kept == axes[i])) {
      axes[i] = std::move(*kept);
      axes.resize(i + 1);
      return;
    }
    if (mesh)
      prevShardedSize *= mesh->sizeOf(*kept);
  }
}

} // namespace shardscope::propagation
