#pragma once

// When two shardings mean the same layout: Shardy's `TensorShardingAttr::isFullyReplicated` and
// `isEquivalent`, which the passes use to decide whether a reshard or a copy is needed.

#include "core/ir/sdy_types.h"

#include <optional>

namespace shardscope::sharding {

/// Returns true when `sharding` shards nothing: no dimension has axes and there are no unreduced
/// axes. A null `sharding` (a value without one) counts as fully replicated.
bool isFullyReplicated(const ir::TensorSharding* sharding);

/// `isFullyReplicated` of an optional sharding (nothing: missing, so fully replicated).
bool isFullyReplicated(const std::optional<ir::TensorSharding>& sharding);

/// Returns true when `a` and `b` shard the same way: both fully replicated (or missing), or on
/// the same mesh with the same axes per dimension and the same unreduced axes. Open/closed
/// dimensions, priorities and explicitly replicated axes don't matter.
bool equivalentShardings(const ir::TensorSharding* a, const ir::TensorSharding* b);

/// `equivalentShardings` of optional shardings (nothing: missing).
bool equivalentShardings(const std::optional<ir::TensorSharding>& a,
                         const std::optional<ir::TensorSharding>& b);

} // namespace shardscope::sharding
