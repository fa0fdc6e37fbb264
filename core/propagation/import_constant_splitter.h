#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::propagation {

/// `-sdy-constant-or-scalar-splitter` (Shardy's constant_or_scalar_splitter.cc): turns every
/// `stablehlo.constant` into an `sdy.constant`, then gives each non-constant use of a constant
/// sub-computation (constants and iotas, and broadcasts, reshapes, slices, element-wise ops and
/// named computations and calls of functions made only of such ops, whose operands are all
/// constant) its own copy of that sub-computation, and each use of a broadcast of a scalar its
/// own broadcast, so that propagation can shard every use differently. A copied call calls its
/// own copy of the callee (`<name>_<n>`, marked `sdy.original_func_name`). Functions are visited
/// callees first. Scalars (rank 0) are never copied. The originals are erased when nothing but
/// `sdy.sharding_group` ops uses them. Never fails.
bool splitConstants(ir::Module& module, support::DiagnosticSink& sink);

/// `-sdy-constant-or-scalar-merger` (Shardy's constant_or_scalar_merger.cc), the inverse after
/// propagation: in each region, a constant with the same attributes (value and sharding) as an
/// earlier one, or a broadcast of the same scalar with the same attributes and type, is replaced
/// by the earlier one. Never fails.
bool mergeConstants(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::propagation
