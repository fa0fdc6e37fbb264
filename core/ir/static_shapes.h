#pragma once

#include "core/ir/operation.h"
#include "core/support/diagnostic.h"

#include <string_view>

namespace shardscope::ir {

/// True when `type` is a tensor whose shape is not fully known: a dynamic dimension
/// (`tensor<4x?xf32>`), a bounded one (`tensor<?x4xf32, #stablehlo.bounds<8, ?>>`) or no rank
/// (`tensor<*xf32>`).
bool hasDynamicShape(Type type);

/// Checks that every argument and op result in `scope` (a function or a module) has a static
/// shape. Reports the first one that does not as a located error saying that `step`
/// ("partitioning", "execution") needs static shapes, and returns false; true when all are static.
bool requireStaticShapes(const Operation& scope, std::string_view step,
                         support::DiagnosticSink& sink);

} // namespace shardscope::ir
