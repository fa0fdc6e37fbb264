// The ring cost model on collectives whose byte counts are worked out by hand in each test.
#include "core/analysis/collective_cost.h"

#include "tests/core/analysis/analysis_test_util.h"

using namespace shardscope;
using namespace shardscope::analysis;
using namespace shardscope::analysis::testing;

namespace {

std::vector<CollectiveCost> costsOf(const ir::Module& module) {
  return collectiveCosts(module).collectives;
}

} // namespace

TEST(CollectiveCostTest, AllGatherAlongTwoAxesComposesRings) {
  // tensor<16x4xf32> sharded on x(2), y(4) along dim 0: each device holds 2x4 f32 = 32 bytes.
  // Along x a ring of 2 passes 1 block (32 B); along y a ring of 4 passes 3 blocks of the
  // x-gathered 64 B (192 B): 224 B = (8 - 1) * 32 B.
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%arg0: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x4xf32> {
  %0 = sdy.all_gather [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
})");
  ASSERT_TRUE(module);
  auto costs = costsOf(*module);
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_EQ(costs[0].kind, "all_gather");
  EXPECT_EQ(costs[0].groupSize, 8);
  EXPECT_EQ(costs[0].numGroups, 1);
  EXPECT_EQ(costs[0].operandBytes, 32);
  EXPECT_EQ(costs[0].resultBytes, 256);
  EXPECT_EQ(costs[0].bytesSent, 224);
  EXPECT_EQ(costs[0].perAxis, (std::vector<AxisTraffic>{{"x", 32}, {"y", 192}}));
}

TEST(CollectiveCostTest, AllReduceAndAllSliceOnAGlobalProgram) {
  // all_reduce over y (4 devices) of a 8x8 f32 block sharded on x: 4x8 f32 = 128 B per device;
  // a ring all-reduce sends 2 * 3/4 * 128 = 192 B. all_slice is local: 0 B.
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], unreduced={"y"}>}) -> tensor<8x8xf32> {
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{}, {"y"}] %0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
})");
  ASSERT_TRUE(module);
  CostSummary summary = collectiveCosts(*module);
  ASSERT_EQ(summary.collectives.size(), 2u);
  EXPECT_EQ(summary.collectives[0].kind, "all_reduce");
  EXPECT_EQ(summary.collectives[0].groupSize, 4);
  EXPECT_EQ(summary.collectives[0].numGroups, 2);
  EXPECT_EQ(summary.collectives[0].bytesSent, 192);
  EXPECT_EQ(summary.collectives[1].kind, "all_slice");
  EXPECT_EQ(summary.collectives[1].bytesSent, 0);
  EXPECT_EQ(summary.totalBytesSent, 192);
  EXPECT_EQ(summary.perAxis, (std::vector<AxisTraffic>{{"y", 192}}));
}

TEST(CollectiveCostTest, ShardMapMatmulPsumAndPsumScatterOverJ) {
  // The shard_map seed: each device's partial sum is f32[2, 32] = 256 B, reduced over 'j' (2
  // devices): psum sends 2 * 1/2 * 256 = 256 B, psum_scatter 1/2 * 256 = 128 B.
  auto module = parse(readTestData("shard_map/matmul.mlir"));
  ASSERT_TRUE(module);
  auto costs = costsOf(*module);
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_EQ(costs[0].kind, "all_reduce");
  EXPECT_EQ(costs[0].axes, std::vector<std::string>{"j"});
  EXPECT_EQ(costs[0].groupSize, 2);
  EXPECT_EQ(costs[0].numGroups, 4);
  EXPECT_EQ(costs[0].bytesSent, 256);
  EXPECT_EQ(costs[1].kind, "reduce_scatter");
  EXPECT_EQ(costs[1].bytesSent, 128);
  EXPECT_EQ(costs[1].resultBytes, 128);
}

TEST(CollectiveCostTest, PermuteSelfLoopsAndMissingGroups) {
  // A ring shift of 4 f32 (16 B): every device sends its block once. A permute whose pairs are
  // all self-loops moves nothing. An all_gather without groups (every device) of 2 -> 8 elements
  // is a group of 4: 3 * 8 B sent.
  auto module = parse(R"(
func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) {
  %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, replica_groups = dense<> : tensor<0x0xi64>}> : (tensor<2xf32>) -> tensor<8xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>
})");
  ASSERT_TRUE(module);
  auto costs = costsOf(*module);
  ASSERT_EQ(costs.size(), 3u);
  EXPECT_EQ(costs[0].bytesSent, 16);
  EXPECT_EQ(costs[0].numGroups, 4);
  EXPECT_EQ(costs[1].bytesSent, 0);
  EXPECT_EQ(costs[2].groupSize, 4);
  EXPECT_EQ(costs[2].bytesSent, 24);
  EXPECT_FALSE(costs[2].note.empty());
}

TEST(CollectiveCostTest, SmallReductionsStillMoveBytes) {
  // A psum of one f32 over 8 devices: a ring all-reduce sends 2 * 7/8 * 4 B = 7 B per device,
  // not 0 (the division comes last).
  auto module = parse(R"(
sdy.mesh @mesh = <["x"=8]>
func.func @f(%arg0: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, [], unreduced={"x"}>}) -> tensor<f32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, []> : tensor<f32>
  return %0 : tensor<f32>
})");
  ASSERT_TRUE(module);
  auto costs = costsOf(*module);
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_EQ(costs[0].bytesSent, 7);
}
