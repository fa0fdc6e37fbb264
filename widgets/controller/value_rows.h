#pragma once

// The value rows of a stage's snapshot, built from the engine's module (controller-internal:
// includes engine headers).

#include "widgets/controller/snapshots.h"

#include "core/ir/module.h"
#include "core/session/analyses.h"

#include <atomic>

namespace shardscope::widgets {

/// How a tensor of `type` with sharding `s` is laid out over the mesh of `module`.
LayoutInfo layoutInfo(const ir::Module& module, const ir::TensorSharding& s, ir::Type type);

/// The value rows of every function of `module`: arguments, then op results in pre-order. With
/// `typing` (explicit mesh axes), a value's JAX type is the one it gives. Returns false (rows
/// incomplete) when `cancel` was set meanwhile.
bool collectValues(const ir::Module& module, const analysis::ShardMapAnalysis* shardMaps,
                   QVector<ValueRow>& out, const std::atomic<bool>* cancel,
                   const analysis::ExplicitTyping* typing = nullptr);

} // namespace shardscope::widgets
