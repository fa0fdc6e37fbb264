// Tests of the passes that lower a sharded program to the per-device one
// (-sdy-convert-global-to-local, -sdy-resolve-permutation-factors, -sdy-pad-for-divisibility,
// -sdy-resolve-single-device-sharding). Expected lines are derived by hand from Shardy's
// semantics: local shapes are ceil(dim / shards), replica groups list device ids (honouring
// `device_ids`) of the devices that differ only along the collective's axes, ordered by their
// index along those axes.
#include "core/io/mlir/mlir.h"
#include "core/partition/convert_global_to_local.h"
#include "core/partition/pad_for_divisibility.h"
#include "core/partition/resolve_permutation_factors.h"
#include "core/partition/resolve_single_device_sharding.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

struct LocalRun {
  std::unique_ptr<ir::Module> module; // keeps the ops `log` points to alive
  std::string printed;
  std::vector<partition::LoweredCollective> log;
  bool ok = false;
  std::string errors;
};

LocalRun convert(std::string_view source, partition::ConvertGlobalToLocalOptions options = {}) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(source, 1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  LocalRun run;
  run.ok = partition::convertGlobalToLocal(*module, options, sink, &run.log);
  run.printed = io::mlir::printModule(*module);
  run.module = std::move(module);
  for (const auto& d : sink.diagnostics())
    run.errors += d.message + "\n";
  return run;
}

bool contains(const std::string& text, std::string_view needle) {
  return text.find(needle) != std::string::npos;
}

} // namespace

TEST(ConvertGlobalToLocal, SignatureUsesLocalShapesWithPadding) {
  // 8 over x=2 -> 4; 7 over x=2 -> ceil(7/2) = 4 (the last block is padded); 16 over y=4 -> 4.
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
             %arg1: tensor<7xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "%arg0: tensor<4x4xf32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "%arg1: tensor<4xf32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "-> (tensor<4x4xf32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.add %arg0, %arg0 {sdy.sharding = "
                                    "#sdy.sharding_per_value<[<@mesh, [{\"x\"}, {\"y\"}]>]>} : "
                                    "tensor<4x4xf32>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, AllGatherGroupsHonourDeviceIds) {
  // Positions (x, y) = 0:(0,0) 1:(0,1) 2:(1,0) 3:(1,1) hold devices 3, 2, 1, 0. Gathering x
  // groups the devices with equal y, ordered by x: y=0 -> [3, 1], y=1 -> [2, 0].
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
func.func @f(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed,
                       "%0 = \"stablehlo.all_gather\"(%arg0) <{all_gather_dim = 0 : i64, "
                       "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
                       "replica_groups = dense<[[3, 1], [2, 0]]> : tensor<2x2xi64>, "
                       "use_global_device_ids}> : (tensor<4x4xf32>) -> tensor<8x4xf32>"))
      << run.printed;
  ASSERT_EQ(run.log.size(), 1u);
  EXPECT_EQ(run.log[0].source, "sdy.all_gather");
  EXPECT_EQ(run.log[0].op->name(), "stablehlo.all_gather");
}

TEST(ConvertGlobalToLocal, AllReduceGroupsOverAnAxisAndASubAxisHonourDeviceIds) {
  // x=2, y=4: position = 4x + y, device id = 7 - position. Reducing over x and the minor half of
  // y ("y":(2)2, index y % 2) groups the devices with equal y / 2, ordered by 2x + y % 2:
  // y / 2 = 0 -> positions 0, 1, 4, 5 -> devices [7, 6, 3, 2]; y / 2 = 1 -> positions 2, 3, 6, 7
  // -> devices [5, 4, 1, 0].
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
func.func @f(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xi32> {
  %0 = sdy.all_reduce {"x", "y":(2)2} %arg0 out_sharding=<@mesh, [{}]> : tensor<4xi32>
  return %0 : tensor<4xi32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed,
                       "replica_groups = dense<[[7, 6, 3, 2], [5, 4, 1, 0]]> : tensor<2x4xi64>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, AllReduceOverSubAxes) {
  // x=4: "x":(1)2 is the major half (index c / 2), "x":(2)2 the minor half (index c % 2).
  // Reducing over the major half pairs devices with equal c % 2: [0, 2], [1, 3]; over the minor
  // half, devices with equal c / 2: [0, 1], [2, 3].
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xi32> {
  %0 = sdy.all_reduce {"x":(1)2} %arg0 out_sharding=<@mesh, [{}]> : tensor<4xi32>
  %1 = sdy.all_reduce {"x":(2)2} %0 out_sharding=<@mesh, [{}]> : tensor<4xi32>
  return %1 : tensor<4xi32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.add %arg1, %arg2 : tensor<i32>")) << run.printed;
}

TEST(ConvertGlobalToLocal, CombinedAllGatherTransposesPiecesIntoPlace) {
  // Gathering x on dim 0 and y on dim 1 at once: a leading dim of 4 pieces (x major, y minor),
  // split into [x, y, rows, cols], transposed to [x, rows, y, cols] and merged.
  partition::ConvertGlobalToLocalOptions options;
  options.perDimAllGather = false;
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<4x4xi32> {
  %0 = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}
)",
                         options);
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(
      contains(run.printed, "stablehlo.reshape %arg0 : (tensor<2x2xi32>) -> tensor<1x2x2xi32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "(tensor<1x2x2xi32>) -> tensor<4x2x2xi32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "(tensor<4x2x2xi32>) -> tensor<2x2x2x2xi32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.transpose %2, dims = [0, 2, 1, 3]")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "(tensor<2x2x2x2xi32>) -> tensor<4x4xi32>")) << run.printed;
}

TEST(ConvertGlobalToLocal, AllSliceReadsTheDeviceOffsetFromATable) {
  // [{}, {"x", "y":(2)2}] on x=2, y=4: the column block index is 2*x + (y % 2), 2 columns each;
  // device d = 4x + y has offset 2 * (2x + y % 2): 0, 2, 0, 2, 4, 6, 4, 6.
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%arg0: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xi32> {
  %0 = sdy.all_slice [{}, {"x", "y":(2)2}] %arg0 out_sharding=<@mesh, [{}, {"x", "y":(2)2}]> : tensor<8x8xi32>
  return %0 : tensor<8x8xi32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "dense<[0, 2, 0, 2, 4, 6, 4, 6]> : tensor<8xi64>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.partition_id : tensor<ui32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "sizes = [8, 2] : (tensor<8x8xi32>, tensor<i64>, tensor<i64>) "
                                    "-> tensor<8x2xi32>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, CollectivePermuteBetweenDeviceOrders) {
  // Block i lives on device i of @a and on device device_ids[i] of @b: i -> (i + 1) % 4.
  LocalRun run = convert(R"(
sdy.mesh @a = <["x"=4]>
sdy.mesh @b = <["x"=4], device_ids=[1, 2, 3, 0]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@b, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> "
                                    ": tensor<4x2xi64>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, ReplicasUseReplicaIdAndCrossReplicaGroups) {
  partition::ConvertGlobalToLocalOptions options;
  options.replicaCount = 2;
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f() -> (tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %0 = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<4xi32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@mesh, [{"x"}]> : tensor<4xi32>
  return %1 : tensor<4xi32>
}
)",
                         options);
  ASSERT_TRUE(run.ok) << run.errors;
  // Device d holds [2d, 2d + 2): a local iota plus 2d.
  EXPECT_TRUE(contains(run.printed, "stablehlo.iota dim = 0 : tensor<2xi32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "dense<[0, 2]> : tensor<2xi64>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.replica_id : tensor<ui32>")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "partition_id")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "<{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, PadWithPerDeviceLowPadding) {
  // [1, 2] padded low 2, interior 2, high 2 -> 9 9 1 9 9 2 9 9, blocks of 4 on x=2: device 0
  // needs local low 2, device 1 low 2 + 1*3 - 4 = 1. Pad once with low 2 (and high 2 so that
  // [1, 5) fits), then slice at 2 - low: starts [0, 1].
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<2xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  %c = stablehlo.constant dense<9> : tensor<i32>
  %0 = stablehlo.pad %arg0, %c, low = [2], high = [2], interior = [2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<2xi32>, tensor<i32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "low = [2], high = [2], interior = [2] : (tensor<1xi32>, "
                                    "tensor<i32>) -> tensor<5xi32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "dense<[0, 1]> : tensor<2xi64>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "sizes = [4] : (tensor<5xi32>, tensor<i64>) -> tensor<4xi32>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, GatherOfPaddedDimensionSlicesPaddingOff) {
  // 3 rows over x=4: blocks of 1, gathered to 4 rows of which the first 3 are the tensor.
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<3x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<3x2xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "(tensor<1x2xf32>) -> tensor<4x2xf32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.slice %0 [0:3, 0:2] : (tensor<4x2xf32>) -> "
                                    "tensor<3x2xf32>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, ManualComputationIsInlined) {
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_FALSE(contains(run.printed, "manual_computation")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "%0 = stablehlo.negate %arg0 : tensor<4x8xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "return %0 : tensor<4x8xf32>")) << run.printed;
}

TEST(ConvertGlobalToLocal, UnloweredReshardGoesThroughTheReplicatedValue) {
  // [{"x"}] -> [{}, ...] on 8 x 4 over x=2, y=2 to [{}, {"y"}]: gather rows (groups over x:
  // [0, 2], [1, 3]), then device (x, y) keeps columns [2y, 2y + 2): offsets 0, 2, 0, 2.
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"y"}]> : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, "
                                    "use_global_device_ids}> : (tensor<4x4xf32>) -> "
                                    "tensor<8x4xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "dense<[0, 2, 0, 2]> : tensor<4xi64>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "sizes = [8, 2] : (tensor<8x4xf32>, tensor<i64>, tensor<i64>) "
                                    "-> tensor<8x2xf32>"))
      << run.printed;
  EXPECT_FALSE(contains(run.printed, "sdy.reshard")) << run.printed;
}

namespace {

std::string resolve(std::string_view source, bool haloExchange = false) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(source, 1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  partition::ResolvePermutationFactorsOptions options;
  options.enableHaloExchange = haloExchange;
  EXPECT_TRUE(partition::resolvePermutationFactors(*module, options, sink));
  return io::mlir::printModule(*module);
}

} // namespace

TEST(ResolvePermutationFactors, SliceFromZeroKeepingBlocksStaysLocal) {
  // 4 -> 3 rows over x=4: blocks of 1 in both, device k's row k is row k of the slice.
  std::string printed = resolve(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<3x2xf32> {
  %0 = stablehlo.slice %arg0 [0:3, 0:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
)");
  EXPECT_FALSE(contains(printed, "sdy.all_gather")) << printed;
  EXPECT_FALSE(contains(printed, "sdy.all_slice")) << printed;
}

TEST(ResolvePermutationFactors, ShiftedSliceIsGatheredAndSlicedBack) {
  // [1:5] of 8 rows over x=2: device 0's result rows 1..2 span both input blocks.
  std::string printed = resolve(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x4xi32> {
  %0 = stablehlo.slice %arg0 [1:5, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xi32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}
)");
  EXPECT_TRUE(contains(printed, "%0 = sdy.all_gather [{\"x\"}, {}] %arg0 out_sharding=<@mesh, [{}, "
                                "{}]> : tensor<8x4xi32>"))
      << printed;
  EXPECT_TRUE(contains(printed, "%1 = stablehlo.slice %0 [1:5, 0:4] {sdy.sharding = "
                                "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}"))
      << printed;
  EXPECT_TRUE(contains(printed, "%2 = sdy.all_slice [{\"x\"}, {}] %1 out_sharding=<@mesh, "
                                "[{\"x\"}, {}]> : tensor<4x4xi32>"))
      << printed;
  EXPECT_TRUE(contains(printed, "return %2 : tensor<4x4xi32>")) << printed;
}

TEST(ResolvePermutationFactors, ReshapeSplittingAShardedDimensionIsResolved) {
  // [6] over {b, c} (blocks of 2) -> [2, 3] over {b}, {c} (blocks of 1x2): device (1, 0) holds
  // flat elements 4, 5 but needs 3, 4.
  std::string printed = resolve(R"(
sdy.mesh @mesh = <["b"=2, "c"=2]>
func.func @f(%arg0: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "c"}]>}) -> tensor<2x3xi32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b"}, {"c"}]>]>} : (tensor<6xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
)");
  EXPECT_TRUE(contains(printed, "sdy.all_gather [{\"b\", \"c\"}] %arg0")) << printed;
  EXPECT_TRUE(contains(printed, "sdy.all_slice [{\"b\"}, {\"c\"}] %1")) << printed;
}

TEST(ResolvePermutationFactors, ReshapeOfWholeBlocksStaysLocal) {
  // [8] over x=2 -> [2, 4] over {x}, {}: device k's 4 elements are row k.
  std::string printed = resolve(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<2x4xi32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
)");
  EXPECT_FALSE(contains(printed, "sdy.all_gather")) << printed;
}

TEST(PadForDivisibility, ReductionOverPaddedDimensionIsRejected) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<2x3xf32>) -> tensor<6x3xf32> {
  %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<6x2xf32>) -> tensor<3x6xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x6xf32>) -> tensor<6x3xf32>
  return %1 : tensor<6x3xf32>
}
)",
                                      1, sink);
  ASSERT_TRUE(module);
  // Contracting dim 1 of %arg0 is unsharded: fine.
  EXPECT_TRUE(partition::padForDivisibility(*module, sink));
  auto bad = io::mlir::parseModule(R"(
sdy.mesh @mesh = <["x"=4]>
func.func @f(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<3x6xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0] : (tensor<3x6xf32>, tensor<6x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
)",
                                   1, sink);
  ASSERT_TRUE(bad);
  EXPECT_FALSE(partition::padForDivisibility(*bad, sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_EQ(sink.diagnostics().back().message,
            "'stablehlo.dot_general' reduces over dimension 0, which its shards don't divide: "
            "the padding would be read");
}

TEST(ResolveSingleDeviceSharding, OperandsComeFromTheOwningDevice) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @dev1 = <[], device_ids=[1]>
func.func @f(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@dev1, []>]>} : tensor<4xi32>
  return %0 : tensor<4xi32>
}
)",
                                      1, sink);
  ASSERT_TRUE(module);
  ASSERT_TRUE(partition::resolveSingleDeviceSharding(*module, {}, sink));
  std::string printed = io::mlir::printModule(*module);
  // %arg0 is sharded: gathered first. Both operands are masked to device 1 and summed over the
  // two devices.
  EXPECT_TRUE(contains(printed, "sdy.all_gather [{\"x\"}] %arg0 out_sharding=<@mesh, [{}]>"))
      << printed;
  EXPECT_TRUE(contains(printed, "stablehlo.compare  EQ")) << printed;
  EXPECT_TRUE(contains(printed, "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>")) << printed;
  size_t reduces = 0;
  for (size_t pos = printed.find("stablehlo.all_reduce"); pos != std::string::npos;
       pos = printed.find("stablehlo.all_reduce", pos + 1))
    ++reduces;
  EXPECT_EQ(reduces, 2u) << printed;
}

namespace {

constexpr std::string_view kShiftedSlice = R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.slice %arg0 [1:5, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x4xi32>) -> tensor<4x4xi32>
  return %0 : tensor<4x4xi32>
}
)";

} // namespace

TEST(ResolvePermutationFactors, HaloExchangeLeavesShiftedSliceToConvert) {
  std::string printed = resolve(kShiftedSlice, /*haloExchange=*/true);
  EXPECT_FALSE(contains(printed, "sdy.all_gather")) << printed;
}

TEST(ConvertGlobalToLocal, ShiftedSliceExchangesTheHalo) {
  // Rows [1:5] of 8 over x=2: input blocks of 4, result blocks of 2. Device 0 makes rows 0..1
  // from input rows 1..2 (its own block); device 1 makes rows 2..3 from input rows 3..4, i.e.
  // the last row of block 0 and the first of block 1. So offsets -1..0: device 1 receives
  // block 0 (pair [0, 1]), the window is [previous block, own block] (8 rows, starting at global
  // row 4 * (k - 1)), and device k slices 2 rows at 1 + 2k - 4(k - 1): 5 and 3.
  LocalRun run = convert(kShiftedSlice);
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.concatenate %0, %arg0, dim = 0 : "
                                    "(tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<8x4xi32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "dense<[5, 3]> : tensor<2xi64>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "sizes = [2, 4] : (tensor<8x4xi32>, tensor<i64>, tensor<i64>) "
                                    "-> tensor<2x4xi32>"))
      << run.printed;
}

TEST(ConvertGlobalToLocal, ReplicatedToUnreducedZeroesAllButTheFirstAlongTheAxes) {
  // Positions 0..3 = (x, y) row-major hold devices 1, 3, 0, 2. Index along y is the position's
  // parity, so devices 1 and 0 (y = 0) keep the value: by device id [1, 1, 0, 0].
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[1, 3, 0, 2]>
func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<4xf32> {
  %0 = sdy.replicated_to_unreduced {"y"} %arg0 out_sharding=<@mesh, [{}], unreduced={"y"}> : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "dense<[1, 1, 0, 0]> : tensor<4xi64>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.select")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "replicated_to_unreduced")) << run.printed;
}

TEST(ConvertGlobalToLocal, ShardedToUnreducedWritesTheBlockAmongZeros) {
  // 8 rows over x=2 to unreduced: device d writes its 4 rows at 4d of an 8-row zero tensor.
  LocalRun run = convert(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.sharded_to_unreduced [{"x"}] %arg0 out_sharding=<@mesh, [{}], unreduced={"x"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(run.ok) << run.errors;
  EXPECT_TRUE(contains(run.printed, "stablehlo.constant dense<0.000000e+00> : tensor<8xf32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "dense<[0, 4]> : tensor<2xi64>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "stablehlo.dynamic_update_slice")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "-> tensor<8xf32>")) << run.printed;
}

TEST(ResolvePermutationFactors, LogSaysWhyEachCollectiveIsThere) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(kShiftedSlice, 1, sink);
  ASSERT_TRUE(module);
  partition::ResolvePermutationFactorsOptions options;
  options.enableHaloExchange = false;
  std::vector<partition::InsertedCollective> log;
  ASSERT_TRUE(partition::resolvePermutationFactors(*module, options, sink, &log));
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].op->name(), "sdy.all_gather");
  EXPECT_EQ(log[0].reason, "'stablehlo.slice' moves data across devices: its operand is gathered");
  EXPECT_EQ(log[1].op->name(), "sdy.all_slice");
  EXPECT_EQ(log[1].reason,
            "slices the result of 'stablehlo.slice', computed replicated, back to its sharding");
}
