#pragma once

// The StableHLO `check` dialect used by interpreter tests: `check.expect_eq`,
// `check.expect_almost_eq`, `check.expect_eq_const`, `check.expect_almost_eq_const`,
// `check.expect_close`, also written as `stablehlo.custom_call @check.expect_*`.

#include "core/exec/detail/kernel.h"

namespace shardscope::exec::detail {

/// Returns true when `op` is a check op (including the custom_call spelling).
bool isCheckOp(const ir::Operation& op);

/// Runs a check op. A failed check reports an error naming the first mismatching element and
/// still returns true (the run goes on so that every failed check is reported); malformed ops
/// return false. Sets `failedCheck` when the check failed.
bool runCheckOp(KernelContext& ctx, bool& failedCheck);

} // namespace shardscope::exec::detail
