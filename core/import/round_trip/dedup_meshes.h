#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-sdy-lift-inlined-meshes`: mesh symbols with equal meshes are merged into the first one, then
/// every sharding with an inlined mesh refers instead to an `sdy.mesh` symbol: an existing one
/// with an equal mesh, else a new one named `maximal_mesh_<id>` for a maximal mesh, `empty_mesh`
/// for the empty mesh and `mesh` otherwise (made unique with `_N`), added after the existing
/// meshes in order of first use. Never fails.
bool liftInlinedMeshes(ir::Module& module, support::DiagnosticSink& sink);

/// `-xla-sdy-round-trip-dedup-meshes`: meshes with the same device ids and number of devices as
/// an earlier mesh are folded into it: each of their axes becomes the axes (or sub-axes) of the
/// earlier mesh that cover the same span of the device order, shardings are rewritten and the
/// duplicate meshes erased. Meshes whose axes cannot be expressed that way stay. Never fails.
bool dedupMeshes(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
