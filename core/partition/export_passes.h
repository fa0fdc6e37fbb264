// The small module-level export passes of Shardy's `-sdy-export-pipeline` that have no other home:
// closing shardings (keeping unreduced axes), dropping sub-axes from the main function's open
// boundary dimensions, and inlining mesh symbols into the shardings.
#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <functional>

namespace shardscope::partition {

/// Replaces every tensor sharding held anywhere in `module` (op attributes such as
/// `sdy.sharding`, `sharding`, `out_sharding`, `in_shardings`/`out_shardings`, and function
/// argument/result attributes) by `fn(sharding)` (Shardy's `transformShardings`).
void transformShardings(ir::Module& module,
                        const std::function<ir::TensorSharding(const ir::TensorSharding&)>& fn);

/// The export pipeline's close step (Shardy's `-sdy-close-shardings` as `sdy-export-pipeline`
/// runs it): every sharding in the module, including both sides of manual computations, gets
/// all dimensions closed and no replicated axes; unreduced axes (and their reduction kind) are
/// kept, so the partitioner that follows still sees which values are unreduced.
bool closeShardingsKeepingUnreduced(ir::Module& module, support::DiagnosticSink& sink);

/// `-sdy-remove-sub-axes-in-input-output-shardings`: in the main function's argument and result
/// shardings (the only function when there is no `main`), each open dimension keeps its axes up
/// to (excluding) the first sub-axis. Closed dimensions, replicated and unreduced axes stay.
bool removeSubAxesInInputOutputShardings(ir::Module& module, support::DiagnosticSink& sink);

/// `-sdy-inline-meshes`: every sharding that names a mesh symbol gets that mesh inline
/// (`<mesh<["a"=2]>, [...]>`), then the `sdy.mesh` ops are erased. Shardings naming an unknown
/// mesh are left as they are.
bool inlineMeshes(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::partition
