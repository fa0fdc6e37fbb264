#pragma once

// The projection of tensor shardings onto the factors of an op sharding rule (Shardy's
// `ShardingProjection`). Propagation reasons per factor rather than per dimension: a dimension
// mapped to several factors (`[ij]`) splits its axes among them, major to minor, splitting an
// axis into sub-axes when it straddles two factors. After propagation the factor shardings are
// projected back to dimension shardings.

#include "core/ir/sdy_types.h"
#include "core/sharding/mesh_view.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shardscope::propagation {

/// How one factor of one tensor is sharded.
struct FactorSharding {
  /// The axes sharding the factor, major to minor.
  std::vector<ir::AxisRef> axes;
  /// Axes of the dimension that could not be given to this non-minor-most factor because their
  /// size does not divide what remains of the factor. They are kept so that projecting back gives
  /// the original dimension sharding, and they block propagation along the dimension.
  std::vector<ir::AxisRef> overflowAxes;
  /// A closed factor can't be sharded further.
  bool isClosed = false;
  /// True for the last factor of its dimension (which may be sharded non-divisibly).
  bool isMinorMost = false;
  bool operator==(const FactorSharding&) const = default;
};

/// The factor shardings of one tensor, plus what the projection must keep to rebuild it.
struct TensorFactorShardings {
  /// Indexed by factor; empty for the factors the tensor doesn't map.
  std::vector<std::optional<FactorSharding>> factors;
  std::vector<ir::AxisRef> replicatedAxes;
  std::vector<ir::AxisRef> unreducedAxes;
  std::string unreducedKind;

  /// The sharding of `factor`, or null when the tensor doesn't map it.
  const FactorSharding* find(int64_t factor) const;
  FactorSharding* find(int64_t factor);

  /// Replaces the axes of `factor` by `newAxes` when the tensor maps the factor and its current
  /// axes are a strict prefix of `newAxes`. Returns true when it did.
  bool expandAxes(int64_t factor, std::span<const ir::AxisRef> newAxes);

  /// Projects the factor shardings back to a tensor sharding bound to `meshName`/`inlineMesh`.
  /// Factors after one that isn't fully sharded are ignored (they would need a strided view).
  /// A dimension is closed when any of its projected factors is.
  ir::TensorSharding toTensorSharding(const ir::TensorMapping& mapping,
                                      std::span<const int64_t> factorSizes,
                                      const std::string& meshName,
                                      const std::shared_ptr<const ir::Mesh>& inlineMesh,
                                      const sharding::MeshView& mesh) const;
};

/// Which operands and results a propagation step changed.
struct TensorUpdates {
  std::vector<bool> operands;
  std::vector<bool> results;
  TensorUpdates(size_t numOperands, size_t numResults)
      : operands(numOperands, false), results(numResults, false) {}
  bool any() const;
  TensorUpdates& operator|=(const TensorUpdates& other);
};

/// The factor view of all operands and results of an op.
class ShardingProjection {
public:
  /// Projects `operands` and `results` (missing shardings are fully open, or fully closed when
  /// `closedIfMissing`) onto the factors of `rule`. Precondition: the shardings' ranks match the
  /// rule's tensor mappings.
  static ShardingProjection build(std::span<const std::optional<ir::TensorSharding>> operands,
                                  std::span<const std::optional<ir::TensorSharding>> results,
                                  const ir::OpShardingRule& rule, const sharding::MeshView& mesh,
                                  bool closedIfMissing = false);
  /// The same with the shardings given by pointer (null for a missing one), as propagation reads
  /// them without copying.
  static ShardingProjection build(std::span<const ir::TensorSharding* const> operands,
                                  std::span<const ir::TensorSharding* const> results,
                                  const ir::OpShardingRule& rule, const sharding::MeshView& mesh,
                                  bool closedIfMissing = false);

  size_t numOperands() const { return m_operands.size(); }
  size_t numResults() const { return m_results.size(); }
  size_t numTensors() const { return m_operands.size() + m_results.size(); }
  /// Tensor `i` of the concatenation operands ++ results.
  const TensorFactorShardings& tensor(size_t i) const;
  TensorFactorShardings& tensor(size_t i);
  const std::vector<TensorFactorShardings>& operands() const { return m_operands; }
  const std::vector<TensorFactorShardings>& results() const { return m_results; }

  /// Expands `factor` to `newAxes` in every tensor whose axes for it are a strict prefix of them.
  TensorUpdates expandSharding(int64_t factor, std::span<const ir::AxisRef> newAxes);

private:
  std::vector<TensorFactorShardings> m_operands;
  std::vector<TensorFactorShardings> m_results;
};

/// Projects one tensor sharding (or a missing one) onto `mapping`; exposed for tests.
TensorFactorShardings projectTensor(const ir::TensorMapping& mapping,
                                    const ir::TensorSharding* sharding,
                                    std::span<const int64_t> factorSizes,
                                    const sharding::MeshView& mesh, bool closedIfMissing);

/// Returns true when the axis list `prefix` is a strict prefix of `axes` (the last axis of
/// `prefix` may be a prefix sub-axis of the corresponding axis of `axes`).
bool isStrictAxisListPrefix(std::span<const ir::AxisRef> prefix,
                            std::span<const ir::AxisRef> axes);
/// Like `isStrictAxisListPrefix`, but also true when both lists are equal.
bool isAxisListPrefix(std::span<const ir::AxisRef> prefix, std::span<const ir::AxisRef> axes);

} // namespace shardscope::propagation
