// Tests of -sdy-insert-explicit-reshards on small programs: pointwise conflicts, transposes,
// function returns, reshapes, need-replication factors, unreduced axes, single-device ops,
// data-flow ops and calls, and ops the pass leaves alone.
#include "core/io/mlir/mlir.h"
#include "core/partition/explicit_reshards_unreduced.h"
#include "core/partition/insert_explicit_reshards.h"
#include "core/sharding/mesh_view.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

std::string run(const std::string& source, bool fullVersion = true) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(source, 1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  partition::InsertExplicitReshardsOptions options;
  options.enableFullVersion = fullVersion;
  EXPECT_TRUE(partition::insertExplicitReshards(*module, options, sink));
  return io::mlir::printModule(*module);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* kAdd = R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
)";

} // namespace

TEST(InsertExplicitReshards, PointwiseTakesTheMostCommonFactorShardings) {
  std::string out = run(kAdd);
  EXPECT_TRUE(has(out, R"(sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]>)")) << out;
  EXPECT_TRUE(has(out, R"(sdy.reshard %arg1 <@mesh, [{"x"}, {"y"}]>)")) << out;
  EXPECT_TRUE(has(
      out,
      R"(stablehlo.add %0, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>})"))
      << out;
  EXPECT_TRUE(has(out, R"(sdy.reshard %2 <@mesh, [{}, {"y"}]>)")) << out;
  EXPECT_TRUE(has(out, "return %3")) << out;
}

TEST(InsertExplicitReshards, DoesNothingWithoutFullVersion) {
  std::string out = run(kAdd, /*fullVersion=*/false);
  EXPECT_FALSE(has(out, "sdy.reshard")) << out;
}

TEST(InsertExplicitReshards, UnaryKeepsTheMoreShardedTensor) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
)");
  EXPECT_TRUE(has(
      out,
      R"(stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>})"))
      << out;
  EXPECT_TRUE(has(out, R"(sdy.reshard %0 <@mesh, [{}, {"y"}]>)")) << out;
}

TEST(InsertExplicitReshards, ReturnIsReshardedToTheFunctionResultSharding) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  return %arg0 : tensor<8x16xf32>
}
)");
  EXPECT_TRUE(has(out, R"(sdy.reshard %arg0 <@mesh, [{}, {"x"}]>)")) << out;
}

TEST(InsertExplicitReshards, LeavesOpsOnMeshesWithDifferentAxesUnchanged) {
  std::string out = run(R"(sdy.mesh @mesh1 = <["x"=4]>
sdy.mesh @mesh2 = <["y"=4]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh1, [{"x"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh2, [{"y"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  EXPECT_FALSE(has(out, "sdy.reshard %arg0")) << out;
  EXPECT_TRUE(has(
      out,
      R"(stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh2, [{"y"}]>]>})"))
      << out;
}

// 6x2 -> 12 with the result on {"x", "y"}: "x"=4 overflows the major factor (6), so the axes
// are redistributed: 6 takes "x":(1)2, 2 takes "x":(2)2, and "y" has no room left. The merged
// side can only keep "x":(1)2 (its major factor isn't full), and that is what both agree on.
TEST(InsertExplicitReshards, ReshapeWithOverflowAxesKeepsWhatBothSidesCanShard) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}]>]>} : (tensor<6x2xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}
)");
  EXPECT_TRUE(has(out, R"(%0 = sdy.reshard %arg0 <@mesh, [{"x":(1)2}, {}]>)")) << out;
  EXPECT_TRUE(has(
      out,
      R"(stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x":(1)2}]>]>})"))
      << out;
  EXPECT_TRUE(has(out, R"(%2 = sdy.reshard %1 <@mesh, [{"x", "y"}]>)")) << out;
}

TEST(InsertExplicitReshards, ShardedContractingDimIsAllReducedAfterTheDot) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}, %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
)");
  EXPECT_TRUE(has(out, R"(sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}]>)")) << out;
  EXPECT_TRUE(has(out, "return %1")) << out;
}

// A reshape merging dims [j, k] into one: the candidate heuristic gives "x" to the batch factor
// (largest tensors, no dependency) and "y" to j (fills it exactly); k depends on j and would need
// "x" again, so it stays unsharded.
TEST(InsertExplicitReshards, ReshapeSplitsAxesAcrossTheFactorsOfAMergedDimension) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<16x2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y", "x"}]>}) {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y", "x"}]>]>} : (tensor<16x2x4xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
)");
  EXPECT_TRUE(has(out, R"(sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}, {}]>)")) << out;
  EXPECT_TRUE(has(out, R"(sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>)")) << out;
  EXPECT_TRUE(has(out, R"(sdy.reshard %1 <@mesh, [{}, {"y", "x"}]>)")) << out;
}

// Cholesky's matrix dims need replication: the axis sharding one moves to the first batch dim.
TEST(InsertExplicitReshards, NeedReplicationAxesMoveToABatchingDimension) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<8x4x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {"x"}]>}) -> tensor<8x4x8x8xf32> {
  %0 = stablehlo.cholesky %arg0, lower = true : tensor<8x4x8x8xf32>
  return %0 : tensor<8x4x8x8xf32>
}
)");
  EXPECT_TRUE(has(out, R"(sdy.reshard %arg0 <@mesh, [{"x"}, {}, {}, {}]>)")) << out;
  EXPECT_TRUE(has(out, R"(sdy.reshard %1 <@mesh, [{}, {}, {}, {}]>)")) << out;
}

// A partial sum over "y" consumed by an op that has no sharding is all-reduced before it.
TEST(InsertExplicitReshards, UnreducedOperandIsAllReducedBeforeItsUser) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
)");
  EXPECT_TRUE(has(out, R"(sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{}, {}]>)")) << out;
  EXPECT_TRUE(has(out, "stablehlo.multiply %0, %arg1")) << out;
}

// The reduction dim is sharded by "x", "y"; the result keeps "x" unreduced, so only "y" is
// all-reduced, and the all-reduce keeps "x" unreduced.
TEST(InsertExplicitReshards, ReductionAxesKeptUnreducedAreNotAllReduced) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<2x64x13xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x", "y"}, {}]>}) -> (tensor<2x13xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  %0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>
  return %1 : tensor<2x13xf32>
}
)");
  EXPECT_TRUE(
      has(out, R"(sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {}], unreduced={"x"}>)"))
      << out;
  EXPECT_FALSE(has(out, "sdy.reshard")) << out;
}

// Dropping "x" from a dimension into the unreduced axes is a sharded-to-unreduced collective.
TEST(InsertExplicitReshards, ReshardToMoreUnreducedAxesBecomesShardedToUnreduced) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x"}>}) {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}], unreduced={"x"}> : tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
)");
  EXPECT_TRUE(has(
      out,
      R"(sdy.sharded_to_unreduced [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x"}>)"))
      << out;
  EXPECT_FALSE(has(out, "sdy.reshard")) << out;
}

// A single-device op gathers its sharded operand (replicate, then move to the device) and
// replicates its result back on the module's mesh.
TEST(InsertExplicitReshards, SingleDeviceOpGathersOperandsAndReplicatesResults) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=2]>
sdy.mesh @dev0 = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.custom_call @Foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>]>} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
)");
  EXPECT_TRUE(has(out, R"(%0 = sdy.reshard %arg0 <@mesh, [{}, {}]>)")) << out;
  EXPECT_TRUE(has(out, R"(%1 = sdy.reshard %0 <@dev0, []>)")) << out;
  EXPECT_TRUE(has(out, R"(%3 = sdy.reshard %2 <@mesh, [{}, {}]>)")) << out;
  EXPECT_TRUE(has(out, "return %3")) << out;
}

TEST(InsertExplicitReshards, SingleDeviceFunctionArgumentIsAnError) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(sdy.mesh @dev0 = <[], device_ids=[0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@dev0, []>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)",
                                      1, sink);
  ASSERT_TRUE(module);
  partition::InsertExplicitReshardsOptions options;
  options.enableFullVersion = true;
  EXPECT_FALSE(partition::insertExplicitReshards(*module, options, sink));
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_TRUE(has(sink.diagnostics().back().message,
                  "function argument 0 cannot have a single-device (maximal) sharding attribute"));
}

// The value flowing into a while loop is resharded to the loop's sharding where it is defined.
TEST(InsertExplicitReshards, WhileOperandIsReshardedToTheLoopSharding) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<8xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>, <@mesh, []>]>}
    cond {
    %1 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8xf32>
}
)");
  EXPECT_TRUE(has(out, R"(%0 = sdy.reshard %arg0 <@mesh, [{"y"}]>)")) << out;
  EXPECT_TRUE(has(out, "stablehlo.while(%iterArg = %0")) << out;
}

// A call operand is resharded to the callee's argument sharding, even without the full version.
TEST(InsertExplicitReshards, CallOperandTakesTheCalleeArgumentSharding) {
  std::string out = run(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = call @g(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
)",
                        /*fullVersion=*/false);
  EXPECT_TRUE(has(out, R"(%0 = sdy.reshard %arg0 <@mesh, [{"y"}]>)")) << out;
  EXPECT_TRUE(has(out, "call @g(%0)")) << out;
}

TEST(InsertExplicitReshards, AxisSetDifferenceSplitsPartlyCoveredAxes) {
  ir::Mesh mesh{{{"x", 4}, {"y", 2}}, {}};
  sharding::MeshView view(mesh);
  std::vector<ir::AxisRef> a{{"x", std::nullopt}, {"y", std::nullopt}};
  std::vector<ir::AxisRef> b{{"x", ir::SubAxisInfo{1, 2}}};
  std::vector<ir::AxisRef> expected{{"x", ir::SubAxisInfo{2, 2}}, {"y", std::nullopt}};
  EXPECT_EQ(partition::axisSetDiff(a, b, view), expected);
}
