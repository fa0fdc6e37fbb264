// Registers the GSPMD import and export of core/import/gspmd under the names of XLA's Shardy
// integration (`sdy_opt` built with XLA's passes).
#include "core/import/common/common_import_steps.h"
#include "core/import/common/export_named_computations.h"
#include "core/import/gspmd/export_pipeline.h"
#include "core/import/gspmd/import_pipeline.h"
#include "core/import/gspmd/import_shardings.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"

namespace shardscope::pipeline {

namespace {

namespace gspmd = import_::gspmd;

// XLA's common pre- and post-import passes (core/import/common), around the GSPMD steps.
gspmd::GspmdImportPipelineSteps commonImportSteps() {
  gspmd::GspmdImportPipelineSteps steps;
  steps.commonPreImport = [](ir::Module& module, support::DiagnosticSink& sink) {
    return import_::runCommonPreImport(module, import_::CommonPreImportOptions(), sink);
  };
  steps.commonPostImport = import_::runCommonPostImport;
  return steps;
}

bool runImportShardings(ir::Module& module, support::DiagnosticSink& sink) {
  return gspmd::importShardings(module, gspmd::ImportShardingsOptions(), sink);
}

bool runImportPipeline(ir::Module& module, support::DiagnosticSink& sink) {
  return gspmd::runGspmdImportPipeline(module, commonImportSteps(), sink);
}

gspmd::ExportShardingsOptions exportOptions(const PassOptions& options) {
  gspmd::ExportShardingsOptions result;
  result.enableHloShardingV3 = options.getBool("enable-hlo-sharding-v3", false);
  result.simplifyReplicatedShardings = options.getBool("simplify-replicated-shardings", false);
  return result;
}

bool runExportShardings(ir::Module& module, const PassOptions& options,
                        support::DiagnosticSink& sink) {
  return gspmd::exportShardings(module, exportOptions(options), sink);
}

bool runExportPipeline(ir::Module& module, const PassOptions& options,
                       support::DiagnosticSink& sink) {
  auto exportNamedComputations = [](ir::Module& m, support::DiagnosticSink& s) {
    return import_::exportNamedComputations(m, s);
  };
  return gspmd::runGspmdExportPipeline(module, exportOptions(options), exportNamedComputations,
                                       sink);
}

} // namespace

void registerXlaGspmdPasses(PassRegistry& registry) {
  registry.add(modulePass("xla-sdy-import-shardings",
                          "builds the mesh from the GSPMD shardings and converts `mhlo.sharding` "
                          "to `sdy.sharding`",
                          runImportShardings));
  registry.add(modulePass("xla-sdy-shard-map-import",
                          "replaces JAX's shard_map custom-call pattern with "
                          "`sdy.manual_computation`",
                          gspmd::importShardMaps));
  registry.add(modulePass("xla-sdy-stablehlo-import-pipeline",
                          "imports a StableHLO module with `mhlo.sharding`s into Shardy",
                          runImportPipeline));
  registry.add(modulePass("xla-sdy-mhlo-import-pipeline",
                          "imports an MHLO module with `mhlo.sharding`s into Shardy",
                          runImportPipeline));
  registry.add({"xla-sdy-stablehlo-export-shardings",
                "converts `sdy.sharding` to `mhlo.sharding` and removes the meshes",
                {"enable-hlo-sharding-v3", "simplify-replicated-shardings"},
                runExportShardings});
  registry.add({"xla-sdy-stablehlo-export-pipeline",
                "exports a Shardy module to StableHLO with `mhlo.sharding`s",
                {"enable-hlo-sharding-v3", "simplify-replicated-shardings"},
                runExportPipeline});
}

} // namespace shardscope::pipeline
