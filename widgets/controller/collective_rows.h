#pragma once

// The collective rows of a stage's snapshot, built from the engine's module (controller-internal:
// includes engine headers).

#include "widgets/controller/snapshots.h"

#include "core/analysis/collective_cost.h"
#include "core/ir/module.h"

#include <unordered_map>

namespace shardscope::session {
class Program;
} // namespace shardscope::session

namespace shardscope::widgets {

/// The collectives of pipeline stage `stage` (its `module`) with their cost and why they are
/// there: for the partitioned stage the cause partitioning gives; the per-device stage's keep the
/// axes, groups and cause of the partitioned collective each came from.
void collectCollectives(const session::Program& program, const ir::Module& module, StageId stage,
                        StageSnapshot& out);

/// The collective of the partitioned stage each collective of the per-device stage came from
/// (same location and kind, in order), by op; collectives without one are left out.
std::unordered_map<const ir::Operation*, const ir::Operation*>
partitionedOrigins(const analysis::CostSummary& perDevice,
                   const analysis::CostSummary& partitioned);

/// The collectives of a gradient stage's gradient function (`out.function`): the forward ones it
/// keeps and the backward ones the transpose rules made.
void collectGradientCollectives(const session::Program& program, const ir::Module& module,
                                StageSnapshot& out);

} // namespace shardscope::widgets
