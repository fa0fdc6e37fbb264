#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::partition {

struct InsertExplicitReshardsOptions {
  /// Shardy's `enable-full-version`: resolve every sharding conflict, not only dot ops'.
  bool enableFullVersion = false;
};

/// `-sdy-insert-explicit-reshards`: makes each op's operand and result shardings compatible with
/// its sharding rule by inserting `sdy.reshard` ops (and `sdy.all_reduce` for sharded reduction
/// factors and unreduced values), using Shardy's common-axes heuristic; reshards data-flow edges,
/// call operands and returned values, and places single-device ops. Without `enableFullVersion`
/// only calls, concatenates and unreduced values are handled. Returns false after reporting an
/// error to `sink` (a function boundary or op results on conflicting single devices).
bool insertExplicitReshards(ir::Module& module, const InsertExplicitReshardsOptions& options,
                            support::DiagnosticSink& sink);

} // namespace shardscope::partition
