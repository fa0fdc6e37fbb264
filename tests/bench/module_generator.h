#pragma once

#include <cstddef>
#include <string>

namespace shardscope::bench {

/// How the generated program is spelled.
enum class ModuleForm {
  /// What JAX and Shardy write: `sdy.mesh @mesh = <...>`, `func.func`, pretty StableHLO ops.
  Pretty,
  /// The same program for Debian's `mlir-opt-14 --allow-unregistered-dialect`: every StableHLO op
  /// and the mesh op in generic form, `func`/`call`/`return` instead of `func.func`/`func.call`/
  /// `func.return`. The Shardy attributes stay opaque dialect attributes (`#sdy.sharding<...>`),
  /// which MLIR 14 accepts for unregistered dialects.
  Mlir14Generic,
};

struct GenerateOptions {
  /// Number of StableHLO ops in the program (the `func`, `call`, `return` and mesh ops come on
  /// top of these).
  size_t ops = 100000;
  /// StableHLO ops per chain function; the last function takes the remainder.
  size_t opsPerFunction = 1000;
  ModuleForm form = ModuleForm::Pretty;
  /// Pretty form only: spell `stablehlo.dot_general` in its pretty assembly format
  /// (`contracting_dims = [1] x [0]`) rather than generically.
  bool prettyDotGeneral = true;
  /// Use the chain function's parameters in every layer, as a model's weights are: each
  /// dot_general's right operand is `%arg1` and each add's is `%arg2` (else one of the last 8
  /// values). With one function for the whole program (`opsPerFunction >= ops`), each parameter
  /// has about ops / 4 uses.
  bool sharedParameters = false;
};

/// Returns a synthetic StableHLO + Shardy program: a 4x2 mesh, `ceil(ops / opsPerFunction)`
/// functions each holding a chain of dot_general / add / tanh / multiply ops on
/// `tensor<128x128xf32>` values with `sdy.sharding` attributes on most ops and on the function
/// arguments and results, and a `@main` calling every chain in turn. Deterministic: the same
/// options give the same text. About 150 bytes per op.
std::string generateModule(const GenerateOptions& options);

} // namespace shardscope::bench
