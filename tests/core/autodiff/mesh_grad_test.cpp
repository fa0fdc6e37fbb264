// Gradients of shard_map programs run on the simulated mesh agree with central finite
// differences of the function run on the same mesh (f64), under both collective rules; and the
// design's data-parallel loss: the efficient gradient drops the psum the naive one keeps.
#include "tests/core/autodiff/autodiff_test_util.h"

#include "core/autodiff/function_costs.h"

using namespace shardscope;
using namespace shardscope::autodiff;
using namespace shardscope::autodiff::testing;

namespace {

// Runs functions of one module on its mesh, partitioning it once.
class MeshRunner {
public:
  explicit MeshRunner(const ir::Module& module) {
    m_program = session::Program::fromText("autodiff.mlir", io::mlir::printModule(module), m_sink);
    EXPECT_TRUE(m_program) << messages(m_sink);
  }
  std::vector<exec::Tensor> run(const std::string& fn, std::vector<exec::Tensor> inputs) {
    if (!m_program)
      return {};
    session::ExecutionOptions options;
    options.function = fn;
    auto execution = session::Execution::create(*m_program, options, m_sink);
    EXPECT_TRUE(execution) << messages(m_sink);
    if (!execution || !execution->setInputs(std::move(inputs)) || !execution->start() ||
        execution->runToEnd() != session::StopReason::Finished) {
      ADD_FAILURE() << "running @" << fn << ": " << messages(m_sink);
      return {};
    }
    std::string error;
    auto results = execution->globalResults(error);
    EXPECT_TRUE(results) << error;
    return results.value_or(std::vector<exec::Tensor>{});
  }

private:
  support::CollectingSink m_sink;
  std::unique_ptr<session::Program> m_program;
};

struct Check {
  std::string file, fn;
  std::vector<std::string> wrt; // argument numbers
  /// Elements checked per argument (every `stride`-th, to bound the number of runs).
  int64_t stride = 1;
};

void expectMeshGradientMatchesFiniteDifferences(const Check& c, CollectiveRules rules) {
  SCOPED_TRACE(c.fn + std::string(" ") + collectiveRulesName(rules));
  auto module = parse(readTestData("autodiff/" + c.file));
  ASSERT_TRUE(module);
  std::string g = addGrad(*module, c.fn, c.wrt, rules);
  ASSERT_FALSE(g.empty());
  MeshRunner runner(*module);
  std::mt19937 rng(11);
  std::vector<exec::Tensor> inputs;
  for (ir::Type t : argumentTypes(*module, c.fn))
    inputs.push_back(randomTensor(t, rng));
  std::vector<exec::Tensor> grads = runner.run(g, inputs);
  ASSERT_EQ(grads.size(), c.wrt.size());
  const double h = 1e-6;
  for (size_t k = 0; k < c.wrt.size(); ++k) {
    size_t arg = static_cast<size_t>(std::stoi(c.wrt[k]));
    for (int64_t e = k; e < inputs[arg].numElements(); e += c.stride) {
      std::vector<exec::Tensor> plus = inputs, minus = inputs;
      plus[arg].setFloat(e, inputs[arg].floatAt(e) + h);
      minus[arg].setFloat(e, inputs[arg].floatAt(e) - h);
      auto fp = runner.run(c.fn, plus);
      auto fm = runner.run(c.fn, minus);
      ASSERT_EQ(fp.size(), 1u);
      ASSERT_EQ(fm.size(), 1u);
      double numeric = (fp[0].floatAt(0) - fm[0].floatAt(0)) / (2 * h);
      EXPECT_NEAR(grads[k].floatAt(e), numeric, 1e-6 * (1 + std::abs(numeric)))
          << "argument " << arg << " element " << e;
    }
  }
}

} // namespace

TEST(MeshGradTest, EveryCollectiveAndNonlinearOpMatchesFiniteDifferences) {
  for (CollectiveRules rules : {CollectiveRules::Efficient, CollectiveRules::Naive})
    expectMeshGradientMatchesFiniteDifferences(
        {"mesh_ops.mlir", "mixed_collectives", {"0", "1"}, 3}, rules);
}

TEST(MeshGradTest, DataParallelLossGradientsMatchFiniteDifferences) {
  for (CollectiveRules rules : {CollectiveRules::Efficient, CollectiveRules::Naive})
    expectMeshGradientMatchesFiniteDifferences({"data_parallel_loss.mlir", "loss", {"0", "1"}, 37},
                                               rules);
}

TEST(MeshGradTest, GloballyShardedFunctionMatchesFiniteDifferences) {
  expectMeshGradientMatchesFiniteDifferences({"global_sharded.mlir", "main", {"0", "1"}, 5},
                                             CollectiveRules::Efficient);
}

class DataParallelLossTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_module = parse(readTestData("autodiff/data_parallel_loss.mlir"));
    ASSERT_TRUE(m_module);
  }
  const ir::Operation& fn(const std::string& name) { return *m_module->lookupFunction(name); }
  std::unique_ptr<ir::Module> m_module;
};

// The seed's point: with respect to the per-device data, the transpose of pmean's psum is a free
// pbroadcast, so the efficient gradient communicates nothing while the naive one psums ybar / 8.
TEST_F(DataParallelLossTest, GradientWrtTheBatchHasNoAllReduceOnlyInTheEfficientMode) {
  std::string efficient = addGrad(*m_module, "loss", {"inputs"});
  std::string naive = addGrad(*m_module, "loss", {"inputs"}, CollectiveRules::Naive);
  EXPECT_EQ(countOps(fn(efficient), "stablehlo.all_reduce"), 0);
  EXPECT_EQ(countOps(fn(naive), "stablehlo.all_reduce"), 1);
  analysis::CostSummary e = functionCosts(*m_module, fn(efficient));
  analysis::CostSummary n = functionCosts(*m_module, fn(naive));
  EXPECT_EQ(e.totalBytesSent, 0);
  // One all-reduce of an f64 scalar over 8 devices: 2 * 7/8 * 8 B.
  EXPECT_EQ(n.totalBytesSent, 14);
  ASSERT_EQ(n.perAxis.size(), 1u);
  EXPECT_EQ(n.perAxis[0].axis, "batch");
}

// With respect to the replicated parameters the gradient must be summed over the batch: that
// all-reduce stays in both modes, and the naive mode adds the defensive psum of ybar / 8.
TEST_F(DataParallelLossTest, GradientWrtTheParametersKeepsOnlyTheNecessaryAllReduce) {
  std::string efficient = addGrad(*m_module, "loss", {"params"});
  std::string naive = addGrad(*m_module, "loss", {"params"}, CollectiveRules::Naive);
  EXPECT_EQ(countOps(fn(efficient), "stablehlo.all_reduce"), 1);
  EXPECT_EQ(countOps(fn(naive), "stablehlo.all_reduce"), 2);
  analysis::CostSummary e = functionCosts(*m_module, fn(efficient));
  analysis::CostSummary n = functionCosts(*m_module, fn(naive));
  // 16x16 f64 = 2048 B: 2 * 7/8 * 2048 B = 3584 B; the naive scalar psum adds 14 B.
  EXPECT_EQ(e.totalBytesSent, 3584);
  EXPECT_EQ(n.totalBytesSent, 3584 + 14);
}
