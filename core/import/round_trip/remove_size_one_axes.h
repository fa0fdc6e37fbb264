#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-round-trip-remove-size-one-axes`: drops every reference to a mesh axis of size one
/// from the dimension shardings, replicated and unreduced axes of every sharding in the module (arguments,
/// results, ops, sharding constraints, manual computations), so such axes cause no conflicts in
/// propagation. A dimension left closed with no axes loses its priority. Meshes and manual axes
/// are kept as they are. Never fails.
bool removeSizeOneAxes(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
