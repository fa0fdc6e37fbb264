#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-open-while-free-vars-sharding`: for every `stablehlo.while`, each value defined
/// above the loop and used inside it that has a sharding of rank > 0 that is not already fully
/// open gets an `sdy.sharding_constraint` to the fully open sharding on the same mesh, inserted
/// before the loop; only the uses inside the loop use the constraint. Never fails.
bool openWhileFreeVarsSharding(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
