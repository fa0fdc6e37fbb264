// The reference check does not cry wolf: sharded sums that differ from the unsharded ones in their
// last bits pass, real bugs fail and say by how much they exceed what reordering explains.
#include "core/exec/interpreter.h"
#include "core/session/execution.h"
#include "core/session/reorder_bounds.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

namespace {

struct Checked {
  support::CollectingSink sink;
  std::unique_ptr<Program> program;
  std::unique_ptr<Execution> execution;
  StopReason reason = StopReason::Failed;
};

std::unique_ptr<Checked> runChecked(const std::string& text, const std::string& inputs,
                                    const std::string& function = "") {
  auto run = std::make_unique<Checked>();
  run->program = Program::fromText("bounds.mlir", text, run->sink);
  EXPECT_TRUE(run->program) << messages(run->sink);
  if (!run->program)
    return run;
  ExecutionOptions options;
  options.function = function;
  options.checkReference = true;
  run->execution = Execution::create(*run->program, options, run->sink);
  EXPECT_TRUE(run->execution) << messages(run->sink);
  if (!run->execution)
    return run;
  std::string error;
  auto spec = parseInputSpec(inputs, error);
  EXPECT_TRUE(spec) << error;
  EXPECT_TRUE(run->execution->setInputs(*spec)) << messages(run->sink);
  EXPECT_TRUE(run->execution->start()) << messages(run->sink);
  run->reason = run->execution->runToEnd();
  EXPECT_EQ(run->reason, StopReason::Finished) << messages(run->sink);
  return run;
}

// A contraction over 4096 elements split over 8 devices: each device sums 512 products, then the
// all-reduce adds the 8 partial sums. The unsharded reference sums all 4096 in one pass.
const char* kShardedDot = R"(
sdy.mesh @mesh = <["x"=8]>
func.func @main(%a: tensor<4x4096xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
                %b: tensor<4096x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x4096xf32>, tensor<4096x4xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.sine %0 : tensor<4x4xf32>
  %2 = stablehlo.subtract %1, %1 : tensor<4x4xf32>
  %3 = stablehlo.add %0, %2 : tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}
)";

bool sameBits(const exec::Tensor& a, const exec::Tensor& b) {
  return a.bytes().size() == b.bytes().size() &&
         std::memcmp(a.bytes().data(), b.bytes().data(), a.bytes().size()) == 0;
}

TEST(ReorderBoundsTest, ShardedSumsThatDifferInTheLastBitsPass) {
  auto run = runChecked(kShardedDot, "random:11");
  ASSERT_TRUE(run->execution);
  EXPECT_TRUE(run->execution->divergences().empty())
      << run->execution->divergences().front().message;
  EXPECT_NE(run->execution->referenceSummary().find("match the reference"), std::string::npos)
      << run->execution->referenceSummary();

  // The test means something only if the sharded sums really differ from the unsharded ones.
  std::string error;
  auto sharded = run->execution->globalResults(error);
  ASSERT_TRUE(sharded) << error;
  support::CollectingSink sink;
  exec::Interpreter reference(run->program->asWritten());
  auto unsharded = reference.run("main", run->execution->inputs(), sink);
  ASSERT_TRUE(unsharded) << messages(sink);
  EXPECT_FALSE(sameBits((*sharded)[0], (*unsharded)[0]))
      << "sharded and unsharded sums agree bit for bit: pick other inputs";
}

TEST(ReorderBoundsTest, LargeIotaSumsFedIntoSineDoNotCryWolf) {
  // iota inputs in the thousands: the dot's results are near 1e10, where an f32 ulp is ~1000 and
  // the sine of two neighbouring floats has nothing in common. Reordering explains any sine.
  auto run = runChecked(kShardedDot, "iota");
  ASSERT_TRUE(run->execution);
  EXPECT_TRUE(run->execution->divergences().empty())
      << run->execution->divergences().front().message;
}

// A shard_map computing the dot per device and its psum, then scaling it by SCALE; its twin
// computes the plain dot. SCALE = 1 is correct, anything else a bug.
const char* kBuggy = R"(
sdy.mesh @mesh = <["x"=8]>
func.func @main(%a: tensor<4x4096xf32>, %b: tensor<4096x4xf32>) -> tensor<4x4xf32> {
  %c = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{}, {"x"}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%ab: tensor<4x512xf32>, %bb: tensor<512x4xf32>) {
    %p = stablehlo.dot_general %ab, %bb, contracting_dims = [1] x [0] : (tensor<4x512xf32>, tensor<512x4xf32>) -> tensor<4x4xf32>
    %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %sum = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %sum : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %k = stablehlo.constant dense<SCALE> : tensor<4x4xf32>
    %r = stablehlo.multiply %s, %k : tensor<4x4xf32>
    sdy.return %r : tensor<4x4xf32>
  } : (tensor<4x4096xf32>, tensor<4096x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}
func.func @main_reference(%a: tensor<4x4096xf32>, %b: tensor<4096x4xf32>) -> tensor<4x4xf32> {
  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x4096xf32>, tensor<4096x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}
)";

std::string withScale(const char* scale) {
  std::string text = kBuggy;
  text.replace(text.find("SCALE"), 5, scale);
  return text;
}

TEST(ReorderBoundsTest, ACorrectShardMapWithItsTwinPasses) {
  auto run = runChecked(withScale("1.0"), "random:5");
  ASSERT_TRUE(run->execution);
  EXPECT_TRUE(run->execution->divergences().empty())
      << run->execution->divergences().front().message;
}

TEST(ReorderBoundsTest, AResultOffByTenPercentFailsAndSaysItIsBeyondReordering) {
  auto run = runChecked(withScale("1.1"), "random:5");
  ASSERT_TRUE(run->execution);
  ASSERT_FALSE(run->execution->divergences().empty());
  const Divergence& d = run->execution->divergences().front();
  EXPECT_EQ(d.kind, "reference");
  EXPECT_NE(d.message.find("beyond"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("reordered float arithmetic can explain"), std::string::npos)
      << d.message;
}

TEST(ReorderBoundsTest, DotBoundGrowsWithTheSummedMagnitudesNotTheResult) {
  // sum(a*b) with terms +1e4 and -1e4 cancelling to 1: the bound follows sum |a*b|, 2e4 * 2.
  support::CollectingSink sink;
  auto program = Program::fromText("dot.mlir", R"(
func.func @main(%a: tensor<1x2xf32>, %b: tensor<2x1xf32>) -> tensor<1x1xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x1xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
})",
                                   sink);
  ASSERT_TRUE(program) << messages(sink);
  const ir::Module& module = program->asWritten();
  const ir::Operation& fn = *module.lookupFunction("main");
  const ir::Operation& dot = *ir::func::body(fn)->ops().front();
  std::vector<double> av{10001, -10000}, bv{1, 1}, rv{1};
  exec::Tensor a = exec::Tensor::fromDoubles(ir::ElementType::F32, {1, 2}, av);
  exec::Tensor b = exec::Tensor::fromDoubles(ir::ElementType::F32, {2, 1}, bv);
  exec::Tensor r = exec::Tensor::fromDoubles(ir::ElementType::F32, {1, 1}, rv);
  ReorderBounds bounds(module);
  bounds.record(dot, [&](const ir::Value* v) -> const exec::Tensor* {
    if (v == dot.operand(0))
      return &a;
    if (v == dot.operand(1))
      return &b;
    return v == dot.result(0) ? &r : nullptr;
  });
  const exec::Tensor* bound = bounds.bound(dot.result(0));
  ASSERT_TRUE(bound);
  double u = ReorderBounds::unitRoundoff(ir::ElementType::F32);
  // At least twice gamma(2) of sum |a*b| = 20001; at most that plus the operands' two ulps
  // (2 * 2^-10 per element of a, 2 * 2^-23 of b, times the other side) and slack.
  EXPECT_GE(bound->floatAt(0), 2 * 2 * u * 20001);
  EXPECT_LE(bound->floatAt(0), 2 * 2 * u * 20001 * 1.01 + 4 * 0x1.0p-10 + 0.01);
}

} // namespace
