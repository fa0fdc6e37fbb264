// The registered passes (`-xla-sdy-import-shardings`, `-xla-sdy-stablehlo-export-pipeline`) on
// small programs: errors are located and fail the pass; manual computations become XLA's
// custom-call pattern.
#include "core/io/mlir/mlir.h"
#include "core/pipeline/pass_manager.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

struct Result {
  bool ok = false;
  std::string printed;
  std::vector<support::Diagnostic> diagnostics;
};

Result run(std::string_view text, const std::string& pass) {
  Result result;
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return result;
  pipeline::PassInvocation invocation;
  std::string error;
  EXPECT_TRUE(pipeline::parsePassArgument(pass, pipeline::PassRegistry::builtin(), invocation,
                                          error))
      << error;
  result.ok = pipeline::runPasses(*module, {&invocation, 1}, sink);
  result.printed = io::mlir::printModule(*module);
  result.diagnostics = sink.diagnostics();
  return result;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(GspmdPassesTest, MalformedShardingFailsTheImportWithALocatedError) {
  Result r = run("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                 "  %0 = stablehlo.abs %arg0 {mhlo.sharding = \"{devices=[2]<=[2]\"} : "
                 "tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n",
                 "xla-sdy-import-shardings");
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].severity, support::Severity::Error);
  EXPECT_EQ(r.diagnostics[0].loc.line, 2u);
  EXPECT_EQ(r.diagnostics[0].message,
            "cannot import 'mhlo.sharding' of 'stablehlo.abs': \"{devices=[2]<=[2]\": expected "
            "a sharding attribute at offset 17");
}

TEST(GspmdPassesTest, ImportCreatesMeshesBeforeEverythingElse) {
  Result r = run("func.func @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "
                 "\"{devices=[2,1,2]<=[4] last_tile_dim_replicate}\"}) -> (tensor<8x4xf32> "
                 "{mhlo.sharding = \"{unknown}\"}) {\n  return %arg0 : tensor<8x4xf32>\n}\n",
                 "xla-sdy-import-shardings");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(contains(r.printed, "module {\n  sdy.mesh @mesh = <[\"_axis_0\"=2, \"_axis_1\"=2]>"))
      << r.printed;
  EXPECT_TRUE(contains(r.printed, "{sdy.sharding = #sdy.sharding<@mesh, [{\"_axis_0\"}, {}]>}"))
      << r.printed;
  EXPECT_TRUE(contains(r.printed, "(tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, "
                                  "{?}]>})"))
      << r.printed;
}

TEST(GspmdPassesTest, ExportTurnsManualComputationsIntoXlasCustomCalls) {
  // Hand derivation on x=2, y=2: [{"x"}] tiles [2] and replicates over y:
  // {devices=[2,2]<=[4] last_tile_dim_replicate}; inside, nothing tiled, x manual, y replicated:
  // {devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}.
  Result r = run(
      "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
      "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) "
      "-> tensor<8xf32> {\n"
      "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}]>] "
      "out_shardings=[<@mesh, [{\"x\"}]>] manual_axes={\"x\"} (%arg1: tensor<4xf32>) {\n"
      "    %1 = stablehlo.abs %arg1 : tensor<4xf32>\n"
      "    sdy.return %1 : tensor<4xf32>\n"
      "  } : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n}\n",
      "xla-sdy-stablehlo-export-pipeline");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_FALSE(contains(r.printed, "sdy.")) << r.printed;
  const std::string global = "{mhlo.sharding = \"{devices=[2,2]<=[4] last_tile_dim_replicate}\"}";
  const std::string local =
      "{mhlo.sharding = \"{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}\"}";
  EXPECT_TRUE(contains(r.printed, "mhlo.copy %arg0 " + global)) << r.printed;
  EXPECT_TRUE(contains(r.printed, "stablehlo.custom_call @SPMDFullToShardShape(%0) " + local))
      << r.printed;
  EXPECT_TRUE(contains(r.printed, "stablehlo.abs %1 " + local)) << r.printed;
  EXPECT_TRUE(contains(r.printed, "mhlo.copy %2 " + local)) << r.printed;
  EXPECT_TRUE(contains(r.printed, "stablehlo.custom_call @SPMDShardToFullShape(%3) " + global))
      << r.printed;
}

TEST(GspmdPassesTest, ExportWritesTheEntryShardingsOfTheModule) {
  // Hand derivation: [{"x"}, {"y"}] on x=2, y=4 tiles [2, 4] over iota 8; an empty mesh is
  // replicated.
  Result r = run("module attributes {sdy.output_shardings = #sdy.sharding_per_value<[<mesh<[]>, "
                 "[{}, {}]>]>, sdy.parameters_shardings = #sdy.sharding_per_value<[<mesh<[\"x\"=2,"
                 " \"y\"=4]>, [{\"x\"}, {\"y\"}]>]>} {\n"
                 "  func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
                 "    return %arg0 : tensor<4x4xf32>\n  }\n}\n",
                 "xla-sdy-stablehlo-export-pipeline");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(contains(r.printed, "module attributes {mhlo.spmd_output_sharding = "
                                  "\"{replicated}\", mhlo.spmd_parameters_shardings = "
                                  "[\"{devices=[2,4]<=[8]}\"]}"))
      << r.printed;
}

} // namespace

// JAX's older exports write a shard_map body inline between @SPMDFullToShardShape and
// @SPMDShardToFullShape (jax-ml/jax export back-compat data tpu_Sharding, 2023): it becomes the
// same manual computation as the outlined `call @shmap_body` form.
TEST(GspmdPassesTest, InlineShardMapBodyBecomesAManualComputation) {
  Result r = run(R"(
func.func @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]0,1}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  %2 = stablehlo.negate %1 : tensor<1x4xf32>
  %3 = stablehlo.abs %2 : tensor<1x4xf32>
  %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{manual}"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {mhlo.sharding = "{devices=[2,1]0,1}"} : (tensor<1x4xf32>) -> tensor<2x4xf32>
  return %5 : tensor<2x4xf32>
}
)",
                 "xla-sdy-stablehlo-import-pipeline");
  ASSERT_TRUE(r.ok) << r.printed;
  EXPECT_TRUE(contains(r.printed, "sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"axis_0\"}, {}]>] "
                                  "out_shardings=[<@mesh, [{\"axis_0\"}, {}]>] manual_axes={\"axis_0\"}"))
      << r.printed;
  EXPECT_TRUE(contains(r.printed, "stablehlo.negate %arg1 : tensor<1x4xf32>")) << r.printed;
  EXPECT_FALSE(contains(r.printed, "SPMDFullToShardShape")) << r.printed;
  EXPECT_FALSE(contains(r.printed, "shmap_body")) << r.printed; // the outlined body is inlined
}

// A body that reads a global value besides its operands has no manual-computation form: it stays
// as written, and the load says so.
TEST(GspmdPassesTest, InlineShardMapBodyReadingAGlobalValueIsKeptWithAWarning) {
  Result r = run(R"(
func.func @main(%arg0: tensor<2x4xf32>, %arg1: tensor<1x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]0,1}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  %2 = stablehlo.add %1, %arg1 : tensor<1x4xf32>
  %3 = stablehlo.custom_call @Sharding(%2) {mhlo.sharding = "{manual}"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %4 = stablehlo.custom_call @SPMDShardToFullShape(%3) {mhlo.sharding = "{devices=[2,1]0,1}"} : (tensor<1x4xf32>) -> tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}
)",
                 "xla-sdy-stablehlo-import-pipeline");
  EXPECT_TRUE(contains(r.printed, "SPMDFullToShardShape")) << r.printed;
  EXPECT_FALSE(contains(r.printed, "sdy.manual_computation")) << r.printed;
  bool warned = false;
  for (const auto& d : r.diagnostics)
    warned |= d.severity == support::Severity::Warning &&
              d.message.find("reads values from outside it") != std::string::npos;
  EXPECT_TRUE(warned);
}
