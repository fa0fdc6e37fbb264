#pragma once

// The collective rows of a stage's snapshot, built from the engine's module (controller-internal:
// includes engine headers).

#include "widgets/controller/snapshots.h"

#include "core/session/analyses.h"

namespace shardscope::session {
class Program;
} // namespace shardscope::session

namespace shardscope::widgets {

/// The collectives of pipeline stage `stage` (from its `analyses`) with their cost and why they
/// are there: for the partitioned stage the cause partitioning gives; the per-device stage's
/// keep the cause of the partitioned collective each came from.
void collectCollectives(const session::Program& program, const session::StageAnalyses& analyses,
                        StageId stage, StageSnapshot& out);

/// The collectives of a gradient stage's gradient function (`out.function`): the forward ones it
/// keeps and the backward ones the transpose rules made.
void collectGradientCollectives(const session::Program& program,
                                const session::StageAnalyses& analyses, StageSnapshot& out);

} // namespace shardscope::widgets
