#pragma once

#include "core/import/gspmd/hlo_sharding.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::import_::gspmd {

/// The name of the attribute GSPMD shardings are written in.
inline constexpr const char* kXlaShardingAttr = "mhlo.sharding";

/// Options of `importShardings` (XLA's `ImportShardingsPass`).
struct ImportShardingsOptions {
  /// Axis names of the derived mesh are this prefix and the axis index. XLA's pass writes
  /// placeholder names (`_axis_0`, meant to be replaced by real names); its import pipelines,
  /// as their tests show, `axis_0`.
  std::string axisPrefix = "_axis_";
  /// The mesh for `{maximal device=N}` is named this prefix and `N`.
  std::string maximalMeshPrefix = "single_device_";
  /// Per argument / result of `@main` (or one value for all): import the sharding with open
  /// dimensions so propagation may refine it. Empty means closed.
  std::vector<bool> allowPropagationToArgs;
  std::vector<bool> allowPropagationToResults;
  /// How an `mhlo.sharding` that cannot be read or imported is reported. As an error the import
  /// fails; as a warning the attribute stays where it is and the rest is imported.
  support::Severity unreadableSeverity = support::Severity::Error;
};

/// XLA's `-xla-sdy-import-shardings`: derives one mesh (`@mesh`) from the device assignments of
/// every `mhlo.sharding` in the module (the common factorization of their local meshes), a
/// `@single_device_N` mesh per device of a maximal sharding, and replaces each `mhlo.sharding`
/// (function arguments and results, ops; tuples per result) with the equivalent `sdy.sharding`.
/// `{unknown}` becomes open dimensions, `{replicated}` / `{manual}` closed empty ones. A module
/// without tiled or maximal shardings is left unchanged, as XLA leaves it. Returns false when a
/// sharding could not be imported and `unreadableSeverity` is an error.
bool importShardings(ir::Module& module, const ImportShardingsOptions& options,
                     support::DiagnosticSink& sink);

/// Converts one non-tuple `sharding` of a value of rank `rank` onto `globalMesh` (named
/// `meshName`), as XLA's `convertToSdySharding` does; maximal shardings refer to the mesh
/// `maximalMeshNames[device]`. Returns nothing, with a reason in `error`, when the sharding's
/// device order does not fit the mesh.
std::optional<ir::TensorSharding> toSdySharding(const HloSharding& sharding,
                                                const ir::Mesh& globalMesh,
                                                const std::string& meshName,
                                                const std::map<int64_t, std::string>& maximalMeshNames,
                                                int64_t rank, bool openDims, std::string& error);

} // namespace shardscope::import_::gspmd
