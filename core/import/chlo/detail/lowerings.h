#pragma once
// Internal to core/import/chlo: one lowering per CHLO op. Each inserts its StableHLO ops before
// `op`, makes the uses of `op`'s results use them and erases `op`.

#include "core/ir/operation.h"

#include <string>

namespace shardscope::import_::chlo::detail {

/// `chlo.mulhi` (chlo_legalize.cpp).
void lowerMulhi(ir::Operation& op);
/// `chlo.ragged_dot` (lower_ragged_dot.cpp). Precondition: verified, static shapes.
void lowerRaggedDot(ir::Operation& op);
/// `chlo.scan` (lower_scan.cpp). Precondition: verified, static scan dimension.
void lowerScan(ir::Operation& op);
/// The size of `op`'s scan dimension, or `ir::kDynamicSize` when no operand, result or
/// `scan_dim_size` gives it statically.
int64_t scanDimensionSize(const ir::Operation& op);

/// Makes every use of result `i` of `op` use `replacements[i]` and erases `op`.
void replaceOp(ir::Operation& op, const std::vector<ir::Value*>& replacements);

} // namespace shardscope::import_::chlo::detail
