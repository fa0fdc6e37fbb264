// Collective semantics on the local backend, with expected values worked out from the examples
// of the StableHLO specification and from its process-group definitions.
#include "tests/core/exec/exec_test_util.h"
#include "tests/core/exec/spmd_test_util.h"

namespace shardscope::exec::testing {
namespace {

constexpr const char* kAddBody = R"(({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }))";

Tensor i64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return Tensor::fromInts(ir::ElementType::I64, std::move(shape), values);
}

std::vector<int64_t> ints(const Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.intAt(i));
  return out;
}

// Wraps one collective `op` (taking %x, producing `result`) in @main(%x: operand).
std::string program(const std::string& operand, const std::string& result, const std::string& op) {
  return "func.func @main(%x: " + operand + ") -> " + result + " {\n  %r = " + op + "\n" +
         "  return %r : " + result + "\n}\n";
}

TEST(CollectivesTest, AllReduceSpecExample) {
  std::string text = program("tensor<4xi64>", "tensor<4xi64>",
                             std::string("\"stablehlo.all_reduce\"(%x) ") + kAddBody +
                                 " {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, "
                                 "channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>}"
                                 " : (tensor<4xi64>) -> tensor<4xi64>");
  SpmdRun run(text, 2, 1, {{i64({4}, {1, 2, 3, 4})}, {i64({4}, {5, 6, 7, 8})}});
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{6, 8, 10, 12}));
  EXPECT_EQ(ints(run.executor->results(1)[0]), (std::vector<int64_t>{6, 8, 10, 12}));
}

TEST(CollectivesTest, AllReduceCustomRegionCombinesInAscendingDeviceOrder) {
  // op(a, b) = 2 * (a + b) is not associative, so the order is visible: with the group listed
  // as [2, 0, 1], ascending device order gives op(op(x0, x1), x2) = op(6, 3) = 18.
  std::string text = program("tensor<i64>", "tensor<i64>", R"("stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    %t = stablehlo.add %s, %s : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[2, 0, 1]]> : tensor<1x3xi64>} : (tensor<i64>) -> tensor<i64>)");
  SpmdRun run(text, 3, 1, {{i64({}, {1})}, {i64({}, {2})}, {i64({}, {3})}});
  ASSERT_TRUE(run.run()) << run.messages();
  for (int64_t d = 0; d < 3; ++d)
    EXPECT_EQ(run.executor->results(d)[0].intAt(0), 18) << "device " << d;
}

TEST(CollectivesTest, VariadicAllReduceReducesEachOperandWithTheBody) {
  std::string text = R"(func.func @main(%x: tensor<2xi64>, %y: tensor<i64>) -> (tensor<2xi64>, tensor<i64>) {
  %r:2 = "stablehlo.all_reduce"(%x, %y) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.multiply %a, %b : tensor<i64>
    %t = stablehlo.add %s, %a : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
      : (tensor<2xi64>, tensor<i64>) -> (tensor<2xi64>, tensor<i64>)
  return %r#0, %r#1 : tensor<2xi64>, tensor<i64>
})";
  // op(a, b) = a * b + a, combined as op(x0, x1).
  SpmdRun run(text, 2, 1,
              {{i64({2}, {2, 3}), i64({}, {4})}, {i64({2}, {5, 7}), i64({}, {6})}});
  ASSERT_TRUE(run.run()) << run.messages();
  for (int64_t d = 0; d < 2; ++d) {
    EXPECT_EQ(ints(run.executor->results(d)[0]), (std::vector<int64_t>{12, 24}));
    EXPECT_EQ(run.executor->results(d)[1].intAt(0), 28);
  }
}

TEST(CollectivesTest, AllGatherSpecExample) {
  std::string text = program("tensor<2x2xi64>", "tensor<2x4xi64>",
                             "\"stablehlo.all_gather\"(%x) {all_gather_dim = 1 : i64, "
                             "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : "
                             "(tensor<2x2xi64>) -> tensor<2x4xi64>");
  SpmdRun run(text, 2, 1, {{i64({2, 2}, {1, 2, 3, 4})}, {i64({2, 2}, {5, 6, 7, 8})}});
  ASSERT_TRUE(run.run()) << run.messages();
  for (int64_t d = 0; d < 2; ++d)
    EXPECT_EQ(ints(run.executor->results(d)[0]), (std::vector<int64_t>{1, 2, 5, 6, 3, 4, 7, 8}));
}

TEST(CollectivesTest, AllGatherConcatenatesInGroupOrder) {
  std::string text = program("tensor<1xi64>", "tensor<2xi64>",
                             "\"stablehlo.all_gather\"(%x) {all_gather_dim = 0 : i64, "
                             "replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : "
                             "(tensor<1xi64>) -> tensor<2xi64>");
  SpmdRun run(text, 2, 1, {{i64({1}, {10})}, {i64({1}, {20})}});
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{20, 10}));
}

TEST(CollectivesTest, ReduceScatterSpecExample) {
  std::string text = program("tensor<2x4xi64>", "tensor<2x2xi64>",
                             std::string("\"stablehlo.reduce_scatter\"(%x) ") + kAddBody +
                                 " {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> "
                                 ": tensor<1x2xi64>} : (tensor<2x4xi64>) -> tensor<2x2xi64>");
  SpmdRun run(text, 2, 1,
              {{i64({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})},
               {i64({2, 4}, {9, 10, 11, 12, 13, 14, 15, 16})}});
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{10, 12, 18, 20}));
  EXPECT_EQ(ints(run.executor->results(1)[0]), (std::vector<int64_t>{14, 16, 22, 24}));
}

TEST(CollectivesTest, AllToAllSpecExample) {
  std::string text = program("tensor<2x4xi64>", "tensor<4x2xi64>",
                             "\"stablehlo.all_to_all\"(%x) {split_dimension = 1 : i64, "
                             "concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = "
                             "dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xi64>) -> "
                             "tensor<4x2xi64>");
  SpmdRun run(text, 2, 1,
              {{i64({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})},
               {i64({2, 4}, {9, 10, 11, 12, 13, 14, 15, 16})}});
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{1, 2, 5, 6, 9, 10, 13, 14}));
  EXPECT_EQ(ints(run.executor->results(1)[0]),
            (std::vector<int64_t>{3, 4, 7, 8, 11, 12, 15, 16}));
}

TEST(CollectivesTest, CollectivePermuteSpecExampleGivesZerosToNonTargets) {
  std::string text = program("tensor<2x2xi64>", "tensor<2x2xi64>",
                             "\"stablehlo.collective_permute\"(%x) {source_target_pairs = "
                             "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<2x2xi64>) -> "
                             "tensor<2x2xi64>");
  SpmdRun run(text, 3, 1,
              {{i64({2, 2}, {1, 2, 3, 4})},
               {i64({2, 2}, {5, 6, 7, 8})},
               {i64({2, 2}, {9, 10, 11, 12})}});
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(ints(run.executor->results(1)[0]), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(ints(run.executor->results(2)[0]), (std::vector<int64_t>{5, 6, 7, 8}));
}

TEST(CollectivesTest, CollectiveBroadcastSpecExample) {
  std::string text = program("tensor<1x2xi64>", "tensor<1x2xi64>",
                             "\"stablehlo.collective_broadcast\"(%x) {replica_groups = "
                             "dense<[[2, 1]]> : tensor<1x2xi64>} : (tensor<1x2xi64>) -> "
                             "tensor<1x2xi64>");
  SpmdRun run(text, 4, 1,
              {{i64({1, 2}, {1, 2})},
               {i64({1, 2}, {3, 4})},
               {i64({1, 2}, {5, 6})},
               {i64({1, 2}, {7, 8})}});
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(ints(run.executor->results(1)[0]), (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(ints(run.executor->results(2)[0]), (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(ints(run.executor->results(3)[0]), (std::vector<int64_t>{0, 0}));
}

// Device d of a 2 x 2 grid holds 10^d; the sums tell which devices formed each group.
std::vector<std::vector<Tensor>> powersOfTen() {
  return {{i64({}, {1})}, {i64({}, {10})}, {i64({}, {100})}, {i64({}, {1000})}};
}

std::vector<int64_t> allReduceSums(const std::string& attrs) {
  std::string text = program("tensor<i64>", "tensor<i64>",
                             std::string("\"stablehlo.all_reduce\"(%x) ") + kAddBody + " {" +
                                 attrs + "} : (tensor<i64>) -> tensor<i64>");
  SpmdRun run(text, 2, 2, powersOfTen());
  EXPECT_TRUE(run.run()) << run.messages();
  std::vector<int64_t> sums;
  for (int64_t d = 0; d < 4 && !run.executor->failed(); ++d)
    sums.push_back(run.executor->results(d)[0].intAt(0));
  return sums;
}

TEST(CollectivesTest, CrossReplicaGroupsReplicasOfTheSamePartition) {
  // Devices (replica, partition): 0=(0,0) 1=(0,1) 2=(1,0) 3=(1,1).
  EXPECT_EQ(allReduceSums("replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"),
            (std::vector<int64_t>{101, 1010, 101, 1010}));
}

TEST(CollectivesTest, EmptyReplicaGroupsMeanAllReplicas) {
  EXPECT_EQ(allReduceSums("replica_groups = dense<> : tensor<0x0xi64>"),
            (std::vector<int64_t>{101, 1010, 101, 1010}));
}

TEST(CollectivesTest, CrossReplicaAndPartitionSpansAllPartitions) {
  EXPECT_EQ(allReduceSums("replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>, channel_handle = "
                          "#stablehlo.channel_handle<handle = 1, type = 1>"),
            (std::vector<int64_t>{11, 11, 1100, 1100}));
}

TEST(CollectivesTest, FlattenedIdsUseGlobalDeviceIds) {
  EXPECT_EQ(allReduceSums("replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, "
                          "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
                          "use_global_device_ids"),
            (std::vector<int64_t>{1001, 110, 110, 1001}));
}

TEST(CollectivesTest, MinusOnePadsShorterGroups) {
  EXPECT_EQ(allReduceSums("replica_groups = dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>, "
                          "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
                          "use_global_device_ids"),
            (std::vector<int64_t>{111, 111, 111, 1000}));
}

TEST(CollectivesTest, AllToAllWithChannelIsCrossPartition) {
  std::string text = program("tensor<2xi64>", "tensor<2xi64>",
                             "\"stablehlo.all_to_all\"(%x) {split_dimension = 0 : i64, "
                             "concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = "
                             "dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = "
                             "#stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xi64>) "
                             "-> tensor<2xi64>");
  SpmdRun run(text, 2, 2,
              {{i64({2}, {0, 1})}, {i64({2}, {10, 11})}, {i64({2}, {20, 21})},
               {i64({2}, {30, 31})}});
  ASSERT_TRUE(run.run()) << run.messages();
  // Partitions of replica 0 (devices 0, 1) exchange halves; so do devices 2, 3.
  EXPECT_EQ(ints(run.executor->results(0)[0]), (std::vector<int64_t>{0, 10}));
  EXPECT_EQ(ints(run.executor->results(1)[0]), (std::vector<int64_t>{1, 11}));
  EXPECT_EQ(ints(run.executor->results(2)[0]), (std::vector<int64_t>{20, 30}));
  EXPECT_EQ(ints(run.executor->results(3)[0]), (std::vector<int64_t>{21, 31}));
}

TEST(CollectivesTest, CollectivePermuteWithChannelPermutesPartitions) {
  std::string text = program("tensor<i64>", "tensor<i64>",
                             "\"stablehlo.collective_permute\"(%x) {source_target_pairs = "
                             "dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, channel_handle = "
                             "#stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<i64>) -> "
                             "tensor<i64>");
  SpmdRun run(text, 2, 2, powersOfTen());
  ASSERT_TRUE(run.run()) << run.messages();
  EXPECT_EQ(run.executor->results(0)[0].intAt(0), 10);
  EXPECT_EQ(run.executor->results(1)[0].intAt(0), 1);
  EXPECT_EQ(run.executor->results(2)[0].intAt(0), 1000);
  EXPECT_EQ(run.executor->results(3)[0].intAt(0), 100);
}

TEST(CollectivesTest, ReplicaAndPartitionIds) {
  std::string text = R"(func.func @main() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r, %p : tensor<ui32>, tensor<ui32>
})";
  SpmdRun run(text, 2, 3);
  ASSERT_TRUE(run.run()) << run.messages();
  for (int64_t d = 0; d < 6; ++d) {
    EXPECT_EQ(run.executor->results(d)[0].intAt(0), d / 3) << "device " << d;
    EXPECT_EQ(run.executor->results(d)[1].intAt(0), d % 3) << "device " << d;
  }
}

TEST(CollectivesTest, SingleDeviceInterpreterRunsGroupsOfOne) {
  Tensor r = runOne(program("tensor<2xi64>", "tensor<2xi64>",
                            std::string("\"stablehlo.all_reduce\"(%x) ") + kAddBody +
                                " {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : "
                                "(tensor<2xi64>) -> tensor<2xi64>"),
                    {i64({2}, {3, 4})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{3, 4}));
}

TEST(CollectivesTest, SdyCollectivesAskForGlobalToLocal) {
  std::string text = R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xi64>) -> tensor<4xi64> {
  %r = sdy.all_reduce {"x"} %x out_sharding=<@mesh, [{}]> : tensor<4xi64>
  return %r : tensor<4xi64>
})";
  SpmdRun run(text, 1, 2, {{i64({4}, {1, 2, 3, 4})}, {i64({4}, {1, 2, 3, 4})}});
  EXPECT_FALSE(run.run());
  EXPECT_NE(run.messages().find("-sdy-convert-global-to-local"), std::string::npos)
      << run.messages();
}

TEST(CollectivesTest, SdyCollectivesAreTheIdentityInAGlobalViewRun) {
  // On one device every value is whole: gathering or slicing only changes its layout.
  Tensor r = runOne(R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<4xi64>) -> tensor<4xi64> {
  %g = sdy.all_gather [{"x"}] %x out_sharding=<@mesh, [{}]> : tensor<4xi64>
  %s = sdy.all_slice [{"x"}] %g out_sharding=<@mesh, [{"x"}]> : tensor<4xi64>
  return %s : tensor<4xi64>
})",
                    {i64({4}, {5, 6, 7, 8})});
  EXPECT_EQ(ints(r), (std::vector<int64_t>{5, 6, 7, 8}));
}

} // namespace
} // namespace shardscope::exec::testing
