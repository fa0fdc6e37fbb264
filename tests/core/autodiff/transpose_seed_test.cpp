// The transposes of the "efficient transposition of replication-inducing collectives" design's
// Examples 1-5 (tests/data/shard_map/transpose_examples.mlir holds the examples and the
// transposes the design writes down), transposition twice giving back the function, the
// transposes of the other collectives, and the adjoint identity <f(x), ybar> = <x, t(f)(ybar)>
// checked by running both on the simulated mesh.
#include "tests/core/autodiff/autodiff_test_util.h"

using namespace shardscope;
using namespace shardscope::autodiff;
using namespace shardscope::autodiff::testing;
using Strings = std::vector<std::string>;

namespace {

constexpr auto kNaive = CollectiveRules::Naive;

class SeedTransposeTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_module = parse(readTestData("shard_map/transpose_examples.mlir"));
    ASSERT_TRUE(m_module);
  }
  std::string text(const std::string& fn) const { return functionText(*m_module, fn); }
  Strings collectives(const std::string& fn) const { return opNames(*m_module, fn, kCollectives); }

  // Checks <f(x), ybar> == <x, t(f)(ybar)> on the mesh, `linear` being f's linear arguments.
  void expectAdjoint(const std::string& fn, const std::vector<unsigned>& linear,
                     const std::string& transposed) {
    SCOPED_TRACE(fn + " vs " + transposed);
    std::mt19937 rng(5);
    std::vector<exec::Tensor> inputs;
    for (ir::Type t : argumentTypes(*m_module, fn))
      inputs.push_back(randomTensor(t, rng));
    std::vector<exec::Tensor> outputs = runOnMesh(*m_module, fn, inputs);
    std::vector<exec::Tensor> tInputs;
    for (unsigned j = 0; j < inputs.size(); ++j)
      if (std::find(linear.begin(), linear.end(), j) == linear.end())
        tInputs.push_back(inputs[j]);
    std::vector<exec::Tensor> ybars;
    for (ir::Type t : resultTypes(*m_module, fn))
      ybars.push_back(randomTensor(t, rng));
    tInputs.insert(tInputs.end(), ybars.begin(), ybars.end());
    std::vector<exec::Tensor> xbars = runOnMesh(*m_module, transposed, tInputs);
    ASSERT_EQ(outputs.size(), ybars.size());
    ASSERT_EQ(xbars.size(), linear.size());
    double lhs = 0, rhs = 0;
    for (size_t i = 0; i < outputs.size(); ++i)
      lhs += dot(outputs[i], ybars[i]);
    for (size_t k = 0; k < linear.size(); ++k)
      rhs += dot(inputs[linear[k]], xbars[k]);
    EXPECT_NEAR(lhs, rhs, 1e-4 * (1 + std::abs(lhs)));
  }

  std::unique_ptr<ir::Module> m_module;
};

} // namespace

TEST_F(SeedTransposeTest, Example1TransposesPsumToAFreePbroadcast) {
  std::string t = addTranspose(*m_module, "f1", {"x"}, CollectiveRules::Efficient, "t_f1");
  // t(f1) = shmap(lambda ybar: t(g)(pbroadcast(ybar, 'i')), P(), P('i')), as the seed file
  // writes it: no communication at all.
  EXPECT_EQ(text(t), text("f1_transpose"));
  EXPECT_EQ(collectives(t), Strings{});
  expectAdjoint("f1", {0}, t);
}

TEST_F(SeedTransposeTest, Example1NaiveTransposePsumsYbarOverEight) {
  std::string t = addTranspose(*m_module, "f1", {"x"}, kNaive);
  // t(f1) = shmap(lambda ybar: t(g)(psum(ybar / 8, 'i')), P(), P('i')).
  EXPECT_EQ(collectives(t), Strings{"stablehlo.all_reduce"});
  EXPECT_EQ(opNames(*m_module, t,
                    {"stablehlo.divide", "stablehlo.all_reduce", "stablehlo.broadcast_in_dim"}),
            (Strings{"stablehlo.divide", "stablehlo.all_reduce", "stablehlo.broadcast_in_dim"}));
  EXPECT_NE(text(t).find("dense<8.000000e+00> : tensor<f32>"), std::string::npos) << text(t);
  expectAdjoint("f1", {0}, t);
}

TEST_F(SeedTransposeTest, Example1TransposedTwiceIsF1) {
  std::string t = addTranspose(*m_module, "f1", {"x"});
  std::string tt = addTranspose(*m_module, t, {"0"});
  EXPECT_EQ(text(tt), text("f1"));
}

TEST_F(SeedTransposeTest, Example2KeepsTheNecessaryPsumUnderBothRules) {
  std::string efficient = addTranspose(*m_module, "f2", {"x"});
  std::string naive = addTranspose(*m_module, "f2", {"x"}, kNaive);
  // t(f2, 0) = shmap(lambda y, zbar: t(g)(psum(zbar * y, 'i')), ...): the seed file's
  // @f2_transpose; the old rule was already efficient here.
  EXPECT_EQ(text(efficient), text("f2_transpose"));
  EXPECT_EQ(text(naive), text("f2_transpose"));
  expectAdjoint("f2", {0}, efficient);
}

TEST_F(SeedTransposeTest, Example3CursedIdentityDoesNotGrow) {
  std::string t1 = addTranspose(*m_module, "cursed_identity", {"x"});
  std::string t2 = addTranspose(*m_module, t1, {"0"});
  std::string t3 = addTranspose(*m_module, t2, {"0"});
  EXPECT_EQ(text(t1), text("cursed_identity"));
  EXPECT_EQ(text(t2), text("cursed_identity"));
  EXPECT_EQ(text(t3), text("cursed_identity"));
  expectAdjoint("cursed_identity", {0}, t1);
}

TEST_F(SeedTransposeTest, Example3NaiveRulesGrowTheCursedIdentity) {
  std::string t1 = addTranspose(*m_module, "cursed_identity", {"x"}, kNaive);
  // shmap(lambda x: psum(x / 8, 'i'), P(), P()), the seed file's old transpose.
  EXPECT_EQ(text(t1), text("cursed_identity_old_transpose"));
  std::string t2 = addTranspose(*m_module, t1, {"0"}, kNaive);
  // shmap(lambda x: psum(psum(x / 8 / 8, 'i'), 'i'), P(), P()): two psums, two divisions.
  EXPECT_EQ(collectives(t2), (Strings{"stablehlo.all_reduce", "stablehlo.all_reduce"}));
  EXPECT_EQ(opNames(*m_module, t2, {"stablehlo.divide"}).size(), 2u);
  expectAdjoint("cursed_identity", {0}, t1);
  expectAdjoint(t1, {0}, t2);
}

TEST_F(SeedTransposeTest, Example4AllGatherInvariantTransposesToALocalPscatter) {
  std::string t = addTranspose(*m_module, "f4", {"x"});
  // xbar = pscatter(ybar, 'i'): a slice at the device's index, no communication.
  EXPECT_EQ(collectives(t), Strings{});
  EXPECT_EQ(
      opNames(*m_module, t, {"stablehlo.partition_id", "stablehlo.dynamic_slice"}),
      (Strings{"stablehlo.partition_id", "stablehlo.dynamic_slice", "stablehlo.dynamic_slice"}));
  expectAdjoint("f4", {0}, t);
  // pscatter transposes back to all_gather_invariant, which the generated op marks with the
  // optional hint (f4 itself carries none: its out_shardings leave only that reading).
  std::string tt = addTranspose(*m_module, t, {"0"});
  std::string twice = text(tt);
  const std::string hint = " {shardscope.all_gather_invariant}";
  ASSERT_NE(twice.find(hint), std::string::npos);
  twice.erase(twice.find(hint), hint.size());
  EXPECT_EQ(twice, text("f4"));
}

TEST_F(SeedTransposeTest, Example4NaiveTransposeIsADefensivePsumScatter) {
  std::string t = addTranspose(*m_module, "f4", {"x"}, kNaive);
  // shmap(lambda ybar: psum_scatter(ybar / 8, 'i'), P(), P('i')).
  EXPECT_EQ(text(t), text("f4_old_transpose"));
  expectAdjoint("f4", {0}, t);
}

TEST_F(SeedTransposeTest, Example5AllGatherTransposesToPsumScatter) {
  auto expected = parse(readTestData("autodiff/expected_transposes.mlir"));
  ASSERT_TRUE(expected);
  std::string t = addTranspose(*m_module, "f5", {"x"});
  EXPECT_EQ(text(t), functionText(*expected, "f5_transpose"));
  EXPECT_EQ(text(addTranspose(*m_module, "f5", {"x"}, kNaive)),
            functionText(*expected, "f5_transpose"));
  std::string tt = addTranspose(*m_module, t, {"1"});
  EXPECT_EQ(text(tt), functionText(*expected, "f5_twice"));
  expectAdjoint("f5", {0}, t);
}

class CollectiveTransposeTest : public SeedTransposeTest {
protected:
  void SetUp() override {
    m_module = parse(readTestData("autodiff/collectives.mlir"));
    ASSERT_TRUE(m_module);
  }
};

TEST_F(CollectiveTransposeTest, PpermuteTransposesToTheInversePermutation) {
  std::string t = addTranspose(*m_module, "ring", {"x"});
  EXPECT_NE(text(t).find("source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]>"),
            std::string::npos)
      << text(t);
  EXPECT_EQ(text(addTranspose(*m_module, t, {"0"})), text("ring"));
  expectAdjoint("ring", {0}, t);
}

TEST_F(CollectiveTransposeTest, AllToAllTransposesWithSplitAndConcatSwapped) {
  std::string t = addTranspose(*m_module, "a2a", {"x"});
  EXPECT_NE(text(t).find("concat_dimension = 1 : i64"), std::string::npos) << text(t);
  EXPECT_NE(text(t).find("split_dimension = 0 : i64"), std::string::npos) << text(t);
  EXPECT_EQ(text(addTranspose(*m_module, t, {"0"})), text("a2a"));
  expectAdjoint("a2a", {0}, t);
}

TEST_F(CollectiveTransposeTest, PsumScatterTransposesToAllGather) {
  std::string t = addTranspose(*m_module, "scatter", {"x"});
  EXPECT_EQ(collectives(t), Strings{"stablehlo.all_gather"});
  EXPECT_EQ(text(addTranspose(*m_module, t, {"0"})), text("scatter"));
  expectAdjoint("scatter", {0}, t);
}

TEST_F(CollectiveTransposeTest, ImplicitPbroadcastOfAnInvariantOperandTransposesToPsum) {
  std::string t = addTranspose(*m_module, "mixed", {"x"});
  // x is unmapped and meets the varying y: its cotangent must be summed over 'i'.
  EXPECT_EQ(collectives(t), Strings{"stablehlo.all_reduce"});
  expectAdjoint("mixed", {0}, t);
  std::string naive = addTranspose(*m_module, "mixed", {"x"}, kNaive);
  EXPECT_EQ(collectives(naive), Strings{"stablehlo.all_reduce"});
  expectAdjoint("mixed", {0}, naive);
}

TEST_F(CollectiveTransposeTest, PsumOverOneOfTwoAxesIsFreeWhenTheOutputIsUnmappedOverIt) {
  m_module = parse(readTestData("autodiff/collectives_2d.mlir"));
  ASSERT_TRUE(m_module);
  std::string t = addTranspose(*m_module, "two_axes", {"x"});
  EXPECT_EQ(collectives(t), Strings{});
  expectAdjoint("two_axes", {0}, t);
  std::string naive = addTranspose(*m_module, "two_axes", {"x"}, kNaive);
  EXPECT_EQ(collectives(naive), Strings{"stablehlo.all_reduce"});
  // The psum runs over 'j' only: the groups {0, 1} and {2, 3}.
  EXPECT_NE(text(naive).find("replica_groups = dense<[[0, 1], [2, 3]]>"), std::string::npos)
      << text(naive);
  expectAdjoint("two_axes", {0}, naive);
}

// The shard_map design's matmuls (tests/data/shard_map/matmul.mlir) are linear in each operand:
// their transposes contract the cotangent with the other block, and the psum over 'j'
// (psum_scatter in the second) turns into a pbroadcast (all_gather) while the implicit
// pbroadcast of the block replicated over 'i' turns into a psum over 'i'.
TEST_F(CollectiveTransposeTest, ShardMapMatmulsTransposeInEachOperand) {
  m_module = parse(readTestData("shard_map/matmul.mlir"));
  ASSERT_TRUE(m_module);
  std::string tb = addTranspose(*m_module, "matmul_basic", {"b"});
  EXPECT_EQ(collectives(tb), Strings{"stablehlo.all_reduce"});
  EXPECT_NE(text(tb).find("replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]>"),
            std::string::npos)
      << text(tb);
  std::string ta = addTranspose(*m_module, "matmul_basic", {"a"});
  EXPECT_EQ(collectives(ta), Strings{});
  std::string rs = addTranspose(*m_module, "matmul_reduce_scatter", {"a"});
  EXPECT_EQ(collectives(rs), Strings{"stablehlo.all_gather"});
  std::string naive = addTranspose(*m_module, "matmul_basic", {"b"}, kNaive);
  EXPECT_EQ(collectives(naive), (Strings{"stablehlo.all_reduce", "stablehlo.all_reduce"}));
  expectAdjoint("matmul_basic", {1}, tb);
  expectAdjoint("matmul_basic", {0}, ta);
  expectAdjoint("matmul_reduce_scatter", {0}, rs);
  expectAdjoint("matmul_basic", {1}, naive);
}
