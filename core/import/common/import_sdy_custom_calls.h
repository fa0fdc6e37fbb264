#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace shardscope::import_ {

/// Custom-call targets and frontend attributes XLA uses for Shardy ops it has no HLO for.
inline constexpr std::string_view kShardingCustomCallTarget = "Sharding";
inline constexpr std::string_view kShardingGroupCustomCallTarget = "xla.sdy.ShardingGroup";
inline constexpr std::string_view kPropagationBarrierCustomCallTarget =
    "xla.sdy.PropagationBarrier";
inline constexpr std::string_view kShardingGroupIdAttr = "xla.sdy.sharding_group_id";
inline constexpr std::string_view kAllowedDirectionAttr = "xla.sdy.allowed_direction";

/// `-xla-sdy-import-sdy-custom-calls`: rewrites the custom calls that stand for Shardy ops:
/// `@Sharding` (with an `sdy.sharding` already imported onto it) becomes `sdy.sharding_constraint`,
/// its `backend_config = "unspecified_dims=[...]"` dimensions opened; `@xla.sdy.ShardingGroup`
/// (frontend attribute `xla.sdy.sharding_group_id`, no uses) becomes `sdy.sharding_group`;
/// `@xla.sdy.PropagationBarrier` (frontend attribute `xla.sdy.allowed_direction`) becomes
/// `sdy.propagation_barrier`. A malformed call is a located error with XLA's message, followed by
/// MLIR's "failed to legalize" error; the pass then fails.
bool importSdyCustomCalls(ir::Module& module, support::DiagnosticSink& sink);

/// Parses the `unspecified_dims=[0,1]` backend config of a `@Sharding` custom call (XLA's
/// `sharding_op_util::ParseAttributes`). An empty string gives no dimensions; malformed text gives
/// nothing.
std::optional<std::vector<int64_t>> parseUnspecifiedDims(std::string_view config);

} // namespace shardscope::import_
