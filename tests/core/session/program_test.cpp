// Program stages: each derived from a copy of the one before (earlier stages stay as they were),
// cancellation between passes, and the gradient stages with their own runnable program.
#include "core/autodiff/function_costs.h"
#include "core/io/mlir/mlir.h"
#include "core/session/execution.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

TEST(ProgramTest, LaterStagesLeaveEarlierOnesUnchanged) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("propagation_chain.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  std::string written = io::mlir::printModule(program->asWritten());
  const ir::Module* propagated = program->stage(Stage::Propagated, sink);
  ASSERT_TRUE(propagated) << messages(sink);
  std::string propagatedText = io::mlir::printModule(*propagated);
  ASSERT_TRUE(program->stage(Stage::PerDevice, sink)) << messages(sink);
  EXPECT_EQ(io::mlir::printModule(program->asWritten()), written);
  EXPECT_EQ(io::mlir::printModule(*propagated), propagatedText);
  EXPECT_NE(propagatedText, written); // propagation added shardings
  // Computing PerDevice computed (and cached) the stages in between.
  EXPECT_TRUE(program->cachedStage(Stage::Partitioned));
}

TEST(ProgramTest, ACancelledStageFailsAndIsComputedLater) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/global_matmul.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  CancelFlag cancel{true};
  EXPECT_FALSE(program->stage(Stage::Partitioned, sink, &cancel));
  EXPECT_NE(messages(sink).find("cancelled while computing the propagated stage"),
            std::string::npos)
      << messages(sink);
  EXPECT_FALSE(program->cachedStage(Stage::Propagated));
  support::CollectingSink again;
  cancel = false;
  EXPECT_TRUE(program->stage(Stage::Partitioned, again, &cancel)) << messages(again);
  EXPECT_FALSE(again.hasErrors());
}

// The design's data-parallel loss: the efficient gradient has no all-reduce, the naive one has
// one; both run on the mesh and agree.
TEST(ProgramTest, GradientStagesCompareRulesAndRunOnTheMesh) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("autodiff/data_parallel_loss.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const ir::Module* efficient = program->stage(Stage::GradientEfficient, sink);
  const ir::Module* naive = program->stage(Stage::GradientNaive, sink);
  ASSERT_TRUE(efficient && naive) << messages(sink);
  EXPECT_EQ(program->defaultFunction(Stage::GradientEfficient), "loss_grad");
  EXPECT_EQ(program->defaultFunction(Stage::GradientNaive), "loss_grad_naive");
  const ir::Operation* efficientFn = efficient->lookupFunction("loss_grad");
  const ir::Operation* naiveFn = naive->lookupFunction("loss_grad_naive");
  ASSERT_TRUE(efficientFn && naiveFn);
  // The forward pmean's psum is still there in both; the naive backward adds one.
  int forward = autodiff::countOps(*program->asWritten().lookupFunction("loss"),
                                   "stablehlo.all_reduce");
  EXPECT_EQ(autodiff::countOps(*efficientFn, "stablehlo.all_reduce"), forward);
  EXPECT_EQ(autodiff::countOps(*naiveFn, "stablehlo.all_reduce"), forward + 1);

  std::vector<std::vector<double>> results;
  for (Stage stage : kGradientStages) {
    ExecutionOptions options;
    options.stage = stage;
    auto execution = Execution::create(*program, options, sink);
    ASSERT_TRUE(execution) << messages(sink);
    EXPECT_EQ(ir::func::name(execution->function()), program->defaultFunction(stage));
    std::string error;
    auto spec = parseInputSpec("random:5", error);
    ASSERT_TRUE(spec) << error;
    ASSERT_TRUE(execution->setInputs(*spec) && execution->start()) << messages(sink);
    ASSERT_EQ(execution->runToEnd(), StopReason::Finished) << messages(sink);
    auto values = execution->globalResults(error);
    ASSERT_TRUE(values && values->size() == 3) << error;
    std::vector<double> flat;
    for (const exec::Tensor& t : *values)
      for (int64_t i = 0; i < t.numElements(); ++i)
        flat.push_back(t.floatAt(i));
    results.push_back(std::move(flat));
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  double largest = 0;
  for (size_t i = 0; i < results[0].size(); ++i) {
    EXPECT_NEAR(results[0][i], results[1][i], 1e-12) << i;
    largest = std::max(largest, std::abs(results[0][i]));
  }
  EXPECT_GT(largest, 0.0); // a gradient of zeros would agree trivially
}

TEST(ProgramTest, GradientOfANonScalarFunctionIsALocatedError) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("session/global_matmul.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  EXPECT_FALSE(program->stage(Stage::GradientEfficient, sink));
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_NE(messages(sink).find("rank-0"), std::string::npos) << messages(sink);
  EXPECT_TRUE(sink.diagnostics().front().loc.isValid());
  EXPECT_FALSE(program->gradientProgram(Stage::GradientNaive, sink));
  // The pipeline stages are unaffected.
  EXPECT_TRUE(program->stage(Stage::PerDevice, sink));
}

TEST(ProgramTest, StageNamesRoundTrip) {
  for (Stage stage : kAllStages)
    EXPECT_EQ(parseStage(stageName(stage)), stage);
  EXPECT_EQ(parseStage("grad"), Stage::GradientEfficient);
  EXPECT_FALSE(parseStage("gradient-fast"));
}

// The origin chain of a propagated sharding: tanh's result gets "data" from %x and "model" from
// %w1 through the first dot_general.
TEST(ProgramTest, ExplainsWhereAPropagatedShardingComesFrom) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("propagation_chain.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const ir::Block* body = ir::func::body(*program->asWritten().lookupFunction("main"));
  const ir::Value* tanh = nullptr;
  for (const auto& op : body->ops())
    if (op->is("stablehlo.tanh"))
      tanh = op->result(0);
  ASSERT_TRUE(tanh);
  auto explained = program->explainSharding(*tanh);
  ASSERT_TRUE(explained);
  EXPECT_TRUE(explained->changed);
  EXPECT_EQ(explained->asWritten, "(no sharding)");
  EXPECT_NE(explained->propagated.find("[{\"data\", ?}, {\"model\", ?}]"), std::string::npos)
      << explained->propagated;
  ASSERT_EQ(explained->seeds.size(), 2u);
  std::string seeds = explained->seeds[0].str() + "\n" + explained->seeds[1].str();
  EXPECT_NE(seeds.find("%x  #sdy.sharding<@mesh, [{\"data\"}, {}]>"), std::string::npos) << seeds;
  EXPECT_NE(seeds.find("%w1  #sdy.sharding<@mesh, [{}, {\"model\"}]>"), std::string::npos) << seeds;
  // tanh's factor rule: one factor per dimension, operand and result alike.
  EXPECT_EQ(explained->rule, "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=16, j=256}>");
  ASSERT_FALSE(explained->steps.empty());
  EXPECT_NE(explained->steps.front().str().find("stablehlo.dot_general forward"), std::string::npos);
  EXPECT_NE(explained->steps.back().str().find("%h -> %a: stablehlo.tanh forward"), std::string::npos)
      << explained->steps.back().str();
  EXPECT_NE(explained->steps.back().str().find("(line 10)"), std::string::npos);

  // An annotated argument keeps its own annotation.
  auto argument = program->explainSharding(*body->argument(0));
  ASSERT_TRUE(argument);
  EXPECT_FALSE(argument->changed);
  EXPECT_TRUE(argument->rule.empty());
  EXPECT_TRUE(argument->steps.empty());
  EXPECT_EQ(argument->asWritten, argument->propagated);
  // A value of another module is not explained.
  const ir::Module* propagated = program->stage(Stage::Propagated, sink);
  ASSERT_TRUE(propagated);
  EXPECT_FALSE(program->explainSharding(
      *ir::func::body(*propagated->lookupFunction("main"))->argument(0)));
}

namespace {

std::unique_ptr<ir::Module> parse(const std::string& text, support::CollectingSink& sink) {
  return io::mlir::parseModule(text, /*fileId=*/1, sink);
}

std::string picked(const std::string& text, support::CollectingSink& sink) {
  auto module = parse(text, sink);
  if (!module)
    return "(parse error)";
  const ir::Operation* fn = pickFunction(*module, "", sink);
  return fn ? std::string(ir::func::name(*fn)) : "(none)";
}

} // namespace

TEST(ProgramTest, EntryIsMainElseTheOnlyPublicFunction) {
  support::CollectingSink sink;
  // JAX names the entry @main; private helpers and public comparators do not compete with it.
  EXPECT_EQ(picked(R"(
    func.func private @helper(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
    func.func @comparator(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
    func.func public @main(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> })",
                   sink),
            "main");
  // Older exports name it after the function (`@jit_f`) and make everything else private.
  EXPECT_EQ(picked(R"(
    func.func public @jit_f(%x: tensor<f32>) -> tensor<f32> {
      %0 = func.call @helper(%x) : (tensor<f32>) -> tensor<f32>
      return %0 : tensor<f32>
    }
    func.func private @helper(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> })",
                   sink),
            "jit_f");
  // A reference twin is not a second entry.
  EXPECT_EQ(picked(R"(
    func.func @step(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
    func.func @step_reference(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> })",
                   sink),
            "step");
  EXPECT_TRUE(sink.diagnostics().empty()) << messages(sink);
}

TEST(ProgramTest, AnAmbiguousEntryIsAnErrorNamingTheCandidates) {
  support::CollectingSink sink;
  EXPECT_EQ(picked(R"(
    func.func @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
    func.func public @g(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }
    func.func private @h(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> })",
                   sink),
            "(none)");
  EXPECT_EQ(messages(sink),
            "the program has no @main and 2 public functions (@f, @g): pick one with --function\n");

  support::CollectingSink privateOnly;
  EXPECT_EQ(picked(R"(
    func.func private @a(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> })",
                   privateOnly),
            "(none)");
  EXPECT_EQ(messages(privateOnly), "the program has no @main and no public function (private: "
                                   "@a): pick one with --function\n");

  support::CollectingSink unknown;
  auto module = parse("func.func @main(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }",
                      unknown);
  ASSERT_TRUE(module);
  EXPECT_FALSE(pickFunction(*module, "@nope", unknown));
  EXPECT_EQ(messages(unknown), "no function named 'nope'; the program has @main\n");
}

TEST(ProgramTest, LoadRefusesFifosDevicesAndDirectoriesWithoutBlocking) {
  // A FIFO without a writer would block an open(); /dev/zero never ends. Both are refused after
  // a look at the path, like the CLI refuses them.
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("shardscope-program-load-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path fifo = dir / "program.mlir";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo.string(), std::string("/dev/zero"), dir.string()}) {
    support::CollectingSink sink;
    auto started = std::chrono::steady_clock::now();
    EXPECT_FALSE(Program::load(path, sink)) << path;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << path;
    ASSERT_TRUE(sink.hasErrors()) << path;
    const std::string& message = sink.diagnostics().front().message;
    EXPECT_TRUE(message.find("not a regular file") != std::string::npos ||
                message.find("is a directory") != std::string::npos)
        << path << ": " << message;
  }
  std::filesystem::remove_all(dir);
}
