#pragma once
// Transposition and reverse-mode differentiation of StableHLO + Shardy functions, with the
// collective rules of the "efficient transposition of replication-inducing collectives" design:
// inside `sdy.manual_computation` (shard_map) the device-variance types of the values decide what
// each collective transposes to.

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <string>
#include <vector>

namespace shardscope::autodiff {

/// Which transposition rules collectives inside manual computations get.
enum class CollectiveRules {
  /// The design's rules, driven by the variance analysis: psum <-> pbroadcast (no-op), all_gather
  /// <-> psum_scatter, all_gather_invariant <-> pscatter (a local dynamic slice), ppermute and
  /// all_to_all invert themselves; implicit pbroadcasts transpose to psums where the cotangent of
  /// an invariant value arrives varying.
  Efficient,
  /// The old rules: psum transposes to psum, all_gather(_invariant) to psum_scatter, the cotangent
  /// of an unmapped output is divided by the size of the axes it is unmapped over, and the
  /// cotangent of an unmapped input is psum'med over those axes (defensively).
  Naive,
};

/// Returns `efficient` or `naive`.
const char* collectiveRulesName(CollectiveRules rules);

/// What to transpose.
struct TransposeOptions {
  /// The function to transpose (`main` or the only function when empty).
  std::string function;
  /// The arguments the function is linear in, by number (`0`) or by name (`%x` / `x`).
  std::vector<std::string> linearIn;
  CollectiveRules rules = CollectiveRules::Efficient;
  /// The new function's name; `<function>_transpose` (or `_transpose_naive`) when empty.
  std::string newName;
};

/// What to differentiate.
struct GradOptions {
  /// The function to differentiate (`main` or the only function when empty). It must return one
  /// value of a rank-0 float type.
  std::string function;
  /// The arguments to differentiate with respect to, by number or by name.
  std::vector<std::string> wrt;
  CollectiveRules rules = CollectiveRules::Efficient;
  /// The new function's name; `<function>_grad` (or `_grad_naive`) when empty.
  std::string newName;
};

/// The function a transform added to the module.
struct AutodiffResult {
  /// The new `func.func` (owned by the module).
  ir::Operation* function = nullptr;
  /// The function it was built from.
  const ir::Operation* source = nullptr;
  /// Argument numbers of the source the transform was taken with respect to.
  std::vector<unsigned> arguments;
};

/// Adds to `module` the transpose of a function linear in `options.linearIn`: a function taking
/// the other arguments (in order) followed by one cotangent per result, and returning one
/// cotangent per linear argument. Reports located errors (unknown argument, an op that is not
/// linear in the linear arguments, an unsupported op) to `sink` and returns a null function;
/// the module is left unchanged then.
AutodiffResult transpose(ir::Module& module, const TransposeOptions& options,
                         support::DiagnosticSink& sink);

/// Adds to `module` the gradient of a scalar-output function with respect to `options.wrt`: a
/// function taking the same arguments and returning one gradient per `wrt` argument (linearize,
/// then transpose: the forward ops are kept, the backward ops use their values). Errors as for
/// `transpose`, plus a function whose result is not one rank-0 float.
AutodiffResult grad(ir::Module& module, const GradOptions& options, support::DiagnosticSink& sink);

} // namespace shardscope::autodiff
