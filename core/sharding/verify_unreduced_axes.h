#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <optional>
#include <string>

namespace shardscope::sharding {

/// Shardy's `-sdy-verify-unreduced-axes` (transforms/export/verify_unreduced_axes.cc): no op may
/// drop unreduced axes, or introduce ones that aren't summed, except the blessed ones. Sharding
/// constraints and reshards, and `sdy.all_reduce` / `sdy.reduce_scatter` (whose operand must be
/// sharded), get their own verification; `stablehlo.reduce`, `all_reduce` and `reduce_scatter`
/// may reduce with their body's operator; dots may introduce summed axes; calls must keep the
/// same unreduced axes across argument and result boundaries, and returns the axes of the
/// function or manual computation results. A value produced by a constraint or reshard counts as
/// blessed. Ops are visited in post-order; each function reports its first error (it is a
/// function pass in Shardy). Returns true when there is none.
bool verifyUnreducedAxes(const ir::Module& module, support::DiagnosticSink& sink);

/// The reduction operator of `op`'s body (a reduce, an all-reduce) in Shardy's terms: "sum",
/// "max" or "min" when every returned value is made by `add`, `maximum` or `minimum` (the same
/// one); nothing otherwise.
std::optional<std::string> bodyReduction(const ir::Operation& op);

} // namespace shardscope::sharding
