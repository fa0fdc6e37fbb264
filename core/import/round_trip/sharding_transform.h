#pragma once

#include "core/ir/module.h"

#include <functional>

namespace shardscope::import_ {

/// A rewrite of one tensor sharding.
using ShardingFn = std::function<ir::TensorSharding(const ir::TensorSharding&)>;

/// Applies `fn` to every tensor sharding in `module` (Shardy's `transformShardings`): the
/// `sdy.sharding` of function arguments and results, and every sharding or per-value sharding
/// attribute of an op (`sdy.sharding`, a constraint's `sharding`, a manual computation's
/// `in_shardings`/`out_shardings`, ...). Inherent flags are kept.
void transformShardings(ir::Module& module, const ShardingFn& fn);

} // namespace shardscope::import_
