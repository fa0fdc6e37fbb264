#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// The func-call import of `-xla-sdy-round-trip-import-pipeline` with
/// `import-only-uninlineable-func-calls=false`: every `func.call` of a function of the module
/// (shard_map bodies aside) becomes an `sdy.named_computation` named after the callee's original
/// name (`sdy.original_func_name`, else its name) holding a copy of the callee's body (calls in
/// it are imported too), with the callee's argument and result shardings as in/out shardings.
/// Private functions no call refers to any more are erased. Never fails.
bool importFuncCalls(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
