// Tests of -sdy-reshard-to-collectives: the pure planner on axis lists, and the pass on small
// programs whose expected text is what sdy_opt prints.
#include "core/io/mlir/mlir.h"
#include "core/partition/reshard_plan.h"
#include "core/partition/reshard_to_collectives.h"

#include <gtest/gtest.h>

using namespace shardscope;
using partition::CollectiveStep;
using partition::DimAxes;

namespace {

ir::AxisRef ax(std::string name) { return ir::AxisRef{std::move(name), std::nullopt}; }

const ir::Mesh& mesh3d() {
  static const ir::Mesh mesh{{{"x", 2}, {"y", 2}, {"z", 2}}, {}};
  return mesh;
}

struct PassRun {
  std::string printed;
  std::vector<partition::InsertedCollective> log;
};

PassRun runPass(std::string_view body, bool keepRedundant = false) {
  std::string source = "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n" + std::string(body);
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(source, 1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  PassRun run;
  EXPECT_TRUE(partition::reshardToCollectives(*module, {keepRedundant}, sink, &run.log));
  run.printed = io::mlir::printModule(*module);
  return run;
}

constexpr std::string_view kGather = R"(
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y", "z"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
)";

std::vector<CollectiveStep> plan(const DimAxes& from, const DimAxes& to,
                                 const sharding::MeshView& mesh) {
  static const int64_t kShape[] = {16, 16, 16};
  return partition::planReshardCollectives(from, to, std::span(kShape, from.size()), mesh);
}

} // namespace

TEST(ReshardPlan, GathersMinorAxes) {
  sharding::MeshView mesh(mesh3d());
  auto steps = plan({{ax("x"), ax("y")}, {}}, {{ax("x")}, {}}, mesh);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, CollectiveStep::Kind::AllGather);
  EXPECT_EQ(steps[0].axes, (DimAxes{{ax("y")}, {}}));
  EXPECT_EQ(steps[0].result, (DimAxes{{ax("x")}, {}}));
}

TEST(ReshardPlan, SlicesThenMovesAxesWithAllToAll) {
  sharding::MeshView mesh(mesh3d());
  auto steps = plan({{}, {ax("y")}, {}}, {{ax("x")}, {}, {ax("y")}}, mesh);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].kind, CollectiveStep::Kind::AllSlice);
  EXPECT_EQ(steps[1].kind, CollectiveStep::Kind::AllToAll);
  EXPECT_EQ(steps[1].params[0].srcDim, 1);
  EXPECT_EQ(steps[1].params[0].tgtDim, 2);
}

TEST(ReshardPlan, SwapsAxesWithCollectivePermute) {
  sharding::MeshView mesh(mesh3d());
  auto steps = plan({{ax("x")}, {ax("y")}}, {{ax("y")}, {ax("x")}}, mesh);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, CollectiveStep::Kind::CollectivePermute);
}

TEST(ReshardPlan, OtherDeviceOrderTakesACollectivePermute) {
  sharding::MeshView mesh(mesh3d());
  auto steps = partition::planReshardCollectives({{ax("x")}}, {{ax("x")}},
                                                 std::vector<int64_t>{16}, mesh, true);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].kind, CollectiveStep::Kind::CollectivePermute);
  EXPECT_TRUE(steps[0].onTargetMesh);
}

TEST(ReshardPlan, SplitsAxisToGatherItsMinorPart) {
  static const ir::Mesh kMesh{{{"y", 8}}, {}};
  sharding::MeshView mesh(kMesh);
  ir::AxisRef major{"y", ir::SubAxisInfo{1, 4}};
  auto steps = plan({{ax("y")}}, {{major}}, mesh);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].axes, (DimAxes{{ir::AxisRef{"y", ir::SubAxisInfo{4, 2}}}}));
  EXPECT_EQ(steps[0].result, (DimAxes{{major}}));
}

TEST(ReshardPlan, SameShardingNeedsNothing) {
  sharding::MeshView mesh(mesh3d());
  EXPECT_TRUE(plan({{ax("x")}, {}}, {{ax("x")}, {}}, mesh).empty());
}

TEST(ReshardToCollectives, ReplacesReshardWithAllGather) {
  PassRun run = runPass(kGather);
  EXPECT_NE(run.printed.find(
                R"(sdy.all_gather [{"y", "z"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>)"),
            std::string::npos)
      << run.printed;
  EXPECT_EQ(run.printed.find("sdy.reshard"), std::string::npos);
  ASSERT_EQ(run.log.size(), 1u);
  EXPECT_FALSE(run.log[0].reason.empty());
}

TEST(ReshardToCollectives, KeepsRedundantReshardOnlyWhenAsked) {
  constexpr std::string_view kRedundant = R"(
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
)";
  EXPECT_EQ(runPass(kRedundant).printed.find("sdy.reshard"), std::string::npos);
  EXPECT_NE(runPass(kRedundant, true).printed.find("sdy.reshard"), std::string::npos);
}

TEST(ReshardToCollectives, RecordsWhoNeededEachCollective) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
})",
                                      1, sink);
  ASSERT_TRUE(module);
  std::vector<partition::InsertedCollective> log;
  ASSERT_TRUE(partition::reshardToCollectives(*module, {}, sink, &log));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_TRUE(log[0].op->is("sdy.all_gather"));
  EXPECT_EQ(log[0].producerSharding, R"(#sdy.sharding<@mesh, [{"x"}, {"y"}]>)");
  EXPECT_EQ(log[0].neededSharding, R"(#sdy.sharding<@mesh, [{"x"}, {}]>)");
  ASSERT_TRUE(log[0].producer && log[0].consumer);
  EXPECT_TRUE(log[0].producer->is("stablehlo.negate"));
  EXPECT_TRUE(log[0].consumer->is("stablehlo.abs"));
}
