#pragma once

// The execution snapshots of a run, built from the engine's execution (controller-internal:
// includes engine headers).

#include "widgets/controller/snapshots.h"

#include "core/exec/tensor.h"
#include "core/session/execution.h"

#include <memory>
#include <vector>

namespace shardscope::widgets {

/// The value of `module` with the stable id `id` (see ValueRow::id), or null.
const ir::Value* findValue(const ir::Module& module, const QString& id);

/// The elements of `t` as doubles (the first 2^20), invalid for null.
TensorData tensorData(const exec::Tensor* t);

/// Where run `e` is after a command that stopped for `reason`: each device's next op, the
/// divergences, the reference summary, the run's `problems`, and the value with id `watched`
/// (empty: none) on every device, assembled and in the reference, with what the reference check
/// did with it.
ExecutionSnapshot executionSnapshot(const session::Execution& e, const QString& reason,
                                    const QString& watched, QVector<ProblemRow> problems);

/// The timeline of `steps` (a run's `Execution::timeline()`, or a longer one of an earlier run
/// with the same inputs).
std::shared_ptr<const Timeline> timelineOf(const std::vector<session::TimelineStep>& steps);

} // namespace shardscope::widgets
