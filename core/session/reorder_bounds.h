#pragma once

// How far a float value of a sharded run may legitimately differ from the unsharded reference.
//
// A sharded program adds the same terms as the unsharded one in another order (partial sums per
// device, then an all-reduce), so float results differ in their last bits; through later ops those
// differences can grow (a large argument fed into `sine`, a cancelling subtraction). An error
// bound is carried along the reference run: for every float value, per element, the largest
// difference that reordered summations and the differences of its operands can explain.
//
// - A sum of n terms (dot_general, dot, convolution, reduce and reduce_window with an `add`
//   body) in any order is within gamma(n) * sum |terms| of the exact sum, gamma(n) = n*u/(1-n*u)
//   with u the unit roundoff of the element type; two orders are within twice that. Operand
//   differences move a product sum by at most sum |a| * Eb + Ea * |b|.
// - `sine` and `cosine`: at most the argument's bound (slope 1), at most 2 (their range).
// - Any other op: each float operand is moved up and down by its bound (plus two ulps, the
//   comparison's own slack) and the op is evaluated again; the result's bound is the sum over
//   operands of the largest move. This covers elementwise ops, data movement and gathers alike.
// - Every result may also round once differently: two units of roundoff of its magnitude.
// - An integer or boolean value that changes when float operands move (a compare, an argmax) is
//   unstable: reordering can flip it, so it is not compared exactly, and float values computed
//   from it have no bound (infinite).
// - Ops that cannot be evaluated alone (while, case, calls) get the relative tolerance of
//   `referenceTolerance` as their bound (`estimated`), which later ops carry on like any other.

#include "core/exec/tensor.h"
#include "core/ir/module.h"

#include <functional>
#include <map>
#include <set>

namespace shardscope::session {

/// The per-element error bounds of the reference run's values (see the file comment).
class ReorderBounds {
public:
  /// Bounds for the values of functions of `module` (the reference run's module).
  explicit ReorderBounds(const ir::Module& module) : m_module(module) {}

  /// Records the bounds of the results of `op`, just executed by the reference run; `valueOf`
  /// returns the reference value of an operand or result (null when it has none). Operands that
  /// are block arguments (the function's inputs, shared by both runs) have no error.
  void record(const ir::Operation& op,
              const std::function<const exec::Tensor*(const ir::Value*)>& valueOf);

  /// The bound of `value` (an f64 tensor shaped like it), or null when there is none (not a
  /// float value, complex values, or not recorded).
  const exec::Tensor* bound(const ir::Value* value) const;
  /// True when `value` is a non-float value that reordering can change (see the file comment).
  bool unstable(const ir::Value* value) const { return m_unstable.count(value) > 0; }
  /// True when the bound of `value` is the fallback relative tolerance (its op could not be
  /// analysed), not a reordering bound.
  bool estimated(const ir::Value* value) const { return m_estimated.count(value) > 0; }

  /// The unit roundoff of a float element type (2^-24 for f32); 0 for other types.
  static double unitRoundoff(ir::ElementType element);

private:
  const ir::Module& m_module;
  std::map<const ir::Value*, exec::Tensor> m_bounds;
  std::set<const ir::Value*> m_unstable;
  std::set<const ir::Value*> m_estimated;
};

} // namespace shardscope::session
