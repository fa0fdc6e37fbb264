#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-round-trip-shard-map-import`: every `func.call` of a function whose name contains
/// `xla.sdy.manual_computation_body`, between `@xla.sdy.GlobalToLocalShape` and
/// `@xla.sdy.LocalToGlobalShape` custom calls, becomes an `sdy.manual_computation` with the
/// called body inlined (its `func.return` an `sdy.return`) and the in/out shardings and manual
/// axes of the custom calls' frontend attributes (or, from older exports, of the call's). The body
/// function and the shape calls are erased. A call without its shape calls, or whose body was
/// already used by another call, is a located error with XLA's message; the pass then fails.
bool importShardMaps(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
