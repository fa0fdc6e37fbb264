#pragma once

// The problem rows of snapshots, built from the engine's diagnostics (controller-internal:
// includes engine headers).

#include "widgets/controller/snapshots.h"

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <vector>

namespace shardscope::widgets {

/// Appends `diagnostics` to `out` (a message already listed at the same line is skipped). Each
/// row names the op of `module` (may be null) at the diagnostic's location, the first in
/// pre-order, so that views can mark that op. `stageId` is the reporting stage (-1: the run),
/// `stage` its title.
void addProblems(const std::vector<support::Diagnostic>& diagnostics, int stageId,
                 const QString& stage, const ir::Module* module, QVector<ProblemRow>& out);

} // namespace shardscope::widgets
