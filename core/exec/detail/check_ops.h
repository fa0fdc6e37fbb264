#pragma once

// The StableHLO `check` dialect used by interpreter tests: `check.expect_eq`,
// `check.expect_almost_eq`, `check.expect_eq_const`, `check.expect_almost_eq_const`,
// `check.expect_close`, `check.expect_serialized_eq`, also written as
// `stablehlo.custom_call @check.expect_*` / `@check.eq`; and the interpreter dialect's
// `interpreter.print` and `interpreter.probe`.

#include "core/exec/detail/kernel.h"
#include "core/exec/interpreter_hooks.h"

namespace shardscope::exec::detail {

/// Returns true when `op` is a check op (including the custom_call spelling).
bool isCheckOp(const ir::Operation& op);

/// Runs a check op. A failed check reports an error naming the first mismatching element and
/// still returns true (the run goes on so that every failed check is reported); malformed ops
/// return false. Sets `failedCheck` when the check failed.
/// `check.expect_serialized_eq` reads its expected value through `hooks.loadProbe`.
bool runCheckOp(KernelContext& ctx, bool& failedCheck, const InterpreterHooks& hooks);

/// Returns true for `interpreter.print` and `interpreter.probe`.
bool isInterpreterIoOp(const ir::Operation& op);
/// Runs `interpreter.print` (through `hooks.print`; nothing without it) or `interpreter.probe`
/// (records through `hooks.probe`, an error without it; the result is the operand).
bool runInterpreterIoOp(KernelContext& ctx, const InterpreterHooks& hooks);

} // namespace shardscope::exec::detail
