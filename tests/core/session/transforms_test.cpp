// Gradients and transposes under a front end's options (session::transformFunction), and the
// propagation explanations under a chosen strategy and naming.
#include "core/session/program.h"
#include "core/session/transforms.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

namespace {

int countNamed(const analysis::CostSummary& costs, std::string_view name) {
  int n = 0;
  for (const analysis::CollectiveCost& cost : costs.collectives)
    n += cost.op->name() == name;
  return n;
}

} // namespace

// The data-parallel loss of the design (8 devices on "batch", f64): the gradient with respect
// to the replicated 16x16 parameters needs one all-reduce of the 2048-byte gradient, which the
// ring model prices at 2 * 7/8 * 2048 = 3584 bytes per device. The naive rules also transpose
// the loss's psum into a psum of the scalar cotangent: 2 * 7/8 * 8 = 14 bytes more.
TEST(TransformsTest, GradientComparesBothRuleSets) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("autodiff/data_parallel_loss.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  TransformRequest request;
  request.arguments = {"params"};
  std::optional<TransformResult> result = transformFunction(*program, request, sink);
  ASSERT_TRUE(result) << messages(sink);
  EXPECT_EQ(ir::func::name(*result->source), "loss");
  EXPECT_EQ(result->arguments, std::vector<unsigned>{0});
  EXPECT_EQ(result->rules, autodiff::CollectiveRules::Efficient);
  EXPECT_EQ(result->efficientCosts().totalBytesSent, 3584);
  EXPECT_EQ(result->naiveCosts().totalBytesSent, 3598);
  EXPECT_EQ(result->efficientCosts().collectives.size(), 1u);
  EXPECT_EQ(result->naiveCosts().collectives.size(), 2u);
  EXPECT_EQ(countNamed(result->naiveCosts(), "stablehlo.all_reduce"), 2);
  // Both new functions are in the result's module; the program as written is unchanged.
  EXPECT_TRUE(result->module->lookupFunction(ir::func::name(*result->function)));
  EXPECT_TRUE(result->module->lookupFunction(ir::func::name(*result->compared)));
  EXPECT_FALSE(program->asWritten().lookupFunction(ir::func::name(*result->function)));

  // Asking for the naive rules swaps which function is built first, not the costs.
  request.naive = true;
  std::optional<TransformResult> naive = transformFunction(*program, request, sink);
  ASSERT_TRUE(naive) << messages(sink);
  EXPECT_EQ(naive->rules, autodiff::CollectiveRules::Naive);
  EXPECT_EQ(naive->costs.totalBytesSent, 3598);
  EXPECT_EQ(naive->efficientCosts().totalBytesSent, 3584);

  // Inside a manual computation the program writes its collectives itself: partitioning adds
  // none to either function.
  PartitionedCosts partitioned = result->partitionedCosts();
  ASSERT_TRUE(partitioned.partitioned) << partitioned.error;
  EXPECT_EQ(partitioned.efficient.collectives.size(), 1u);
  EXPECT_EQ(partitioned.naive.collectives.size(), 2u);
}

TEST(TransformsTest, AnUnknownArgumentIsALocatedError) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("autodiff/data_parallel_loss.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  TransformRequest request;
  request.arguments = {"nope"};
  EXPECT_FALSE(transformFunction(*program, request, sink));
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_NE(messages(sink).find("nope"), std::string::npos) << messages(sink);
  EXPECT_TRUE(sink.diagnostics().front().loc.isValid());
}

TEST(TransformsTest, ExplanationsNameValuesAsAsked) {
  support::CollectingSink sink;
  auto program = Program::load(dataPath("propagation_chain.mlir"), sink);
  ASSERT_TRUE(program) << messages(sink);
  const ir::Block* body = ir::func::body(*program->asWritten().lookupFunction("main"));
  const ir::Value* tanh = nullptr;
  for (const auto& op : body->ops())
    if (op->is("stablehlo.tanh"))
      tanh = op->result(0);
  ASSERT_TRUE(tanh);
  ExplainOptions printed;
  printed.names = ExplainOptions::Names::Printed;
  auto byPrinter = program->explainSharding(*tanh, printed);
  auto bySource = program->explainSharding(*tanh);
  ASSERT_TRUE(byPrinter && bySource);
  // %h = dot_general (printed %0) feeds %a = tanh (printed %1) at line 10.
  EXPECT_EQ(byPrinter->steps.back().text.substr(0, 30), "%0 -> %1: stablehlo.tanh forwa");
  EXPECT_EQ(bySource->steps.back().text.substr(0, 30), "%h -> %a: stablehlo.tanh forwa");
  EXPECT_EQ(byPrinter->steps.back().line, 10u);
  EXPECT_EQ(byPrinter->seeds.size(), bySource->seeds.size());
  ASSERT_TRUE(byPrinter->propagatedSharding);
  EXPECT_EQ(byPrinter->propagatedSharding->dims.size(), 2u);

  // A strategy is explained with its own propagation: the basic one reaches the same sharding
  // here (no conflicts), through the same seeds.
  ExplainOptions basic;
  basic.level = propagation::PropagationLevel::Basic;
  auto byBasic = program->explainSharding(*tanh, basic);
  ASSERT_TRUE(byBasic);
  EXPECT_EQ(byBasic->propagated, bySource->propagated);
}

TEST(TransformsTest, StrategyNames) {
  EXPECT_EQ(parsePropagationStrategy("basic"), propagation::PropagationLevel::Basic);
  EXPECT_EQ(parsePropagationStrategy("aggressive"), propagation::PropagationLevel::Aggressive);
  EXPECT_EQ(parsePropagationStrategy("op-priority"), propagation::PropagationLevel::OpPriority);
  EXPECT_EQ(parsePropagationStrategy("user-priority"),
            propagation::PropagationLevel::UserPriority);
  EXPECT_FALSE(parsePropagationStrategy("Basic"));
  EXPECT_FALSE(parsePropagationStrategy(""));
}
