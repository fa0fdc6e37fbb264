// Tests of the shard_map import (calls of `xla.sdy.manual_computation_body` functions between
// shape custom calls become `sdy.manual_computation`s), its failures with XLA's messages, and the
// cloning of shared bodies. Expected text follows XLA's `sdy_round_trip_shard_map_import*.mlir`
// and `sdy_round_trip_clone_manual_computation_calls.mlir` tests.
#include "core/import/round_trip/clone_manual_computation_calls.h"
#include "core/import/round_trip/shard_map_import.h"
#include "tests/core/import/round_trip/round_trip_test_util.h"

using namespace shardscope;
using test::contains;

namespace {

constexpr std::string_view kSingle = R"(sdy.mesh @mesh_0 = <["a"=4, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh_0, [{\22a\22}, {}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %1 = call @my.xla.sdy.manual_computation_body_14(%0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh_0, [{\22a\22}, {}]>]>"}} : (tensor<2x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
func.func @my.xla.sdy.manual_computation_body_14(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
)";

TEST(ShardMapImportTest, CallBetweenShapeCallsBecomesManualComputation) {
  auto run = test::runPass(import_::importShardMaps, kSingle);
  ASSERT_TRUE(run.ok) << (run.diagnostics.empty() ? "" : run.diagnostics[0].message);
  EXPECT_TRUE(contains(run.printed,
                       "%0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_0, [{\"a\"}, "
                       "{}]>] out_shardings=[<@mesh_0, [{\"a\"}, {}]>] manual_axes={\"a\"} "
                       "(%arg1: tensor<2x8xf32>) {\n"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.multiply %arg1, %arg1 : tensor<2x8xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "sdy.return %1 : tensor<2x8xf32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "} : (tensor<8x8xf32>) -> tensor<8x8xf32>")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "custom_call")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "manual_computation_body")) << run.printed;
}

TEST(ShardMapImportTest, SharedBodyIsXlasError) {
  auto run = test::runPass(import_::importShardMaps, R"(
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) : (tensor<8x8xf32>) -> (tensor<2x8xf32>)
  %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<2x8xf32>) -> (tensor<2x8xf32>)
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) : (tensor<2x8xf32>) -> (tensor<8x8xf32>)
  %3 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%2) : (tensor<8x8xf32>) -> (tensor<2x8xf32>)
  %4 = call @xla.sdy.manual_computation_body(%3) : (tensor<2x8xf32>) -> (tensor<2x8xf32>)
  %5 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%4) : (tensor<2x8xf32>) -> (tensor<8x8xf32>)
  return %5 : tensor<8x8xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  return %arg0 : tensor<2x8xf32>
}
)");
  EXPECT_FALSE(run.ok);
  ASSERT_EQ(run.diagnostics.size(), 2u);
  EXPECT_EQ(run.diagnostics[0].loc.line, 7u);
  EXPECT_TRUE(contains(run.diagnostics[0].message,
                       "'func.call' op expected a unique FuncOp per "
                       "@xla.sdy.manual_computation_body call"))
      << run.diagnostics[0].message;
  EXPECT_TRUE(contains(run.diagnostics[1].message, "failed to legalize operation 'func.call'"));
}

TEST(ShardMapImportTest, MissingShapeCallsAreXlasErrors) {
  auto missingGlobalToLocal = test::runPass(import_::importShardMaps, R"(
func.func @f(%arg0: tensor<0x16xf32>) -> (tensor<0x16xf32>) {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<0x8xf32>
  %0 = call @xla.sdy.manual_computation_body(%c) : (tensor<0x8xf32>) -> tensor<0x8xf32>
  %1 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%0) : (tensor<0x8xf32>) -> (tensor<0x16xf32>)
  return %1 : tensor<0x16xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<0x8xf32>) -> tensor<0x8xf32> {
  return %arg0 : tensor<0x8xf32>
}
)");
  EXPECT_FALSE(missingGlobalToLocal.ok);
  ASSERT_FALSE(missingGlobalToLocal.diagnostics.empty());
  EXPECT_EQ(missingGlobalToLocal.diagnostics[0].message,
            "'func.call' op expected at least one operand of @xla.sdy.manual_computation_body to "
            "be produced by a xla.sdy.GlobalToLocalShape CustomCallOp");

  auto missingLocalToGlobal = test::runPass(import_::importShardMaps, R"(
func.func @f(%arg0: tensor<0x16xf32>) -> (tensor<0x16xf32>) {
  %c = stablehlo.constant dense<0.000000e+00> : tensor<0x16xf32>
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) : (tensor<0x16xf32>) -> tensor<0x8xf32>
  %1 = call @xla.sdy.manual_computation_body(%0) : (tensor<0x8xf32>) -> tensor<0x8xf32>
  return %c : tensor<0x16xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<0x8xf32>) -> tensor<0x8xf32> {
  return %arg0 : tensor<0x8xf32>
}
)");
  EXPECT_FALSE(missingLocalToGlobal.ok);
  ASSERT_FALSE(missingLocalToGlobal.diagnostics.empty());
  EXPECT_EQ(missingLocalToGlobal.diagnostics[0].message,
            "'func.call' op expected the first use of @xla.sdy.manual_computation_body to be by "
            "a xla.sdy.LocalToGlobalShape CustomCallOp");
}

TEST(CloneManualComputationCallsTest, SecondCallGetsItsOwnCopy) {
  auto run = test::runPass(import_::cloneManualComputationCalls, R"(
func.func @f(%arg0: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = call @xla.sdy.manual_computation_body(%arg0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = call @xla.sdy.manual_computation_body(%arg0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<2x8xf32>
}
func.func @xla.sdy.manual_computation_body(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
)");
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed, "%0 = call @xla.sdy.manual_computation_body(%arg0)"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "%1 = call @xla.sdy.manual_computation_body_0(%arg0)"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed,
                       "func.func @xla.sdy.manual_computation_body_0(%arg0: tensor<2x8xf32>) -> "
                       "tensor<2x8xf32> {\n    %0 = stablehlo.abs %arg0 : tensor<2x8xf32>\n"))
      << run.printed;
}

} // namespace

namespace {

TEST(ShardMapImportTest, ReadsTwiceEscapedAttributesOfOlderExportsFromTheCall) {
  // From XLA's `round_trip_pipeline_manual_computation.mlir`: the strings went through HLO twice.
  auto run = test::runPass(import_::importShardMaps, R"(sdy.mesh @mesh_1 = <["a"=4, "b"=2]>
func.func @main(%arg0: tensor<16x32xf32>) -> tensor<128x32xf32> {
  %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = call @xla.sdy.manual_computation_body(%0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh_1, [{}, {}], replicated={\\\22a\\\22, \\\22b\\\22}>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\\\22a\\\22, \\\22b\\\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh_1, [{\\\22a\\\22, \\\22b\\\22}, {}]>]>"}} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) : (tensor<16x32xf32>) -> tensor<128x32xf32>
  return %2 : tensor<128x32xf32>
}
func.func private @xla.sdy.manual_computation_body(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  return %arg0 : tensor<16x32xf32>
}
)");
  ASSERT_TRUE(run.ok) << (run.diagnostics.empty() ? "" : run.diagnostics[0].message);
  EXPECT_TRUE(contains(run.printed,
                       "sdy.manual_computation(%arg0) in_shardings=[<@mesh_1, [{}, {}], "
                       "replicated={\"a\", \"b\"}>] out_shardings=[<@mesh_1, [{\"a\", \"b\"}, "
                       "{}]>] manual_axes={\"a\", \"b\"} (%arg1: tensor<16x32xf32>) {"))
      << run.printed;
}

} // namespace
