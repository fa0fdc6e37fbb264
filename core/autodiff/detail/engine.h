#pragma once
// Internal to core/autodiff: the backward-pass engine shared by `transpose` and `grad`.
//
// One `Scope` is one block being transformed (a function body or a manual computation body).
// The engine copies the ops the backward pass needs forward (the non-linear ones when
// transposing; all of them for a gradient), then walks the block backwards, turning each op's
// result cotangents into cotangent contributions of its operands with the rules of
// rules_linear.cpp, rules_nonlinear.cpp and rules_collectives.cpp.
//
// Device variance (efficient rules): the cotangent of a value has the value's variance type. A
// contribution that varies over more manual axes than the operand it is for (the operand was
// implicitly pbroadcast) must be psum'med over the extra axes; the engine keeps such psums
// *pending* as long as the ops it transposes commute with them (their other operands are
// invariant over the axes), and emits the `stablehlo.all_reduce` only where it must: at a
// collective, before a device-dependent factor, when adding differently pending contributions,
// and at the block's arguments. So the psum lands where the smallest tensor flows, which is what
// makes `t(t(f)) == f` for the seed's examples.

#include "core/analysis/variance.h"
#include "core/autodiff/autodiff.h"
#include "core/autodiff/detail/op_builder.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace shardscope::autodiff::detail {

using Axes = std::vector<std::string>;

/// The discardable attribute marking a `stablehlo.dynamic_slice` as JAX's `pscatter` (the
/// transpose of all_gather_invariant): `{axes = ["i"], dim = 0}`.
inline constexpr std::string_view kPscatterAttr = "shardscope.pscatter";

enum class Mode { Transpose, Grad };

/// A cotangent contribution: the true cotangent is the psum of `value` over `pending`.
struct Cotangent {
  ir::Value* value = nullptr;
  Axes pending;
};

/// One block being transformed.
struct Scope {
  const ir::Block* source = nullptr;
  ir::Block* target = nullptr;
  /// The innermost manual computation around `source` (null at function level).
  const analysis::ManualComputationView* view = nullptr;
  /// Source values -> their forward copies in `target` (inactive values; all values for grad).
  std::unordered_map<const ir::Value*, ir::Value*> primal;
  std::unordered_set<const ir::Value*> active;
  std::unordered_map<const ir::Value*, Cotangent> ct;
};

/// What one scope's backward pass starts from: per terminator operand its cotangent (null when
/// none) and the manual axes that cotangent varies over.
struct Seeds {
  std::vector<ir::Value*> cts;
  std::vector<Axes> axes;
};

class Engine;

/// What a rule sees of the op it transposes.
class RuleContext {
public:
  RuleContext(Engine& engine, Scope& scope, const ir::Operation& op, OpBuilder& b, Axes pending)
      : engine(engine), scope(scope), op(op), b(b), m_pending(std::move(pending)) {}
  Engine& engine;
  Scope& scope;
  const ir::Operation& op;
  OpBuilder& b;

  bool isActive(unsigned operand) const;
  /// The forward value of operand `i` in the target block (null when it has none: an active
  /// operand while transposing).
  ir::Value* primal(unsigned operand) const;
  ir::Value* primalResult(unsigned result) const;
  /// The cotangent of result `i`, or null.
  ir::Value* ct(unsigned result) const;
  void setCt(unsigned result, ir::Value* value) {
    m_cts.resize(op.numResults());
    m_cts[result] = value;
  }
  /// Adds `value` to the cotangent of operand `i`. `lifted` is the variance the contribution has
  /// (the op's lifted operand type); by default the variance of the op's first result.
  void add(unsigned operand, ir::Value* value, const Axes* lifted = nullptr);
  /// Reports `message` at the op and returns false.
  bool fail(const std::string& message) const;
  /// The pending psum axes of the result cotangents.
  const Axes& pending() const { return m_pending; }

private:
  Axes m_pending;
  std::vector<ir::Value*> m_cts;
};

class Engine {
public:
  Engine(ir::Module& module, Mode mode, CollectiveRules rules, support::DiagnosticSink& sink);

  Mode mode() const { return m_mode; }
  CollectiveRules rules() const { return m_rules; }
  support::DiagnosticSink& sink() { return m_sink; }
  const analysis::VarianceAnalysis& variance() const { return m_variance; }

  /// Runs one scope: forward copies, then the backward pass seeded with `seeds`. Returns the
  /// cotangent of every active block argument (zeros when nothing flowed to it), in argument
  /// order, or nothing after reporting an error.
  std::optional<std::vector<ir::Value*>> run(Scope& scope, const Seeds& seeds);

  /// The manual axes `value` varies over (empty outside manual computations).
  Axes axesOf(const ir::Value* value) const;
  /// Adds a contribution to the cotangent of `value`.
  void addCt(Scope& scope, OpBuilder& b, const ir::Value* value, Cotangent contribution);
  /// Emits the pending psum of `c` (an all_reduce over its pending axes) and clears it.
  ir::Value* materialize(Scope& scope, OpBuilder& b, Cotangent c);
  /// An all_reduce (sum) of `value` over `axes` of the scope's mesh.
  ir::Value* psum(Scope& scope, OpBuilder& b, ir::Value* value, const Axes& axes);
  /// Device groups of `axes` on the scope's mesh, and each device's position in its group.
  std::vector<std::vector<int64_t>>
  groupsOf(const Scope& scope, const Axes& axes,
           std::vector<int64_t>* positionOfDevice = nullptr) const;
  /// A fresh `#stablehlo.channel_handle`.
  ir::Attribute channelHandle();
  /// Copies `op` (deeply) to the end of `target`, mapping operands through `map`.
  ir::Operation* clone(const ir::Operation& op, ir::Block& target,
                       std::unordered_map<const ir::Value*, ir::Value*>& map);

private:
  bool forward(Scope& scope);
  bool backward(Scope& scope, const ir::Operation& op, OpBuilder& b);

  ir::Module& m_module;
  Mode m_mode;
  CollectiveRules m_rules;
  support::DiagnosticSink& m_sink;
  analysis::VarianceAnalysis m_variance;
  int64_t m_nextChannel = 1;
};

/// Rule tables. Each returns nothing when it does not know the op, else whether it succeeded.
std::optional<bool> transposeLinear(RuleContext& ctx);
std::optional<bool> differentiateNonlinear(RuleContext& ctx);
std::optional<bool> transposeCollective(RuleContext& ctx);
/// The transpose (or backward pass) of an `sdy.manual_computation`.
bool transposeManualComputation(RuleContext& ctx);

/// Sorted set helpers over axis names.
Axes unite(const Axes& a, const Axes& b);
Axes minus(const Axes& a, const Axes& b);
bool intersects(const Axes& a, const Axes& b);

/// Removes ops of `block` (recursively in manual computation bodies) whose results are unused and
/// that have no effect: the forward copies a backward pass did not need.
void eraseDeadOps(ir::Block& block);

} // namespace shardscope::autodiff::detail
