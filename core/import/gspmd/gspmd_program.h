#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// Returns true when `module` carries at least one GSPMD sharding (`mhlo.sharding` on a function
/// argument or result, or on an op).
bool hasGspmdShardings(const ir::Module& module);

/// Reads a program written with GSPMD shardings (JAX before Shardy, XLA's HLO dumps) into
/// Shardy's model, for loading: derives the mesh and converts every `mhlo.sharding` as XLA's
/// import does (axes `axis_N`, `@single_device_N` meshes), then turns JAX's shard_map pattern
/// (`@SPMDFullToShardShape` / `@SPMDShardToFullShape` around `call @shmap_body`) into
/// `sdy.manual_computation`. Every sharding it cannot read or import is a warning at its op and
/// stays as written; nothing is dropped silently. Returns false only when the shard_map rewrite
/// fails (an error has been reported).
bool importGspmdProgram(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
