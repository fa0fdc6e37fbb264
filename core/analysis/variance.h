#pragma once

#include "core/analysis/collective_rules.h"
#include "core/analysis/manual_computation.h"
#include "core/analysis/variance_set.h"
#include "core/ir/module.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::analysis {

/// Why JAX inserts an implicit `pbroadcast` (today `pvary`: free, no communication) at a site.
enum class PbroadcastReason : uint8_t {
  /// An op whose operands have different variance sets: each operand is lifted to the union.
  MixedOperands,
  /// A collective whose operand is invariant over some of the collective's axes (JAX's
  /// `insert_collective_pvary`, and the `pvary` before `psum_invariant`).
  CollectiveOperand,
  /// A `stablehlo.while` whose body makes a loop-carried value vary over more axes than its
  /// initial value: the initial value is lifted.
  LoopCarry,
  /// A returned value that varies over fewer manual axes than its `out_shardings` entry names
  /// (JAX's `_implicit_pvary_on_output`); the site is operand `operandIndex` of `sdy.return`.
  OutSpec,
};

/// Returns a short name for `reason` (`mixed operands`, `collective operand`, `loop carry`,
/// `out_shardings`).
const char* pbroadcastReasonName(PbroadcastReason reason);

/// One implicit pbroadcast: operand `operandIndex` of `op` is lifted to vary over `axes`.
struct PbroadcastSite {
  const ir::Operation* op = nullptr;
  unsigned operandIndex = 0;
  /// The manual axes added, in mesh order (never empty).
  std::vector<std::string> axes;
  PbroadcastReason reason = PbroadcastReason::MixedOperands;
  /// The innermost manual computation holding `op`.
  const ir::Operation* manualComputation = nullptr;
};

/// One StableHLO collective inside a manual computation with the manual axes it runs over.
struct CollectiveUse {
  const ir::Operation* op = nullptr;
  CollectiveKind kind = CollectiveKind::AllReduce;
  /// The mesh axes found for its device groups, or why none matched.
  AxesMatch match;
  /// The innermost manual computation holding `op`.
  const ir::Operation* manualComputation = nullptr;
};

/// How the analysis read a `stablehlo.all_gather` that carries no `shardscope.all_gather_invariant`
/// hint: JAX's `all_gather` and `all_gather_invariant` lower to the same op, so the text alone does
/// not say which one the program meant.
struct CollectiveReading {
  const ir::Operation* op = nullptr;
  CollectiveKind kind = CollectiveKind::AllGather;
  /// Why, e.g. `out_shardings of the manual computation at line 15 need it replicated over 'i'`.
  std::string reason;
};

/// A `stablehlo.while` loop-carried value whose body, run on the initial value's variance,
/// returns a value of a different variance. JAX's `_check_carry_type` accepts a loop only when the
/// two types are equal; `pcast` / `pvary`, which would have made them equal, leave no op.
struct CarryMismatch {
  const ir::Operation* op = nullptr;
  unsigned index = 0;
  /// The initial value's variance and what one pass of the body returns for it.
  VarianceSet initial;
  VarianceSet returned;
  /// The innermost manual computation holding `op`.
  const ir::Operation* manualComputation = nullptr;
};

/// Device-variance types of every value inside the manual computations of a module, with the
/// implicit pbroadcast sites and the collectives mapped back to mesh axes.
///
/// Typing rules (the "efficient transpose" design, as JAX's `check_vma` implements them):
/// - a region argument varies over the manual axes its `in_shardings` entry names, plus whatever
///   the operand varies over in an enclosing manual computation;
/// - `stablehlo.partition_id` / `stablehlo.replica_id` vary over every manual axis in scope;
/// - other ops take the union of their operands' sets (constants and iota are invariant); where
///   an operand lacks axes of the union, that is a `MixedOperands` pbroadcast site;
/// - collectives first lift their operand to vary over their axes (a `CollectiveOperand` site),
///   then psum / all_gather_invariant / collective_broadcast remove those axes while all_gather,
///   psum_scatter, all_to_all and ppermute keep them; a collective whose groups match no manual
///   axes keeps its operand's set;
/// - an unmarked `stablehlo.all_gather` is read as `all_gather` unless that reading makes an
///   output vary over axes its `out_shardings` entry says it is replicated over; then it is read
///   as `all_gather_invariant`, the only reading under which JAX accepted the program (recorded in
///   `readings()`);
/// - integer arithmetic on `partition_id` as JAX lowers `axis_index` (`remainder(divide(id, s), n)`
///   by constants, `convert`) varies only over the axes whose digits of the device index it reads;
/// - `stablehlo.while` iterates its loop-carried sets to a fixed point, `case`/`if` join their
///   branches (and the predicate), `optimization_barrier` / `sdy.named_computation` keep each
///   operand's set at its position, `func.call` analyzes the callee with the operands' sets;
/// - a nested manual computation's results lose its own manual axes (outside it they are free).
class VarianceAnalysis {
public:
  /// Analyzes every manual computation of `module`. The module must outlive the result.
  static VarianceAnalysis run(const ir::Module& module);

  /// The variance of `value`, or null when it is not inside a manual computation.
  const VarianceSet* varianceOf(const ir::Value& value) const;
  /// Views of every manual computation, outer before nested.
  const std::vector<ManualComputationView>& manualComputations() const { return m_views; }
  /// The view of manual computation `op`, or null.
  const ManualComputationView* viewOf(const ir::Operation& op) const;
  /// Every implicit pbroadcast site, in program order.
  const std::vector<PbroadcastSite>& pbroadcasts() const { return m_sites; }
  /// Every collective inside a manual computation, in program order.
  const std::vector<CollectiveUse>& collectives() const { return m_collectives; }
  /// The unmarked all_gathers read as `all_gather_invariant`, in program order.
  const std::vector<CollectiveReading>& readings() const { return m_readings; }
  /// The loop carries whose variance changes in the body, in program order.
  const std::vector<CarryMismatch>& carryMismatches() const { return m_carryMismatches; }
  /// How `op` is read: the reading chosen for it, else `collectiveKind(op)`.
  std::optional<CollectiveKind> kindOf(const ir::Operation& op) const;

private:
  friend class VarianceBuilder;
  std::vector<ManualComputationView> m_views;
  std::unordered_map<const ir::Value*, VarianceSet> m_variance;
  std::vector<PbroadcastSite> m_sites;
  std::vector<CollectiveUse> m_collectives;
  std::vector<CollectiveReading> m_readings;
  std::vector<CarryMismatch> m_carryMismatches;
};

} // namespace shardscope::analysis
