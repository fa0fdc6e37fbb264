#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// The part of StableHLO's canonicalization after HLO import that XLA's round-trip import relies
/// on: a `stablehlo.custom_call` with tuple operands or results takes the tuple elements (found
/// through the `stablehlo.tuple` ops that built them) and returns the leaves, and the
/// `stablehlo.get_tuple_element` chains that read its results read the leaves directly. Calls whose
/// tuple operands are not built by `stablehlo.tuple` are left alone. Never fails.
bool flattenCustomCallTuples(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
