#pragma once

// Ops that depend on where the interpreter runs: `stablehlo.replica_id`, `partition_id` and the
// collectives, which go through the device's `Communicator`. Kept apart from the kernel table
// because they need the `DeviceContext`.

#include "core/exec/detail/kernel.h"
#include "core/exec/device_context.h"

namespace shardscope::exec::detail {

/// Returns true for the ops `runDeviceOp` handles.
bool isDeviceOp(std::string_view name);

/// Executes `ctx.op` (a device op) on `device`: fills `ctx.results`, or returns false after
/// reporting at the op. Collectives block in the communicator until their group completes.
bool runDeviceOp(KernelContext& ctx, const DeviceContext& device);

/// Reads a location as `line:col` for messages ("12:8"); empty for an unknown location.
std::string shortLoc(support::SourceLocation loc);

} // namespace shardscope::exec::detail
