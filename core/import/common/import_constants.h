#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-import-constants`: turns every `stablehlo.constant` (and `mhlo.constant`) inside a
/// function into an `sdy.constant` with the same value and attributes, so later clean-ups cannot
/// fold or hoist constants out of nested regions (XLA sinks them into while loops). Never fails.
bool importConstants(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
