#pragma once

// Single-device (maximal mesh) ops in `-sdy-insert-explicit-reshards`: an op whose results are
// placed on one device gets its operands gathered there and its results replicated back.

#include "core/ir/module.h"
#include "core/ir/mesh_resolver.h"
#include "core/support/diagnostic.h"

namespace shardscope::partition {

enum class SingleDeviceOutcome { NotSingleDevice, Handled, Failed };

/// When a result of `op` has a sharding on a maximal mesh (`<@m, []>` with `@m = <[],
/// device_ids=[d]>`): reshards every tensor operand to a replicated sharding on the module's first
/// non-maximal mesh (unless it is one already) and then to the maximal sharding, sets every tensor
/// result's sharding to the maximal one, and reshards each result back to replicated (then to its
/// former sharding when that sharded it). Results on two different maximal meshes are an error.
/// `meshes` resolves meshes of `module` (every op of a function is asked about).
SingleDeviceOutcome processSingleDeviceOp(ir::Module& module, ir::Operation& op,
                                          ir::MeshResolver& meshes,
                                          support::DiagnosticSink& sink);

/// Reports an error for each argument or result of `func` sharded on a maximal mesh; returns
/// false when there was one.
bool verifyNoSingleDeviceBoundary(const ir::Module& module, ir::Operation& func,
                                  support::DiagnosticSink& sink);

} // namespace shardscope::partition
