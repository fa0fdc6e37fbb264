// Stepping sessions: the seed programs run on every device of their mesh and checked against
// their unsharded reference; stepping, breakpoints, value inspection, traces and bad inputs.
#include "core/io/npy/npy.h"
#include "core/session/execution.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

namespace {

struct Run {
  support::CollectingSink sink;
  std::unique_ptr<Program> program;
  std::unique_ptr<Execution> execution;
};

// Loads `file` and prepares a checked run of `function` on iota-like random inputs.
std::unique_ptr<Run> prepare(const std::string& file, const std::string& function,
                             bool checkReference = true, bool trace = false) {
  auto run = std::make_unique<Run>();
  run->program = Program::load(dataPath(file), run->sink);
  EXPECT_TRUE(run->program) << messages(run->sink);
  if (!run->program)
    return nullptr;
  ExecutionOptions options;
  options.function = function;
  options.checkReference = checkReference;
  options.trace = trace;
  run->execution = Execution::create(*run->program, options, run->sink);
  EXPECT_TRUE(run->execution) << messages(run->sink);
  if (!run->execution)
    return nullptr;
  std::string error;
  auto spec = parseInputSpec("random:3", error);
  EXPECT_TRUE(spec) << error;
  EXPECT_TRUE(run->execution->setInputs(*spec)) << messages(run->sink);
  return run;
}

// out = lhs @ rhs computed naively, for checking results independently of the interpreter.
std::vector<double> matmul(const exec::Tensor& a, const exec::Tensor& b) {
  int64_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  std::vector<double> out(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t l = 0; l < k; ++l)
        out[i * n + j] += a.floatAt(i * k + l) * b.floatAt(l * n + j);
  return out;
}

} // namespace

TEST(ExecutionTest, GlobalMatmulRunsOnFourDevicesAndMatchesTheReference) {
  auto run = prepare("session/global_matmul.mlir", "main");
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  EXPECT_EQ(e.numDevices(), 4);
  ASSERT_TRUE(e.start()) << messages(run->sink);
  EXPECT_EQ(e.runToEnd(), StopReason::Finished) << messages(run->sink);
  std::string error;
  auto results = e.globalResults(error);
  ASSERT_TRUE(results) << error;
  ASSERT_EQ(results->size(), 1u);
  std::vector<double> expected = matmul(e.inputs()[0], e.inputs()[1]);
  for (int64_t i = 0; i < 32; ++i)
    EXPECT_NEAR((*results)[0].floatAt(i), expected[i] + e.inputs()[2].floatAt(i), 1e-4) << i;
  EXPECT_TRUE(e.divergences().empty()) << e.divergences().front().message;
  EXPECT_NE(e.referenceSummary().find("match the reference"), std::string::npos)
      << e.referenceSummary();
  // The contracting dimension is sharded: partitioning inserted the reduction of partial sums.
  bool allReduce = false;
  e.module().op().walk([&](const ir::Operation& op) {
    allReduce = allReduce || op.is("stablehlo.all_reduce");
  });
  EXPECT_TRUE(allReduce);
}

// A sharded iota runs as a local iota plus its block's offset, both at the iota's location: the
// check compares the offset value with the reference block ([4, 5, 6, 7] on X = 1), and the
// local iota ([0, 1, 2, 3] everywhere) with nothing.
TEST(ExecutionTest, ShardedIotaIsCheckedThroughTheValueThatStandsForIt) {
  auto run = prepare("session/sharded_iota.mlir", "main");
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  ASSERT_TRUE(e.start()) << messages(run->sink);
  EXPECT_EQ(e.runToEnd(), StopReason::Finished) << messages(run->sink);
  EXPECT_TRUE(e.divergences().empty()) << e.divergences().front().message;
  std::string error;
  auto results = e.globalResults(error);
  ASSERT_TRUE(results) << error;
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ((*results)[0].intAt(i), i);
  // The offset add was compared as the iota; the local iota was not.
  bool addChecked = false, localIotaChecked = false;
  e.module().op().walk([&](const ir::Operation& op) {
    if (op.loc().line != 5 || op.numResults() != 1)
      return;
    if (op.is("stablehlo.add"))
      addChecked = e.compared(op.result(0));
    if (op.is("stablehlo.iota"))
      localIotaChecked = e.compared(op.result(0));
  });
  EXPECT_TRUE(addChecked);
  EXPECT_FALSE(localIotaChecked);
}

TEST(ExecutionTest, ShardMapSeedsMatchTheirReferences) {
  for (std::string fn : {"matmul_basic", "matmul_reduce_scatter", "ring_shift"}) {
    SCOPED_TRACE(fn);
    auto run = prepare("session/shard_map_seed.mlir", fn);
    ASSERT_TRUE(run);
    Execution& e = *run->execution;
    EXPECT_EQ(e.numDevices(), 8);
    ASSERT_TRUE(e.start()) << messages(run->sink);
    ASSERT_EQ(e.runToEnd(), StopReason::Finished) << messages(run->sink);
    EXPECT_TRUE(e.divergences().empty())
        << (e.divergences().empty() ? "" : e.divergences().front().message);
    EXPECT_NE(e.referenceSummary().find("match the reference"), std::string::npos)
        << e.referenceSummary();
  }
}

TEST(ExecutionTest, RingShiftMovesEachBlockToTheNextDevice) {
  auto run = prepare("session/shard_map_seed.mlir", "ring_shift", /*checkReference=*/false);
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  std::vector<int64_t> x(16);
  for (int64_t i = 0; i < 16; ++i)
    x[i] = i;
  ASSERT_TRUE(e.setInputs({exec::Tensor::fromInts(ir::ElementType::I32, {8, 2}, x)}));
  ASSERT_TRUE(e.start());
  ASSERT_EQ(e.runToEnd(), StopReason::Finished) << messages(run->sink);
  std::string error;
  auto results = e.globalResults(error);
  ASSERT_TRUE(results) << error;
  // Rows 6, 7 move to the front: jnp.roll(x, 2, axis=0).
  for (int64_t row = 0; row < 8; ++row)
    EXPECT_EQ((*results)[0].intAt(row * 2), ((row + 6) % 8) * 2) << row;
}

TEST(ExecutionTest, ReplicatedValuesThatDifferAreReportedWithTheirDevices) {
  auto run = prepare("session/shard_map_seed.mlir", "unchecked_replication");
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  ASSERT_TRUE(e.start()) << messages(run->sink);
  e.runToEnd();
  ASSERT_FALSE(e.divergences().empty()) << e.referenceSummary();
  std::string all;
  for (const Divergence& d : e.divergences())
    all += d.kind + ": " + d.message + "\n";
  // Devices 0 and 1 share 'i' = 0 but add their own partition ids.
  EXPECT_NE(all.find("devices 0 and 1"), std::string::npos) << all;
}

TEST(ExecutionTest, StepsBreakpointsAndValuesOnEveryDevice) {
  auto run = prepare("session/global_matmul.mlir", "main", true, /*trace=*/true);
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  ASSERT_TRUE(e.start());
  const ir::Operation* first = e.currentOp(0);
  ASSERT_TRUE(first);
  // Break at the bias add; watch the dot's result.
  const ir::Operation* add = nullptr;
  const ir::Value* dot = nullptr;
  e.module().op().walk([&](const ir::Operation& op) {
    if (op.is("stablehlo.add") && op.parentOp()->is("func.func")) // not the all_reduce body's
      add = &op;
    if (op.is("stablehlo.dot_general"))
      dot = op.result(0);
  });
  ASSERT_TRUE(add && dot);
  e.setValueBreakpoint(dot);
  EXPECT_EQ(e.continueRun(), StopReason::Breakpoint);
  for (int64_t d = 0; d < e.numDevices(); ++d)
    ASSERT_TRUE(e.value(d, dot)) << "device " << d;
  EXPECT_EQ(e.value(0, dot)->shape(), (std::vector<int64_t>{4, 4}));
  e.setBreakpoint(add);
  EXPECT_EQ(e.continueRun(), StopReason::Breakpoint);
  EXPECT_EQ(e.currentOp(0), add);
  // The assembled bias-add input equals lhs @ rhs.
  std::string error;
  const ir::Value* summed = add->operand(0);
  auto global = e.globalValue(summed, error);
  ASSERT_TRUE(global) << error;
  std::vector<double> expected = matmul(e.inputs()[0], e.inputs()[1]);
  for (int64_t i = 0; i < 32; ++i)
    EXPECT_NEAR(global->value.floatAt(i), expected[i], 1e-4);
  EXPECT_EQ(e.runToEnd(), StopReason::Finished);
  // One track per device; collectives carry their bytes.
  std::string trace = e.chromeTrace();
  EXPECT_NE(trace.find("\"device 3\""), std::string::npos);
  EXPECT_NE(trace.find("\"cat\":\"collective\""), std::string::npos) << trace;
  EXPECT_NE(trace.find("\"bytes_sent\":"), std::string::npos);
}

TEST(ExecutionTest, BadInputsGiveClearErrors) {
  auto run = prepare("session/global_matmul.mlir", "main");
  ASSERT_TRUE(run);
  std::string error;
  // A .npy of the wrong shape.
  auto dir = std::filesystem::temp_directory_path() / "shardscope-session-test";
  std::filesystem::create_directories(dir);
  io::npy::Array wrong{ir::ElementType::F32, {4, 4}, std::vector<uint8_t>(64, 0)};
  ASSERT_TRUE(io::npy::write((dir / "wrong.npy").string(), wrong, error)) << error;
  auto spec = parseInputSpec("0=" + (dir / "wrong.npy").string(), error);
  ASSERT_TRUE(spec) << error;
  EXPECT_FALSE(run->execution->setInputs(*spec));
  EXPECT_NE(messages(run->sink).find("holds tensor<4x4xf32>, the function takes tensor<8x16xf32>"),
            std::string::npos)
      << messages(run->sink);
  // An argument the function does not have.
  spec = parseInputSpec("zeros,7=ones", error);
  ASSERT_TRUE(spec) << error;
  EXPECT_FALSE(run->execution->setInputs(*spec));
  EXPECT_NE(messages(run->sink).find("takes 3 arguments"), std::string::npos);
  // Malformed specs.
  EXPECT_FALSE(parseInputSpec("gaussian", error));
  EXPECT_NE(error.find("unknown input 'gaussian'"), std::string::npos) << error;
  EXPECT_FALSE(parseInputSpec("x=zeros", error));
  std::filesystem::remove_all(dir);
}

TEST(ExecutionTest, ShardMapWithoutReferenceSaysWhy) {
  support::CollectingSink sink;
  auto p = Program::fromText("inline.mlir", R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%b: tensor<2xf32>) {
    %n = stablehlo.negate %b : tensor<2xf32>
    sdy.return %n : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
})",
                             sink);
  ASSERT_TRUE(p) << messages(sink);
  ExecutionOptions options;
  options.checkReference = true;
  auto e = Execution::create(*p, options, sink);
  ASSERT_TRUE(e) << messages(sink);
  ASSERT_TRUE(e->start()) << messages(sink);
  EXPECT_EQ(e->runToEnd(), StopReason::Finished) << messages(sink);
  EXPECT_NE(e->referenceSummary().find("manual computation"), std::string::npos)
      << e->referenceSummary();
}

TEST(ExecutionTest, StepIntoOverAndOutOfALoop) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/loop.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  auto start = [&]() {
    auto e = Execution::create(*program, {}, sink);
    EXPECT_TRUE(e);
    EXPECT_TRUE(e->setInputs({exec::Tensor::fromInts(ir::ElementType::I32, {}, std::vector<int64_t>{3})}));
    EXPECT_TRUE(e->start()) << messages(sink);
    // Past the two constants: the loop is next.
    e->step();
    e->step();
    EXPECT_TRUE(e->currentOp(0)->is("stablehlo.while"));
    return e;
  };
  // Step into: the loop's condition region is entered.
  auto into = start();
  EXPECT_EQ(into->step(), StopReason::Stepped);
  EXPECT_EQ(into->depth(0), 2u);
  EXPECT_TRUE(into->currentOp(0)->is("stablehlo.compare"));
  // Step out of the condition, into the body (one level up is the loop, which continues).
  EXPECT_EQ(into->stepOut(), StopReason::Stepped);
  EXPECT_EQ(into->depth(0), 2u) << into->currentOp(0)->name();
  EXPECT_TRUE(into->currentOp(0)->is("stablehlo.add"));

  // Step over: the whole loop (3 iterations) is one step.
  auto over = start();
  EXPECT_EQ(over->stepOver(), StopReason::Stepped);
  EXPECT_EQ(over->depth(0), 1u);
  ASSERT_TRUE(over->currentOp(0));
  const ir::Operation* doubled = over->currentOp(0);
  EXPECT_TRUE(doubled->is("stablehlo.add"));
  const exec::Tensor* sum = over->value(0, doubled->operand(0));
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum->intAt(0), 1 + 2 + 3);
  EXPECT_EQ(over->runToEnd(), StopReason::Finished);
  std::string error;
  auto results = over->globalResults(error);
  ASSERT_TRUE(results) << error;
  EXPECT_EQ((*results)[0].intAt(0), 12);
}

TEST(ExecutionTest, EachFunctionRunsOnItsOwnMesh) {
  support::CollectingSink sink;
  auto program = Program::fromText("two_meshes.mlir", R"(sdy.mesh @pair = <["x"=2]>
sdy.mesh @quad = <["y"=4]>
func.func @on_pair(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@pair, [{"x"}]>}) -> tensor<8xf32> {
  %n = stablehlo.negate %a : tensor<8xf32>
  return %n : tensor<8xf32>
}
func.func @on_quad(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@quad, [{"y"}]>}) -> tensor<8xf32> {
  %n = stablehlo.negate %a : tensor<8xf32>
  return %n : tensor<8xf32>
})",
                                     sink);
  ASSERT_TRUE(program) << messages(sink);
  for (auto [fn, devices] : {std::pair<std::string, int64_t>{"on_pair", 2}, {"on_quad", 4}}) {
    ExecutionOptions options;
    options.function = fn;
    auto e = Execution::create(*program, options, sink);
    ASSERT_TRUE(e) << messages(sink);
    EXPECT_EQ(e->numDevices(), devices) << fn;
  }
}

namespace {

// An endless while loop on one device (tests/data/bad/limits/endless_while.mlir).
std::unique_ptr<Run> prepareEndless(const CancelFlag* cancel, int64_t stepLimit) {
  auto run = std::make_unique<Run>();
  run->program = Program::load(dataPath("bad/limits/endless_while.mlir"), run->sink);
  EXPECT_TRUE(run->program) << messages(run->sink);
  if (!run->program)
    return nullptr;
  ExecutionOptions options;
  options.stage = Stage::AsWritten;
  options.cancel = cancel;
  options.stepLimit = stepLimit;
  run->execution = Execution::create(*run->program, options, run->sink);
  EXPECT_TRUE(run->execution) << messages(run->sink);
  if (!run->execution || !run->execution->setInputs(InputSpec{}) || !run->execution->start())
    return nullptr;
  return run;
}

// The per-device run's dot_general result and the function's result.
std::pair<const ir::Value*, const ir::Value*> dotAndResult(const Execution& e) {
  const ir::Value* dot = nullptr;
  e.module().op().walk([&](const ir::Operation& op) {
    if (op.is("stablehlo.dot_general"))
      dot = op.result(0);
  });
  const ir::Block* body = ir::func::body(e.function());
  return {dot, body->ops().back()->operand(0)};
}

std::unique_ptr<Run> prepareWithHistory(int64_t historyBytes) {
  auto run = std::make_unique<Run>();
  run->program = Program::load(dataPath("session/global_matmul.mlir"), run->sink);
  EXPECT_TRUE(run->program) << messages(run->sink);
  ExecutionOptions options;
  options.historyBytes = historyBytes;
  run->execution = Execution::create(*run->program, options, run->sink);
  EXPECT_TRUE(run->execution) << messages(run->sink);
  return run;
}

} // namespace

TEST(ExecutionTest, CancelFromAnotherThreadStopsAnEndlessRunBetweenSteps) {
  CancelFlag cancel{false};
  auto run = prepareEndless(&cancel, int64_t{1} << 40);
  ASSERT_TRUE(run);
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel.store(true);
  });
  StopReason reason = run->execution->runToEnd();
  canceller.join();
  EXPECT_EQ(reason, StopReason::Cancelled);
  EXPECT_EQ(stopReasonName(reason), "cancelled");
  EXPECT_FALSE(run->execution->finished());
  EXPECT_FALSE(run->execution->failed());
  EXPECT_GT(run->execution->steps(), 1);
  // The run stays where it stopped: once the flag is cleared, stepping goes on.
  cancel.store(false);
  int64_t steps = run->execution->steps();
  EXPECT_EQ(run->execution->step(), StopReason::Stepped);
  EXPECT_EQ(run->execution->steps(), steps + 1);
}

TEST(ExecutionTest, AFlagSetBeforehandStopsEveryMultiStepCommandAfterOneStep) {
  CancelFlag cancel{true};
  auto run = prepareEndless(&cancel, int64_t{1} << 40);
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  EXPECT_EQ(e.continueRun(), StopReason::Cancelled);
  EXPECT_EQ(e.steps(), 1);
  EXPECT_EQ(e.runToEnd(), StopReason::Cancelled);
  EXPECT_EQ(e.steps(), 2);
  EXPECT_EQ(e.stepOut(), StopReason::Cancelled);
  EXPECT_EQ(e.steps(), 3);
  // A single step is one step whatever the flag says.
  EXPECT_EQ(e.step(), StopReason::Stepped);
  EXPECT_EQ(e.steps(), 4);
}

TEST(ExecutionTest, StepLimitEndsAnEndlessRunWithALocatedError) {
  auto run = prepareEndless(nullptr, 300);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->execution->runToEnd(), StopReason::Failed);
  bool located = false;
  for (const support::Diagnostic& d : run->sink.diagnostics())
    located |= d.severity == support::Severity::Error && d.loc.isValid() &&
               d.message.find("step limit") != std::string::npos;
  EXPECT_TRUE(located) << messages(run->sink);
}

TEST(ExecutionTest, FreedValuesSayWhyAndResultsStayReadable) {
  auto run = prepareWithHistory(0);
  ASSERT_TRUE(run && run->execution);
  Execution& e = *run->execution;
  auto [dot, result] = dotAndResult(e);
  ASSERT_TRUE(dot && result);
  ASSERT_TRUE(e.start());
  EXPECT_EQ(e.whyNoValue(0, dot), "not computed yet on this device");
  EXPECT_EQ(e.runToEnd(), StopReason::Finished);
  EXPECT_EQ(e.value(0, dot), nullptr);
  std::string why = e.whyNoValue(0, dot);
  // The dot's partial sums go to the all-reduce partitioning inserted: its last user.
  EXPECT_EQ(why.rfind("not kept: freed after its last use at 'stablehlo.all_reduce'", 0), 0u)
      << why;
  EXPECT_NE(why.find("keeps no history"), std::string::npos) << why;
  std::string error;
  EXPECT_FALSE(e.globalValue(dot, error));
  EXPECT_NE(error.find("not kept"), std::string::npos) << error;
  // The result is kept: readable on every device and assembled.
  for (int64_t d = 0; d < e.numDevices(); ++d)
    EXPECT_TRUE(e.value(d, result)) << "device " << d;
  auto global = e.globalValue(result, error);
  ASSERT_TRUE(global) << error;
  EXPECT_EQ(global->value.shape(), (std::vector<int64_t>{8, 4}));
}

TEST(ExecutionTest, RecordedAndHistoryValuesSurviveTheirLastUse) {
  auto recorded = prepareWithHistory(0);
  ASSERT_TRUE(recorded && recorded->execution);
  Execution& e = *recorded->execution;
  auto [dot, result] = dotAndResult(e);
  e.recordValue(dot);
  ASSERT_TRUE(e.start());
  EXPECT_EQ(e.runToEnd(), StopReason::Finished);
  for (int64_t d = 0; d < e.numDevices(); ++d)
    ASSERT_TRUE(e.value(d, dot)) << "device " << d;
  EXPECT_EQ(e.value(0, dot)->shape(), (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(e.historyBytesUsed(), 0); // recorded values are not the history's

  auto history = prepareWithHistory(int64_t{1} << 20);
  ASSERT_TRUE(history && history->execution);
  Execution& h = *history->execution;
  auto [hdot, hresult] = dotAndResult(h);
  ASSERT_TRUE(h.start());
  EXPECT_EQ(h.runToEnd(), StopReason::Finished);
  for (int64_t d = 0; d < h.numDevices(); ++d)
    EXPECT_TRUE(h.value(d, hdot)) << "device " << d;
  EXPECT_GT(h.historyBytesUsed(), 0);
  EXPECT_LE(h.historyBytesUsed(), int64_t{1} << 20);
  // A budget smaller than one value keeps none of them.
  auto tiny = prepareWithHistory(8);
  ASSERT_TRUE(tiny && tiny->execution);
  Execution& t = *tiny->execution;
  auto [tdot, tresult] = dotAndResult(t);
  ASSERT_TRUE(t.start());
  EXPECT_EQ(t.runToEnd(), StopReason::Finished);
  EXPECT_EQ(t.value(0, tdot), nullptr);
  EXPECT_NE(t.whyNoValue(0, tdot).find("most recent 8 bytes"), std::string::npos)
      << t.whyNoValue(0, tdot);
}

TEST(ExecutionTest, AReduceWhoseInitIsNotTheIdentityIsWarnedAboutWhereShardingChangesIt) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/reduce_init.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const StageAnalyses* partitioned = program->analyses(Stage::Partitioned, sink);
  ASSERT_TRUE(partitioned) << messages(sink);
  // Two warnings: the sum from 10 over the 4 devices of x and y (line 10), and the product over
  // the 2 devices of x (line 25). Not the maximum (idempotent, all-reduced as a maximum), the sum
  // from 0, or the product over an unsharded dimension.
  std::vector<std::string> warnings;
  for (const support::Diagnostic& d : partitioned->diagnostics)
    if (d.message.find("reduce") != std::string::npos) {
      EXPECT_EQ(d.severity, support::Severity::Warning);
      warnings.push_back(std::to_string(d.loc.line) + ": " + d.message);
    }
  ASSERT_EQ(warnings.size(), 2u) << (warnings.empty() ? "" : warnings[0]);
  std::sort(warnings.begin(), warnings.end());
  EXPECT_EQ(warnings[0].rfind("10: ", 0), 0u) << warnings[0];
  EXPECT_NE(warnings[0].find("(10) is not the identity of its 'stablehlo.add' body (0)"),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[0].find("enters 4 times"), std::string::npos) << warnings[0];
  EXPECT_EQ(warnings[1].rfind("25: ", 0), 0u) << warnings[1];
  EXPECT_NE(warnings[1].find("'stablehlo.multiply' body is not a sum"), std::string::npos)
      << warnings[1];

  // And it is so: 0 + 1 + ... + 7 = 28. Unsharded, 28 + 10 = 38; sharded, every device starts
  // from 10: 28 + 4 * 10 = 68. The maximum is 10 both ways, the sum from 0 is 28.
  ExecutionOptions options;
  options.checkReference = true;
  auto execution = Execution::create(*program, options, sink);
  ASSERT_TRUE(execution) << messages(sink);
  std::vector<int64_t> v{0, 1, 2, 3, 4, 5, 6, 7};
  ASSERT_TRUE(execution->setInputs({exec::Tensor::fromInts(ir::ElementType::I32, {8}, v)}));
  ASSERT_TRUE(execution->start()) << messages(sink);
  ASSERT_EQ(execution->runToEnd(), StopReason::Finished) << messages(sink);
  std::string error;
  auto results = execution->globalResults(error);
  ASSERT_TRUE(results) << error;
  EXPECT_EQ((*results)[0].intAt(0), 68);
  EXPECT_EQ((*results)[1].intAt(0), 10);
  EXPECT_EQ((*results)[2].intAt(0), 28);
  ASSERT_FALSE(execution->divergences().empty());
  EXPECT_EQ(execution->divergences().front().op->loc().line, 10u);
}

TEST(ExecutionTest, TimelineListsEveryStepAndAJumpReachesTheSameState) {
  // matmul_basic as written: the dot (line 11), the psum over 'j' (line 12), the return (19).
  auto run = prepare("session/shard_map_seed.mlir", "matmul_basic");
  ASSERT_TRUE(run);
  Execution& e = *run->execution;
  ASSERT_TRUE(e.start());
  // Stepped twice by hand: the psum is live on every device.
  EXPECT_EQ(e.step(), StopReason::Stepped);
  EXPECT_EQ(e.step(), StopReason::Stepped);
  const ir::Value* summed = e.timeline()[1].op->result(0);
  std::vector<exec::Tensor> stepped; // each device's block of the psum
  for (int64_t d = 0; d < e.numDevices(); ++d) {
    ASSERT_TRUE(e.value(d, summed)) << "device " << d;
    stepped.push_back(*e.value(d, summed));
  }
  EXPECT_EQ(e.runToEnd(), StopReason::Finished);
  ASSERT_EQ(e.timeline().size(), 3u);
  EXPECT_EQ(static_cast<int64_t>(e.timeline().size()), e.steps());
  const std::vector<std::pair<std::string, uint32_t>> written = {
      {"stablehlo.dot_general", 11}, {"stablehlo.all_reduce", 12}, {"func.return", 19}};
  for (size_t k = 0; k < written.size(); ++k) {
    const TimelineStep& s = e.timeline()[k];
    EXPECT_EQ(s.op->name(), written[k].first) << "step " << k + 1;
    EXPECT_EQ(s.op->loc().line, written[k].second) << "step " << k + 1;
    EXPECT_EQ(s.collective, k == 1) << "step " << k + 1;
    EXPECT_EQ(s.depth, 1u);
    EXPECT_FALSE(s.diverged);
  }

  // A second run with the same inputs, jumped to step 2, holds the same psum on every device
  // and is about to return; a step already passed is not reached again.
  auto again = Execution::create(*run->program, ExecutionOptions{.function = "matmul_basic"},
                                 run->sink);
  ASSERT_TRUE(again);
  ASSERT_TRUE(again->setInputs(e.inputs()));
  ASSERT_TRUE(again->start());
  EXPECT_EQ(again->runToStep(2), StopReason::Stepped);
  EXPECT_EQ(again->steps(), 2);
  EXPECT_TRUE(again->currentOp(0)->is("func.return"));
  const ir::Value* summedAgain = again->timeline()[1].op->result(0);
  for (int64_t d = 0; d < again->numDevices(); ++d) {
    const exec::Tensor* block = again->value(d, summedAgain);
    ASSERT_TRUE(block) << "device " << d;
    ASSERT_EQ(block->numElements(), stepped[d].numElements());
    for (int64_t i = 0; i < block->numElements(); ++i)
      ASSERT_EQ(block->floatAt(i), stepped[d].floatAt(i)) << "device " << d << " element " << i;
  }
  EXPECT_EQ(again->runToStep(1), StopReason::Stepped);
  EXPECT_EQ(again->steps(), 2);
  EXPECT_EQ(again->runToStep(100), StopReason::Finished);
  EXPECT_EQ(again->steps(), 3);
}

TEST(ExecutionTest, TimelineMarksLoopDepthAndTheStepThatDiverged) {
  // The loop (session/loop.mlir) with n = 1: two constants, the while, then its condition
  // (compare, return) and body (add, add, return) once, the condition again, then the rest.
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/loop.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  auto loop = Execution::create(*program, {}, sink);
  ASSERT_TRUE(loop);
  ASSERT_TRUE(loop->setInputs(
      {exec::Tensor::fromInts(ir::ElementType::I32, {}, std::vector<int64_t>{1})}));
  ASSERT_TRUE(loop->start()) << messages(sink);
  EXPECT_EQ(loop->runToEnd(), StopReason::Finished);
  std::vector<std::string> names;
  std::vector<uint32_t> depths;
  for (const TimelineStep& s : loop->timeline()) {
    names.emplace_back(s.op->name());
    depths.push_back(s.depth);
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "stablehlo.constant", "stablehlo.constant", "stablehlo.while",
                       "stablehlo.compare", "stablehlo.return", "stablehlo.add", "stablehlo.add",
                       "stablehlo.return", "stablehlo.compare", "stablehlo.return",
                       "stablehlo.add", "func.return"}));
  EXPECT_EQ(depths, (std::vector<uint32_t>{1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 1, 1}));

  // unchecked_replication: each device adds its own partition id where 'j' replicas must agree.
  // Values inside the manual computation have no global layout to check; the function's result
  // does: the divergence is marked at the return (line 72), the fifth step, and only there.
  auto run = prepare("session/shard_map_seed.mlir", "unchecked_replication");
  ASSERT_TRUE(run);
  ASSERT_TRUE(run->execution->start()) << messages(run->sink);
  run->execution->runToEnd();
  std::vector<int64_t> diverged;
  for (size_t k = 0; k < run->execution->timeline().size(); ++k)
    if (run->execution->timeline()[k].diverged)
      diverged.push_back(static_cast<int64_t>(k) + 1);
  ASSERT_EQ(diverged, (std::vector<int64_t>{5}));
  EXPECT_EQ(run->execution->timeline()[4].op->loc().line, 72u);
}
