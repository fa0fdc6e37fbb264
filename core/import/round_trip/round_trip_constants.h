#pragma once

#include <string_view>

namespace shardscope::import_ {

/// Names of the round-trip form, as XLA spells them (`xla/service/spmd/shardy/constants.h`).
inline constexpr std::string_view kMeshesRoundTripAttr = "xla.sdy.meshes";
inline constexpr std::string_view kShardingRoundTripAttr = "xla.sdy.sharding";
inline constexpr std::string_view kShardingRuleRoundTripAttr = "xla.sdy.sharding_rule";
inline constexpr std::string_view kInShardingsAttr = "xla.sdy.in_shardings";
inline constexpr std::string_view kOutShardingsAttr = "xla.sdy.out_shardings";
inline constexpr std::string_view kManualAxesAttr = "xla.sdy.manual_axes";
inline constexpr std::string_view kXlaShardingAttr = "mhlo.sharding";
inline constexpr std::string_view kFuncResultShardingTarget = "xla.sdy.FuncResultSharding";
inline constexpr std::string_view kGlobalToLocalShapeTarget = "xla.sdy.GlobalToLocalShape";
inline constexpr std::string_view kLocalToGlobalShapeTarget = "xla.sdy.LocalToGlobalShape";
inline constexpr std::string_view kManualComputationBodyFuncName =
    "xla.sdy.manual_computation_body";
inline constexpr std::string_view kInlinableManualComputationBodyFuncName =
    "xla.sdy.inlinable_manual_computation_body";

} // namespace shardscope::import_
