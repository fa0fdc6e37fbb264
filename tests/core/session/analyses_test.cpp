// Program::analyses: each stage's analyses computed once, with the facts each front end shows.
#include "core/session/program.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

// The matmul contracts over "y" (size 2): partitioning inserts one all-reduce of the [8@x, 4]
// partial sums. Each device holds 4x4 f32 = 64 bytes; a ring all-reduce over 2 devices sends
// 2 * 64 * (2 - 1) / 2 = 64 bytes per device, in 2 groups of 2.
TEST(AnalysesTest, CollectivesOfThePartitionedStageAndTheirPerDeviceCopies) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/global_matmul.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const StageAnalyses* partitioned = program->analyses(Stage::Partitioned, sink);
  ASSERT_TRUE(partitioned) << messages(sink);
  ASSERT_EQ(partitioned->collectives.collectives.size(), 1u);
  const analysis::CollectiveCost& reduce = partitioned->collectives.collectives[0];
  EXPECT_EQ(reduce.kind, "all_reduce");
  EXPECT_EQ(reduce.axes, (std::vector<std::string>{"y"}));
  EXPECT_EQ(reduce.groupSize, 2);
  EXPECT_EQ(reduce.numGroups, 2);
  EXPECT_EQ(reduce.bytesSent, 64);
  EXPECT_TRUE(partitioned->origins.empty());
  EXPECT_TRUE(partitioned->shardMaps.has_value());

  const StageAnalyses* perDevice = program->analyses(Stage::PerDevice, sink);
  ASSERT_TRUE(perDevice) << messages(sink);
  EXPECT_FALSE(perDevice->shardMaps.has_value()); // no mesh left
  ASSERT_EQ(perDevice->collectives.collectives.size(), 1u);
  const analysis::CollectiveCost& local = perDevice->collectives.collectives[0];
  EXPECT_EQ(local.bytesSent, 64);
  // The per-device all-reduce names its replica groups only; it keeps the partitioned one's axes.
  EXPECT_EQ(local.axes, (std::vector<std::string>{"y"}));
  ASSERT_EQ(perDevice->origins.size(), 1u);
  EXPECT_EQ(perDevice->origins.at(local.op), reduce.op);

  // Computed once: the same object on every call, with the stage's module left as it was.
  EXPECT_EQ(program->analyses(Stage::Partitioned, sink), partitioned);
  EXPECT_EQ(program->analyses(Stage::PerDevice, sink), perDevice);
  EXPECT_FALSE(sink.hasErrors()) << messages(sink);
}

TEST(AnalysesTest, ExplicitTypesAndTheirFindingsBelongToTheProgramAsWritten) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("explicit/seed_illegal_add.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const StageAnalyses* written = program->analyses(Stage::AsWritten, sink);
  ASSERT_TRUE(written) << messages(sink);
  ASSERT_TRUE(written->explicitTypes.has_value());
  bool illegal = false;
  for (const support::Diagnostic& d : written->diagnostics)
    illegal |= d.message.find("illegally sharded result") != std::string::npos;
  EXPECT_TRUE(illegal) << "the add JAX rejects is a finding of the as-written stage";
  // Findings are kept, not reported: the caller decides where they go.
  EXPECT_FALSE(sink.hasErrors()) << messages(sink);
  const StageAnalyses* propagated = program->analyses(Stage::Propagated, sink);
  ASSERT_TRUE(propagated) << messages(sink);
  EXPECT_FALSE(propagated->explicitTypes.has_value());
}

// The design's data-parallel loss: the naive gradient rules add an all-reduce the efficient
// ones do not (the transpose of the psum).
TEST(AnalysesTest, GradientStagesCountTheirGradientFunctionsCollectives) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("autodiff/data_parallel_loss.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const StageAnalyses* efficient = program->analyses(Stage::GradientEfficient, sink);
  const StageAnalyses* naive = program->analyses(Stage::GradientNaive, sink);
  ASSERT_TRUE(efficient && naive) << messages(sink);
  auto allReduces = [](const analysis::CostSummary& costs) {
    int n = 0;
    for (const analysis::CollectiveCost& c : costs.collectives)
      n += c.kind == "all_reduce";
    return n;
  };
  EXPECT_EQ(allReduces(naive->gradientCollectives), allReduces(efficient->gradientCollectives) + 1);
  EXPECT_TRUE(program->analyses(Stage::AsWritten, sink)->gradientCollectives.collectives.empty());
}

TEST(AnalysesTest, ACancelledStageHasNoAnalysesUntilComputed) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/global_matmul.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  CancelFlag cancel{true};
  EXPECT_FALSE(program->analyses(Stage::Partitioned, sink, &cancel));
  cancel = false;
  support::CollectingSink again;
  EXPECT_TRUE(program->analyses(Stage::Partitioned, again, &cancel)) << messages(again);
}
