#pragma once

// What the engine knows about one stage of a program beyond its module: the analyses every front
// end shows (variance and implicit pbroadcasts in manual computations, JAX-level types under
// explicit sharding, collectives with their cost), computed once per stage by
// `Program::analyses` and kept with the stage. The result types are the analysis modules' own;
// front ends reach them through this header.

#include "core/analysis/collective_cost.h"
#include "core/analysis/explicit_axis_types.h"
#include "core/analysis/explicit_typing.h"
#include "core/analysis/shard_map_analysis.h"
#include "core/support/diagnostic.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace shardscope::session {

struct StageAnalyses {
  /// Manual computations: per-device views, variance, implicit pbroadcasts, the replication
  /// check. Absent for the per-device stage, which has no mesh left.
  std::optional<analysis::ShardMapAnalysis> shardMaps;
  /// The types JAX gives the values under explicit sharding: only for the as-written stage of a
  /// program with explicit mesh axes (`shardscope.axis_types`), and only when they could be
  /// computed.
  std::optional<analysis::ExplicitTyping> explicitTypes;
  /// Every collective of the stage with its cost, in program order. A per-device collective
  /// keeps the axes, groups, per-axis bytes and note of the partitioned collective it came from
  /// (the per-device stage has lost the mesh).
  analysis::CostSummary collectives;
  /// For a gradient stage: the collectives of its gradient function (the forward ones it keeps
  /// and the backward ones the transpose rules made), nested regions included.
  analysis::CostSummary gradientCollectives;
  /// For the per-device stage: each collective's origin among the partitioned stage's.
  std::unordered_map<const ir::Operation*, const ir::Operation*> origins;
  /// What the analyses found (local types that disagree with their shardings, failed replication
  /// checks, ops JAX would reject under explicit sharding), in the order they were found.
  std::vector<support::Diagnostic> diagnostics;
};

/// For each collective of `perDevice`, the collective of `partitioned` it came from: the k-th
/// collective of a kind at a location in one stage is the k-th of that kind there in the other
/// (the other steps of one reshard, or an all_slice that became a slice, do not count).
std::unordered_map<const ir::Operation*, const ir::Operation*>
partitionedOrigins(const analysis::CostSummary& perDevice,
                   const analysis::CostSummary& partitioned);

} // namespace shardscope::session
