#pragma once
// The collectives of one function and what they cost, to compare the efficient and the naive
// transpose (or gradient) of the same function.

#include "core/analysis/collective_cost.h"
#include "core/ir/module.h"

namespace shardscope::autodiff {

/// The ring-model costs (`analysis::collectiveCost`) of every collective inside `function` (a
/// `func.func` of `module`, nested regions included), in program order, with their totals.
analysis::CostSummary functionCosts(const ir::Module& module, const ir::Operation& function);

/// Counts the ops named `name` inside `function` (nested regions included).
int countOps(const ir::Operation& function, std::string_view name);

} // namespace shardscope::autodiff
