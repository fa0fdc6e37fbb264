// Tests of writing Shardy's round-trip form: shard maps outlined between shape custom calls,
// shardings as frontend attribute strings, result shardings on `@xla.sdy.FuncResultSharding`,
// mesh lifting and dedup, and export followed by import giving the program back. Expected text
// follows XLA's `sdy_round_trip_shard_map_export.mlir`, `sdy_round_trip_export_pipeline.mlir`
// and `sdy_round_trip_import_pipeline_lift_and_dedup_meshes.mlir` tests.
#include "core/import/round_trip/dedup_meshes.h"
#include "core/import/round_trip/round_trip_export.h"
#include "core/import/round_trip/round_trip_import.h"
#include "tests/core/import/round_trip/round_trip_test_util.h"

using namespace shardscope;
using test::contains;

namespace {

constexpr std::string_view kShardMap = R"(sdy.mesh @mesh_0 = <["a"=4, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"a"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{}, {"b"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_0, [{"a"}, {}]>] out_shardings=[<@mesh_0, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<2x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<2x8xf32>
    sdy.return %1 : tensor<2x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

TEST(RoundTripExportTest, ShardMapBecomesCallBetweenShapeCalls) {
  auto run = test::runPass(import_::exportShardMaps, kShardMap);
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(
      run.printed,
      "%0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {has_side_effect = true, "
      "mhlo.frontend_attributes = {xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh_0, "
      "[{\\22a\\22}, {}]>]>\", xla.sdy.manual_axes = \"#sdy<manual_axes{\\22a\\22}>\"}} : "
      "(tensor<8x8xf32>) -> tensor<2x8xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "%1 = call @xla.sdy.manual_computation_body(%0) : "
                                    "(tensor<2x8xf32>) -> tensor<2x8xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed,
                       "%2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) "
                       "{mhlo.frontend_attributes = {xla.sdy.manual_axes = "
                       "\"#sdy<manual_axes{\\22a\\22}>\", xla.sdy.out_shardings = "
                       "\"#sdy.sharding_per_value<[<@mesh_0, [{\\22a\\22}, {}]>]>\"}} : "
                       "(tensor<2x8xf32>) -> tensor<8x8xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "func.func @xla.sdy.manual_computation_body(%arg0: "
                                    "tensor<2x8xf32>) -> tensor<2x8xf32> {\n    %0 = "
                                    "stablehlo.abs %arg0 : tensor<2x8xf32>\n    return %0"))
      << run.printed;
}

TEST(RoundTripExportTest, AttributesBecomeStringsAndResultShardingsCustomCalls) {
  auto run = test::runPass(import_::exportShardyAttrs, R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p4]>}) {
  %0 = stablehlo.custom_call @foo(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "module attributes {mhlo.frontend_attributes = "
                                    "{xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\22x\\22=2]>}\"}}"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "{mhlo.frontend_attributes = {xla.sdy.sharding = "
                                    "\"#sdy.sharding<@mesh, [{\\22x\\22}]>\"}, sdy.sharding = "))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "xla.sdy.sharding_rule = \"#sdy.op_sharding_rule<([i])->([i]) "
                                    "{i=8}, custom>\""))
      << run.printed;
  EXPECT_TRUE(contains(run.printed,
                       "%1 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%0) "
                       "{has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "
                       "\"#sdy.sharding_per_value<[<@mesh, [{\\22x\\22, ?}p4]>]>\"}} : "
                       "(tensor<8xf32>) -> tensor<8xf32>\n    return %1"))
      << run.printed;
}

TEST(RoundTripExportTest, ExportThenImportGivesTheProgramBack) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(kShardMap, 1, sink);
  ASSERT_TRUE(module);
  std::string before = io::mlir::printModule(*module);
  ASSERT_TRUE(import_::runRoundTripExport(*module, import_::RoundTripExportOptions{}, sink));
  EXPECT_TRUE(import_::hasSdyRoundTripAttrs(*module));
  EXPECT_FALSE(contains(io::mlir::printModule(*module), "sdy.mesh @")) << "meshes are dropped";
  ASSERT_TRUE(import_::importSdyRoundTripProgram(*module, sink))
      << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  EXPECT_EQ(io::mlir::printModule(*module), before);
}

TEST(DedupMeshesTest, LiftedMeshesFoldIntoTheFirstWithTheSameDevices) {
  auto run = test::runPass(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::liftInlinedMeshes(m, s) && import_::dedupMeshes(m, s);
      },
      R"(func.func @f(%arg0: tensor<32xi32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}]>}) -> (tensor<32xi32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[0]>, []>}) {
  %0 = sdy.sharding_constraint %arg0 <mesh<["c"=4]>, [{"c"}]> : tensor<32xi32>
  return %0 : tensor<32xi32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n  sdy.mesh "
                                    "@maximal_mesh_0 = <[], device_ids=[0]>\n  func.func"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "sdy.sharding_constraint %arg0 <@mesh, [{\"a\", \"b\"}]>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "#sdy.sharding<@maximal_mesh_0, []>")) << run.printed;
}

TEST(DedupMeshesTest, AxesMapToSubAxesOfTheMainMesh) {
  // From XLA's export test: "x"=8, "y"=4 folds into "axis_0"=2, "axis_1"=4, "axis_2"=4.
  auto run = test::runPass(import_::dedupMeshes, R"(sdy.mesh @mesh_0 = <["axis_0"=2, "axis_1"=4, "axis_2"=4]>
sdy.mesh @mesh_2 = <["x"=8, "y"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"y"}, {"x":(2)2}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_2, [{"x":(1)2, "x":(4)2}, {}]>}) {
  return %arg0 : tensor<8x8xf32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_FALSE(contains(run.printed, "@mesh_2")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "#sdy.sharding<@mesh_0, [{\"axis_2\"}, {\"axis_1\":(1)2}]>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed,
                       "#sdy.sharding<@mesh_0, [{\"axis_0\", \"axis_1\":(2)2}, {}]>"))
      << run.printed;
}

} // namespace

#include "core/import/round_trip/unflatten_call_graph.h"

namespace {

TEST(UnflattenCallGraphTest, CallsOfTheSameOriginShareOneFunctionAgain) {
  // From XLA's `unflatten_call_graph_dedup_functions_fully_true.mlir`
  // (`multiple_same_calls_same_shardings`, `single_call_no_func_input_sharding`).
  auto run = test::runPass(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::unflattenCallGraph(m, /*dedupFunctionsFully=*/true, s);
      },
      R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x2xi32> {
  %0 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %1 = call @baz_0(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %1 : tensor<8x2xi32>
}
func.func private @baz(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0 : tensor<8x2xi32>
}
func.func private @baz_0(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) attributes {sdy.original_func_name = "baz"} {
  return %arg0 : tensor<8x2xi32>
}
)");
  ASSERT_TRUE(run.ok);
  // %arg0 is sharded [{}, {"y"}] but @baz expects [{}, {}]: a copy carries the expected one.
  EXPECT_TRUE(contains(run.printed, "mhlo.copy %arg0 {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "%1 = call @baz(%0)")) << run.printed;
  // The first call's result is sharded [{"x"}, {}]: the second call copies it too.
  EXPECT_TRUE(contains(run.printed, "%2 = mhlo.copy %1 ")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "%3 = call @baz(%2)")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "call @baz_0")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "original_func_name")) << run.printed;
}

} // namespace

namespace {

TEST(UnflattenCallGraphTest, CallsKeepTheirManualAxes) {
  // XLA's pass drops `xla.sdy.manual_axes` from functions only; calls inside a manual
  // computation keep it (`calls_same_func_with_manual_axes` in
  // `unflatten_call_graph_dedup_functions_fully_true.mlir`).
  auto run = test::runPass(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::unflattenCallGraph(m, /*dedupFunctionsFully=*/true, s);
      },
      R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @foo(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @foo(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) attributes {xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} {
  return %arg0 : tensor<4xf32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "func.call @foo(%arg1) {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{\"y\"}]>]>, "
                                    "xla.sdy.manual_axes = #sdy<manual_axes{\"x\"}>}"))
      << run.printed;
  EXPECT_FALSE(contains(run.printed, "attributes {xla.sdy.manual_axes")) << run.printed;
}

} // namespace

namespace {

TEST(UnflattenCallGraphTest, ManualComputationResultHasItsOutSharding) {
  // As Shardy's `getSharding`: the manual computation's result is sharded [{"x", "y"}] (its out
  // sharding), @bar expects [{"y"}], so a copy reshards it (`calls_same_funcs_with_manual_axes_one_
  // without` in `unflatten_call_graph_dedup_functions_fully_true.mlir`).
  auto run = test::runPass(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::unflattenCallGraph(m, /*dedupFunctionsFully=*/true, s);
      },
      R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @bar(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @bar(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  return %arg0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "%1 = mhlo.copy %0 {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{\"y\"}]>]>}"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "call @bar(%1)")) << run.printed;
}

} // namespace

namespace {

TEST(UnflattenCallGraphTest, CopiesForACallInAManualComputationKeepItsManualAxes) {
  // The kept @foo returns [{"y"}]; the call to @foo_0 had [{}], so its result is copied back to
  // [{}], carrying the call's manual axes (as in XLA's
  // `unflatten_call_graph_dedup_functions_fully_true.mlir`).
  auto run = test::runPass(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::unflattenCallGraph(m, /*dedupFunctionsFully=*/true, s);
      },
      R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @foo(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = func.call @foo(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = func.call @foo_0(%2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %3 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @foo(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  return %arg0 : tensor<4xf32>
}
func.func private @foo_0(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) attributes {sdy.original_func_name = "foo"} {
  return %arg0 : tensor<4xf32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "mhlo.copy %3 {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{}]>]>, "
                                    "xla.sdy.manual_axes = #sdy<manual_axes{\"x\"}>}"))
      << run.printed;
}

} // namespace

namespace {

TEST(UnflattenCallGraphTest, KeptFunctionWithoutResultShardingReturnsClosedReplicated) {
  // `single_call_func_result_empty_sharding_call_has_sharding` in XLA's
  // `unflatten_call_graph_dedup_functions_fully_true.mlir`: @baz has no result sharding, so the
  // call gets [{}, {}] and a copy gives back the [{}, {"y"}] it had.
  auto run = test::runPass(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::unflattenCallGraph(m, /*dedupFunctionsFully=*/true, s);
      },
      R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x2xi32> {
  %0 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}
func.func private @baz(%arg0: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x2xi32> {
  return %arg0 : tensor<8x2xi32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "%0 = call @baz(%arg0) {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "%1 = mhlo.copy %0 {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{}, {\"y\"}]>]>}"))
      << run.printed;
}

} // namespace
