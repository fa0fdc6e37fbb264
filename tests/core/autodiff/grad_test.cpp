// Gradients of single-device functions agree with central finite differences (f64), for every
// non-linear op `grad` has a rule for and the linear ops around them; bad requests fail with
// located errors.
#include "tests/core/autodiff/autodiff_test_util.h"

using namespace shardscope;
using namespace shardscope::autodiff;
using namespace shardscope::autodiff::testing;

namespace {

// Checks every gradient element of `fn` w.r.t. all its float arguments (except `fixed`) against
// (f(x + h) - f(x - h)) / 2h.
void expectGradientsMatchFiniteDifferences(const std::string& file, const std::string& fn,
                                           std::vector<std::string> wrt,
                                           std::vector<std::pair<double, double>> ranges) {
  auto module = parse(readTestData("autodiff/" + file));
  ASSERT_TRUE(module);
  std::string g = addGrad(*module, fn, wrt);
  ASSERT_FALSE(g.empty());
  std::mt19937 rng(17);
  std::vector<ir::Type> types = argumentTypes(*module, fn);
  std::vector<exec::Tensor> inputs;
  for (size_t i = 0; i < types.size(); ++i)
    inputs.push_back(randomTensor(types[i], rng, ranges[i].first, ranges[i].second));
  std::vector<exec::Tensor> grads = runLocal(*module, g, inputs);
  ASSERT_EQ(grads.size(), wrt.size());
  const double h = 1e-6;
  for (size_t k = 0; k < wrt.size(); ++k) {
    size_t arg = static_cast<size_t>(std::stoi(wrt[k]));
    for (int64_t e = 0; e < inputs[arg].numElements(); ++e) {
      std::vector<exec::Tensor> plus = inputs, minus = inputs;
      plus[arg].setFloat(e, inputs[arg].floatAt(e) + h);
      minus[arg].setFloat(e, inputs[arg].floatAt(e) - h);
      auto fp = runLocal(*module, fn, plus);
      auto fm = runLocal(*module, fn, minus);
      ASSERT_EQ(fp.size(), 1u);
      ASSERT_EQ(fm.size(), 1u);
      double numeric = (fp[0].floatAt(0) - fm[0].floatAt(0)) / (2 * h);
      EXPECT_NEAR(grads[k].floatAt(e), numeric, 1e-6 * (1 + std::abs(numeric)))
          << "d" << fn << "/d arg " << arg << "[" << e << "]";
    }
  }
}

} // namespace

TEST(GradTest, ElementwiseNonlinearOpsMatchFiniteDifferences) {
  expectGradientsMatchFiniteDifferences("grad_ops.mlir", "elementwise", {"0", "1"},
                                        {{-1.0, 1.0}, {0.5, 1.5}});
}

TEST(GradTest, ShapeOpsDotAndReduceMaxMatchFiniteDifferences) {
  expectGradientsMatchFiniteDifferences("grad_ops.mlir", "shapes", {"0", "1"},
                                        {{-1.0, 1.0}, {-1.0, 1.0}, {0.0, 1.0}});
}

TEST(GradTest, BatchedDotWithPermutedContractingDimsMatchesFiniteDifferences) {
  expectGradientsMatchFiniteDifferences("grad_ops.mlir", "batched_dot", {"0", "1"},
                                        {{-1.0, 1.0}, {-1.0, 1.0}});
}

TEST(GradTest, GradientTakesTheSameArgumentsAndReturnsOneGradientPerWrtArgument) {
  auto module = parse(readTestData("autodiff/grad_ops.mlir"));
  ASSERT_TRUE(module);
  std::string g = addGrad(*module, "elementwise", {"%y"});
  EXPECT_EQ(g, "elementwise_grad");
  ASSERT_EQ(argumentTypes(*module, g).size(), 2u);
  ASSERT_EQ(resultTypes(*module, g).size(), 1u);
  EXPECT_EQ(resultTypes(*module, g)[0].str(), "tensor<4xf64>");
}

TEST(GradTest, NonScalarResultIsALocatedError) {
  auto module = parse(readTestData("autodiff/grad_ops.mlir"));
  ASSERT_TRUE(module);
  size_t before = module->functions().size();
  support::CollectingSink sink;
  GradOptions options;
  options.function = "vector_result";
  options.wrt = {"x"};
  EXPECT_FALSE(grad(*module, options, sink).function);
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_NE(sink.diagnostics()[0].message.find("returns (tensor<4xf64>)"), std::string::npos)
      << sink.diagnostics()[0].message;
  EXPECT_TRUE(sink.diagnostics()[0].loc.isValid());
  EXPECT_EQ(module->functions().size(), before);
}

TEST(GradTest, UnknownArgumentNamesTheArguments) {
  auto module = parse(readTestData("autodiff/grad_ops.mlir"));
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  GradOptions options;
  options.function = "elementwise";
  options.wrt = {"z"};
  EXPECT_FALSE(grad(*module, options, sink).function);
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "unknown argument 'z' of '@elementwise'; its arguments are %x, %y");
}

TEST(GradTest, TransposeOfANonLinearOpIsALocatedErrorAndLeavesTheModuleAlone) {
  auto module = parse(readTestData("autodiff/grad_ops.mlir"));
  ASSERT_TRUE(module);
  std::string before = io::mlir::printModule(*module);
  support::CollectingSink sink;
  TransposeOptions options;
  options.function = "not_linear";
  options.linearIn = {"x"};
  EXPECT_FALSE(transpose(*module, options, sink).function);
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'stablehlo.exponential' is not linear in the linear arguments; only linear ops can "
            "be transposed");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 87u);
  EXPECT_EQ(io::mlir::printModule(*module), before);
}

TEST(GradTest, AddingAConstantIsAffineNotLinear) {
  auto module = parse(readTestData("autodiff/grad_ops.mlir"));
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  TransposeOptions options;
  options.function = "affine";
  options.linearIn = {"x"};
  EXPECT_FALSE(transpose(*module, options, sink).function);
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'stablehlo.add' combines a linear value with a non-linear one; the function is "
            "affine, not linear, in the linear arguments");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 94u);
}

TEST(GradTest, IntegerArgumentsCannotBeDifferentiated) {
  auto module = parse(readTestData("autodiff/grad_ops.mlir"));
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  TransposeOptions options;
  options.function = "affine";
  options.linearIn = {"1"};
  EXPECT_FALSE(transpose(*module, options, sink).function);
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "argument '1' of '@affine' is tensor<4xi32>, not a float tensor");
}

// The loop body adds the region argument %xb, which it uses without taking it as an operand:
// the loop depends on the linear argument and must be reported, not skipped.
TEST(GradTest, ControlFlowUsingALinearValueFromOutsideIsReported) {
  auto module = parse(readTestData("shard_map/partial_nested.mlir"));
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  TransposeOptions options;
  options.function = "loop";
  options.linearIn = {"x"};
  EXPECT_FALSE(transpose(*module, options, sink).function);
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'stablehlo.while' with differentiated operands is not supported (control flow and "
            "calls are not transformed)");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 53u);
}
