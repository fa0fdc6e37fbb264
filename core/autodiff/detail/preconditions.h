#pragma once
// Internal to core/autodiff: what the rules assume of an op before they index its shapes.

#include "core/ir/operation.h"

#include <optional>
#include <string>

namespace shardscope::autodiff::detail {

/// Checks the shape and attribute facts the transpose and derivative rules of `op` rely on
/// (dimension numbers, permutations, padding, slice bounds and collective dimensions in range and
/// of the right length). Returns why `op` breaks one, or nothing when the rules may read it.
std::optional<std::string> violatedPrecondition(const ir::Operation& op);

} // namespace shardscope::autodiff::detail
