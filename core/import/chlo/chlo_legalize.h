#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// StableHLO's `chlo-legalize-to-stablehlo` for the CHLO ops ShardScope models: rewrites every
/// `chlo.mulhi`, `chlo.ragged_dot` and `chlo.scan` in `module` into plain StableHLO ops, as
/// StableHLO's ChloLegalizeToStablehlo.cpp and ChloDecompositionPatterns.td decompose them:
/// - `mulhi`: widen to twice the width, multiply, shift right by the width, narrow (64-bit
///   integers: four 32-bit partial products, with the sign correction for `i64`);
/// - `ragged_dot`: mode 1 (ragged non-contracting dim) one masked `dot_general` per group against
///   that group's rhs slice, summed; mode 2 (ragged contracting dim) one masked `dot_general` per
///   group, stacked on a new leading dim; mode 3 (ragged batch dim) one `dot_general`;
/// - `scan`: a `stablehlo.while` over the scan dimension that slices the inputs, runs the body
///   and writes each step's outputs with `dynamic_update_slice` (`is_reverse` walks backwards).
/// Preconditions: the module passed `verify::verifyStablehlo`. Returns false after reporting a
/// located error, and leaves the module unchanged, when a CHLO op has no lowering here (other
/// CHLO ops, dynamic shapes).
bool legalizeChloToStablehlo(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
