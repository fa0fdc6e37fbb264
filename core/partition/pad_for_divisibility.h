#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::partition {

/// `-sdy-pad-for-divisibility`. In ShardScope the padding of a dimension its shards don't divide
/// is materialized by -sdy-convert-global-to-local itself: local shapes are the padded block
/// shapes of `ShardingLayout`, all-gathers slice the padding off the gathered value and
/// all-slices pad their input to whole blocks first, so elementwise ops, slices, pads, reshapes
/// and collectives see the padding only where it is never read. What that scheme can't express
/// is an op that reduces over a padded dimension (`stablehlo.reduce` dimensions, `dot_general`
/// contracting dimensions): the padding would enter the sum. This pass reports those as errors
/// and changes nothing else.
bool padForDivisibility(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::partition
