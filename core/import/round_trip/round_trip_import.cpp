#include "core/import/round_trip/round_trip_import.h"

#include "core/import/common/common_import_steps.h"
#include "core/import/common/frontend_attrs.h"
#include "core/import/common/op_rewrite.h"
#include "core/import/round_trip/dedup_meshes.h"
#include "core/import/round_trip/import_shardy_attrs.h"
#include "core/import/round_trip/remove_size_one_axes.h"
#include "core/import/round_trip/round_trip_constants.h"
#include "core/import/round_trip/shard_map_import.h"

namespace shardscope::import_ {

namespace {

constexpr std::string_view kRoundTripPrefix = "xla.sdy.";

bool hasRoundTripEntry(const ir::DictionaryAttr* dict) {
  if (!dict)
    return false;
  for (const auto& entry : dict->entries)
    if (std::string_view(entry.name).starts_with(kRoundTripPrefix))
      return true;
  return false;
}

bool functionHasRoundTripAttrs(const ir::Operation& fn) {
  ir::Type type = ir::func::type(fn);
  for (unsigned i = 0; i < type.elements().size(); ++i)
    if (hasRoundTripEntry(argFrontendAttrs(fn, i)))
      return true;
  for (unsigned i = 0; i < type.results().size(); ++i)
    if (hasRoundTripEntry(resultFrontendAttrs(fn, i)))
      return true;
  return false;
}

bool opHasRoundTripAttrs(const ir::Operation& op) {
  if (hasRoundTripEntry(frontendAttrs(op)))
    return true;
  if (customCallTarget(op).starts_with(kRoundTripPrefix))
    return true;
  const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
  return op.is("func.call") && callee && !callee->path.empty() &&
         callee->path.back().find(kManualComputationBodyFuncName) != std::string::npos;
}

} // namespace

bool runRoundTripImport(ir::Module& module, const RoundTripImportOptions& options,
                        support::DiagnosticSink& sink) {
  CommonPreImportOptions pre;
  pre.importConstants = options.enableConstantImport;
  if (!runCommonPreImport(module, pre, sink) || !importShardyAttrs(module, sink) ||
      !importShardMaps(module, sink) || !removeSizeOneAxes(module, sink) ||
      !runCommonPostImport(module, sink))
    return false;
  // HloSharding V3 and shard map export inline meshes; lift them and fold equal ones.
  if (options.enableHloShardingV3 || options.liftAndDedupMeshes)
    return liftInlinedMeshes(module, sink) && dedupMeshes(module, sink);
  return true;
}

bool hasSdyRoundTripAttrs(const ir::Module& module) {
  if (hasRoundTripEntry(frontendAttrs(module.op())))
    return true;
  bool found = false;
  for (const ir::Operation* fn : module.functions()) {
    if (found || functionHasRoundTripAttrs(*fn))
      return true;
    fn->walk([&](const ir::Operation& op) { found = found || opHasRoundTripAttrs(op); });
  }
  return found;
}

bool importSdyRoundTripProgram(ir::Module& module, support::DiagnosticSink& sink) {
  return runRoundTripImport(module, RoundTripImportOptions{}, sink);
}

} // namespace shardscope::import_
