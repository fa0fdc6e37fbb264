#pragma once

// Program-level parts of a snapshot built from the engine's objects (controller-internal:
// includes engine headers).

#include "widgets/controller/snapshots.h"

#include "core/ir/module.h"
#include "core/session/analyses.h"

namespace shardscope::widgets {

/// The axes (names and sizes, major to minor) and device ids of `mesh`.
MeshInfo meshInfo(const ir::Mesh& mesh);

/// "@loss_grad: the gradient of @loss (2 collectives, 1.0 KiB sent per device)" for the gradient
/// function `function` whose collectives are `costs`.
QString gradientDescription(const analysis::CostSummary& costs, const QString& function);

} // namespace shardscope::widgets
