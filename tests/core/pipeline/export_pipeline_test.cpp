// Tests of `-sdy-export-pipeline` and the export passes registered with it
// (`-sdy-remove-sub-axes-in-input-output-shardings`, `-sdy-inline-meshes`,
// `-sdy-remove-sharding-groups`, `-sdy-drop-sharding-rules`): each parses a small program, runs
// the passes through the registry and checks the printed module.
#include "core/io/mlir/mlir.h"
#include "core/pipeline/pass_manager.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace shardscope;

namespace {

// Parses `text`, runs `passes` (command-line spelling without the dash) and prints the module.
std::string run(std::string_view text, const std::vector<std::string>& passes) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  if (!module)
    return "<parse error>";
  std::vector<pipeline::PassInvocation> invocations;
  for (const std::string& pass : passes) {
    pipeline::PassInvocation invocation;
    std::string error;
    EXPECT_TRUE(
        pipeline::parsePassArgument(pass, pipeline::PassRegistry::builtin(), invocation, error))
        << error;
    invocations.push_back(invocation);
  }
  EXPECT_TRUE(pipeline::runPasses(*module, invocations, sink))
      << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  return io::mlir::printModule(*module);
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(ExportPipelineTest, IsRegisteredWithShardyOptions) {
  const pipeline::PassInfo* pass = pipeline::PassRegistry::builtin().lookup("sdy-export-pipeline");
  ASSERT_NE(pass, nullptr);
  pipeline::PassInvocation invocation;
  std::string error;
  EXPECT_TRUE(pipeline::parsePassArgument(
      "sdy-export-pipeline=avoid-export-for-partitioning=false "
      "enable-insert-explicit-collectives=true keep-sharding-rules=true "
      "update-non-divisible-input-output-shardings=false",
      pipeline::PassRegistry::builtin(), invocation, error))
      << error;
  EXPECT_FALSE(pipeline::parsePassArgument("sdy-export-pipeline=no-such-option=1",
                                           pipeline::PassRegistry::builtin(), invocation, error));
}

// A constraint adding unreduced axes becomes a replicated-to-unreduced; the return needs the
// function's fewer unreduced axes, so an all-reduce over the added axis follows, and the
// collective canonicalization folds that pair back to the argument. Closing keeps unreduced axes.
TEST(ExportPipelineTest, UnreducedAxesSurviveClosingAndFold) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"z", ?}, {}], unreduced={"y"}>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"z"}, {}], unreduced={"y"}>}) {
  %0 = sdy.sharding_constraint %arg0 <@m, [{"z"}, {}], unreduced={"x", "y"}> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
)",
                        {"sdy-export-pipeline"});
  EXPECT_TRUE(contains(
      out,
      R"(%0 = sdy.replicated_to_unreduced {"x"} %arg0 out_sharding=<mesh<["x"=2, "y"=2, "z"=2]>, [{"z"}, {}], unreduced={"x", "y"}>)"))
      << out;
  EXPECT_TRUE(contains(out, "return %arg0 : tensor<8x4xf32>")) << out;
  EXPECT_TRUE(contains(
      out,
      R"(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2, "z"=2]>, [{"z"}, {}], unreduced={"y"}>})"))
      << out;
  EXPECT_FALSE(contains(out, "sdy.all_reduce")) << out;
  EXPECT_FALSE(contains(out, "sdy.mesh @m")) << out;
}

// Non-divisible boundary shardings are cut to dividing (sub-)axes, then open dimensions of the
// main function drop their sub-axes; everything ends closed.
TEST(ExportPipelineTest, BoundaryShardingsBecomeDivisibleWithoutSubAxes) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=4, "y"=4]>
func.func @main(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x", ?}, {"y", "x"}]>})
    -> (tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}, {"y"}]>}) {
  return %arg0 : tensor<2x8xf32>
}
)",
                        {"sdy-export-pipeline"});
  // Argument: {"x", ?} on size 2 -> {"x":(1)2, ?} -> {?} -> {}; {"y", "x"} on 8 -> {"y", "x":(1)2}
  // (closed, so the sub-axis stays).
  EXPECT_TRUE(contains(
      out,
      R"(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4, "y"=4]>, [{}, {"y", "x":(1)2}]>})"))
      << out;
  // Result: the closed dimension keeps its sub-axis.
  EXPECT_TRUE(contains(
      out,
      R"(-> (tensor<2x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4, "y"=4]>, [{"x":(1)2}, {"y"}]>}))"))
      << out;
}

// Without the full version only the reshards calls need are inserted, and nothing is lowered.
TEST(ExportPipelineTest, CallOperandsAreReshardedToCalleeShardings) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @callee(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)",
                        {"sdy-export-pipeline"});
  EXPECT_TRUE(
      contains(out, R"(%0 = sdy.reshard %arg0 <mesh<["x"=2, "y"=2]>, [{"y"}]> : tensor<8xf32>)"))
      << out;
  EXPECT_TRUE(contains(out, "%1 = call @callee(%0)")) << out;
}

TEST(ExportPipelineTest, FullVersionLowersReshardsToCollectives) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)",
                        {"sdy-export-pipeline=enable-insert-explicit-collectives=true"});
  EXPECT_TRUE(contains(out, "sdy.all_gather")) << out;
  EXPECT_FALSE(contains(out, "sdy.reshard")) << out;
}

// `avoid-export-for-partitioning` keeps the module ready for another propagation round: no
// constraint is turned into a reshard and no reshard is inserted; shardings are still closed.
TEST(ExportPipelineTest, AvoidExportForPartitioningKeepsConstraints) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}]>}) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@m, [{"x"}]> : tensor<8xf32>
  sdy.sharding_group %0 group_id=0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)",
                        {"sdy-export-pipeline=avoid-export-for-partitioning=true"});
  EXPECT_TRUE(contains(out, "sdy.sharding_constraint")) << out;
  EXPECT_TRUE(contains(out, "sdy.sharding_group")) << out;
  EXPECT_FALSE(contains(out, "sdy.reshard")) << out;
  EXPECT_TRUE(contains(out, R"(#sdy.sharding<mesh<["x"=2]>, [{}]>)")) << out;
}

TEST(ExportPipelineTest, ShardingRulesAreDroppedUnlessKept) {
  constexpr std::string_view kText = R"(
sdy.mesh @m = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  EXPECT_FALSE(contains(run(kText, {"sdy-export-pipeline"}), "sdy.sharding_rule"));
  EXPECT_TRUE(
      contains(run(kText, {"sdy-export-pipeline=keep-sharding-rules=true"}), "sdy.sharding_rule"));
  EXPECT_FALSE(contains(run(kText, {"sdy-drop-sharding-rules"}), "sdy.sharding_rule"));
}

// Closing covers both sides of a manual computation: its in/out shardings lose replicated axes
// (manual ones included) and open dimensions, keep unreduced axes.
TEST(ExportPipelineTest, ClosingCoversManualComputations) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"x", ?}], replicated={"y"}>] out_shardings=[<@m, [{"x", ?}], replicated={"y"}, unreduced={"z"}>] manual_axes={"y"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)",
                        {"sdy-export-pipeline=avoid-export-for-partitioning=true"});
  EXPECT_TRUE(contains(out, R"(in_shardings=[<mesh<["x"=2, "y"=2, "z"=2]>, [{"x"}]>])")) << out;
  EXPECT_TRUE(
      contains(out, R"(out_shardings=[<mesh<["x"=2, "y"=2, "z"=2]>, [{"x"}], unreduced={"z"}>])"))
      << out;
}

TEST(ExportPassTest, RemoveSubAxesOnlyTouchesOpenDimsOfMain) {
  std::string out = run(R"(
sdy.mesh @m = <["x"=4, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", "x":(1)2, "x":(2)2, ?}, {"x":(1)2}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2, ?}, {}], replicated={"y"}>}) {
  %0 = call @g(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @g(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2, ?}, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
)",
                        {"sdy-remove-sub-axes-in-input-output-shardings"});
  EXPECT_TRUE(contains(
      out, R"(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"y", ?}, {"x":(1)2}]>})"))
      << out;
  EXPECT_TRUE(contains(
      out,
      R"(-> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {}], replicated={"y"}>}))"))
      << out;
  // Only the main function is updated.
  EXPECT_TRUE(contains(
      out, R"(@g(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2, ?}, {}]>})"))
      << out;
}

TEST(ExportPassTest, InlineMeshesRewritesEveryShardingAndErasesMeshes) {
  std::string out = run(R"(
sdy.mesh @a = <["x"=2]>
sdy.mesh @b = <["y"=2], device_ids=[1, 0]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@b, [{}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@b, [{"y"}]>]>} : tensor<8xf32>
  %1 = sdy.reshard %0 <@b, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)",
                        {"sdy-inline-meshes"});
  EXPECT_FALSE(contains(out, "sdy.mesh")) << out;
  EXPECT_FALSE(contains(out, "@a")) << out;
  EXPECT_FALSE(contains(out, "@b")) << out;
  EXPECT_TRUE(contains(out, R"(#sdy.sharding<mesh<["x"=2]>, [{"x"}]>)")) << out;
  EXPECT_TRUE(
      contains(out, R"(#sdy.sharding_per_value<[<mesh<["y"=2], device_ids=[1, 0]>, [{"y"}]>]>)"))
      << out;
  EXPECT_TRUE(contains(out, R"(sdy.reshard %0 <mesh<["y"=2], device_ids=[1, 0]>, [{}]>)")) << out;
}

TEST(ExportPassTest, RemoveShardingGroups) {
  std::string out = run(R"(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  sdy.sharding_group %arg0 group_id=3 : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}
)",
                        {"sdy-remove-sharding-groups"});
  EXPECT_FALSE(contains(out, "sdy.sharding_group")) << out;
}

} // namespace
