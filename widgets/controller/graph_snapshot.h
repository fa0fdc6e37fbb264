#pragma once

// Builds the laid-out program graph of one function of one stage (on the engine thread).

#include "widgets/controller/snapshots.h"

#include <atomic>

namespace shardscope::session {
class Program;
} // namespace shardscope::session

namespace shardscope::widgets {

/// The graph of `function` (empty: `main`, else the first function with a body) of `stage`,
/// built and laid out with `core/layout` (Graphviz), annotated with the analyses (value names,
/// variance, implicit pbroadcasts, collective costs and causes). Clusters in `expanded` /
/// `collapsed` are opened / closed. `cancel` stops the layout. On failure the snapshot's
/// `status` says why. Call on the engine thread: Graphviz layouts run one at a time.
GraphSnapshotPtr buildGraphSnapshot(session::Program* program, StageId stage,
                                    const QString& function, const QStringList& expanded,
                                    const QStringList& collapsed, const std::atomic<bool>* cancel);

} // namespace shardscope::widgets
