#pragma once

#include "core/import/gspmd/hlo_sharding.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <span>
#include <string>

namespace shardscope::import_::gspmd {

/// XLA's `convertToHloSharding` (export_shardings.cc, V2 form): the HLO sharding of `sharding`
/// on `mesh`, for a value inside a manual computation over `manualAxes` (empty outside one).
/// A mesh without axes gives `{replicated}` or, with one device id, `{maximal device=N}`; every
/// axis manual gives `{manual}`; otherwise a tile assignment over the mesh axes (split into the
/// sub-axes the sharding uses), with manual, unreduced and replicated subgroups, in iota form,
/// or as an explicit device list when the mesh has `device_ids`.
/// Precondition: `sharding` is valid on `mesh` (see `sharding::verifyModule`).
HloSharding toHloSharding(const ir::TensorSharding& sharding, const ir::Mesh& mesh,
                          std::span<const std::string> manualAxes = {});

/// The named (V3) form XLA prints with `enable-hlo-sharding-v3`:
/// `{mesh['x'=2,'y'=4], [{'x'}, {?}], replicated={'y'}}`; `{maximal device=N}` on a maximal
/// mesh. With `simplifyReplicated`, a sharding that shards nothing (no dimension axes, no
/// unreduced axes, no open dimension) prints `{mesh[], replicated}`.
std::string toNamedShardingString(const ir::TensorSharding& sharding, const ir::Mesh& mesh,
                                  std::span<const std::string> manualAxes = {},
                                  bool simplifyReplicated = false);

/// The GSPMD string XLA would print for `sharding` (V2 `HloSharding::ToString`) of a value
/// inside manual computations over `manualAxes`, resolving its mesh in `module`. Returns an
/// empty string when the mesh cannot be resolved.
std::string gspmdString(const ir::TensorSharding& sharding, const ir::Module& module,
                        std::span<const std::string> manualAxes = {});

/// The manual axes of the `sdy.manual_computation`s `value` is defined in (their union, outermost
/// first): what XLA's shard map export marks as manual in the value's GSPMD sharding.
std::vector<std::string> enclosingManualAxes(const ir::Value& value);

/// Options of `exportShardings` (XLA's `-xla-sdy-stablehlo-export-shardings`).
struct ExportShardingsOptions {
  /// Print the named (V3) form instead of tile assignments.
  bool enableHloShardingV3 = false;
  /// With V3: print fully replicated shardings as `{mesh[], replicated}`.
  bool simplifyReplicatedShardings = false;
  /// Give `stablehlo.while` / `case` / `if` without a sharding a replicated one.
  bool addMissingShardingToControlFlow = false;
};

/// Replaces every `sdy.sharding` (function arguments and results, ops; several results as a
/// tuple sharding) by its `mhlo.sharding` string, uses `sdy.manual_axes` (written by the shard
/// map export) for values inside manual computations, moves the sharding of `mhlo.erf` /
/// `mhlo.topk` custom calls into `mhlo.attributes`, turns the module's `sdy.parameters_shardings`
/// / `sdy.output_shardings` into `mhlo.spmd_parameters_shardings` / `mhlo.spmd_output_sharding`,
/// and erases the mesh symbols. An
/// `sdy.manual_computation` (whose export is not modelled) is left as it is, body included, its
/// shardings with their meshes inline. Returns false when a sharding refers to a mesh that does not exist.
bool exportShardings(ir::Module& module, const ExportShardingsOptions& options,
                     support::DiagnosticSink& sink);

} // namespace shardscope::import_::gspmd
