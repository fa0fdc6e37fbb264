#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <functional>
#include <optional>
#include <string>

namespace shardscope::import_ {

/// `-xla-sdy-round-trip-export-ops`: Shardy ops XLA has no instruction for become what the
/// round-trip import reads back: `sdy.constant` → `stablehlo.constant`, `sdy.sharding_constraint`
/// → `@Sharding` custom call with `sdy.sharding`, `sdy.sharding_group` →
/// `@xla.sdy.ShardingGroup` (`xla.sdy.sharding_group_id`), `sdy.propagation_barrier` →
/// `@xla.sdy.PropagationBarrier` (`xla.sdy.allowed_direction`). Never fails.
bool exportSdyOps(ir::Module& module, support::DiagnosticSink& sink);

/// `-xla-sdy-round-trip-shard-map-export`: every `sdy.manual_computation` (innermost first)
/// becomes a call of a new public function `@xla.sdy.manual_computation_body[_N]` holding its
/// body, between an `@xla.sdy.GlobalToLocalShape` custom call (when it has operands; frontend
/// attributes `xla.sdy.in_shardings`, `xla.sdy.manual_axes`) and an
/// `@xla.sdy.LocalToGlobalShape` custom call (when it has results; `xla.sdy.out_shardings`,
/// `xla.sdy.manual_axes`). Never fails.
bool exportShardMaps(ir::Module& module, support::DiagnosticSink& sink);

/// `-xla-sdy-round-trip-export-shardy-attrs`: saves Shardy's attributes as frontend attribute
/// strings: argument and op shardings as `xla.sdy.sharding` (the `sdy.sharding` stays for the
/// HLO sharding export), result shardings on an `@xla.sdy.FuncResultSharding` custom call in front
/// of `func.return`, sharding rules as `xla.sdy.sharding_rule` (the attribute is removed), and the
/// meshes as the module's `xla.sdy.meshes`. Never fails.
bool exportShardyAttrs(ir::Module& module, support::DiagnosticSink& sink);

/// Writes an HLO sharding string (`{devices=[2,1]<=[2]}`) for a sharding of a value of rank `rank`
/// on `mesh`, or nothing when it cannot.
using HloShardingWriter = std::function<std::optional<std::string>(
    const ir::TensorSharding&, const ir::Mesh&, int64_t rank)>;

/// The options of `-xla-sdy-round-trip-export-pipeline`.
struct RoundTripExportOptions {
  /// Keep inlined meshes inlined (`keep-meshes-inlined`).
  bool keepMeshesInlined = false;
  /// `enable-hlo-sharding-v3`.
  bool enableHloShardingV3 = false;
  /// Writes `mhlo.sharding` strings; when unset, none are written (the `sdy.sharding`s are still
  /// removed, as XLA's export does once it has written them).
  HloShardingWriter hloShardingWriter;
};

/// The steps of `-xla-sdy-round-trip-export-pipeline`: lift inlined meshes, dedup meshes, export
/// ops, shard maps and Shardy attributes, then replace `sdy.sharding`s by `mhlo.sharding`s and
/// drop the mesh symbols. Returns false after located errors.
bool runRoundTripExport(ir::Module& module, const RoundTripExportOptions& options,
                        support::DiagnosticSink& sink);

} // namespace shardscope::import_
