// The examples of the two design docs the analysis implements, written as StableHLO programs in
// tests/data/shard_map/: "shmap (shard_map) for simple per-device code" (matmul_basic,
// matmul_reduce_scatter, f1-f5) and "efficient transposition of replication-inducing
// collectives" (Examples 1-5). Each test states what the doc states about variance types,
// pbroadcasts and replication.
#include "tests/core/analysis/analysis_test_util.h"

using namespace shardscope;
using namespace shardscope::analysis;
using namespace shardscope::analysis::testing;
using Strings = std::vector<std::string>;

namespace {

class SeedExamplesTest : public ::testing::Test {
protected:
  void load(const std::string& file) {
    m_module = parse(readTestData("shard_map/" + file));
    ASSERT_TRUE(m_module);
    m_analysis = analyzeShardMaps(*m_module, m_sink);
  }
  std::string v(std::string_view fn, std::string_view hint) const {
    return m_module ? varianceOf(m_analysis.variance, *m_module, fn, hint) : "no module";
  }
  Strings sites(std::string_view fn) const {
    return m_module ? sitesIn(m_analysis.variance, *m_module, fn) : Strings{"?"};
  }
  Strings collectives(std::string_view fn) const {
    return m_module ? collectivesIn(m_analysis.variance, *m_module, fn) : Strings{"?"};
  }
  const ManualComputationView& viewIn(std::string_view fn) const {
    const ir::Operation* function = m_module ? m_module->lookupFunction(fn) : nullptr;
    for (const ManualComputationView& view : m_analysis.variance.manualComputations())
      if (view.op->parentOfName("func.func") == function)
        return view;
    static const ManualComputationView kNone;
    ADD_FAILURE() << "no manual computation in " << fn;
    return kNone;
  }
  std::string localType(std::string_view fn, bool result, unsigned i) const {
    const ManualComputationView& view = viewIn(fn);
    const auto& side = result ? view.results : view.arguments;
    if (i >= side.size())
      return "missing";
    const LocalValueView& value = side[i];
    return value.globalType.str() + (result ? " <- " : " -> ") + value.localType.str() +
           (value.matchesDeclared() ? "" : " (mismatch)");
  }

  std::unique_ptr<ir::Module> m_module;
  support::CollectingSink m_sink;
  ShardMapAnalysis m_analysis;
};

const char* kCheckHint = "Check if these output values are meant to be replicated over those mesh "
                         "axes. If not, consider revising the corresponding out_specs entries. If "
                         "so, consider disabling the check by passing the check_vma=False argument "
                         "to `jax.shard_map`.";

} // namespace

TEST_F(SeedExamplesTest, MatmulBasicSumsThePartialProductsOverJ) {
  load("matmul.mlir");
  EXPECT_EQ(localType("matmul_basic", false, 0), "tensor<8x16xf32> -> tensor<2x8xf32>");
  EXPECT_EQ(localType("matmul_basic", false, 1), "tensor<16x32xf32> -> tensor<8x32xf32>");
  EXPECT_EQ(localType("matmul_basic", true, 0), "tensor<8x32xf32> <- tensor<2x32xf32>");
  EXPECT_EQ(v("matmul_basic", "a_block"), "{V:(i,j)}");
  EXPECT_EQ(v("matmul_basic", "b_block"), "{V:j}");
  EXPECT_EQ(v("matmul_basic", "z_partialsum"), "{V:(i,j)}");
  EXPECT_EQ(v("matmul_basic", "z_block"), "{V:i}");
  EXPECT_EQ(collectives("matmul_basic"), Strings{"psum over 'j'"});
  // b_block is replicated over 'i' but meets a_block, which varies over it.
  EXPECT_EQ(sites("matmul_basic"), Strings{"stablehlo.dot_general#1 'i' (mixed operands)"});
  EXPECT_TRUE(errorsIn(m_analysis, "matmul_basic").empty());
}

TEST_F(SeedExamplesTest, MatmulReduceScatterKeepsTheResultVaryingOverBothAxes) {
  load("matmul.mlir");
  EXPECT_EQ(localType("matmul_reduce_scatter", true, 0), "tensor<8x32xf32> <- tensor<2x16xf32>");
  EXPECT_EQ(v("matmul_reduce_scatter", "c_partialsum"), "{V:(i,j)}");
  EXPECT_EQ(v("matmul_reduce_scatter", "c_block"), "{V:(i,j)}");
  EXPECT_EQ(collectives("matmul_reduce_scatter"), Strings{"psum_scatter over 'j'"});
  EXPECT_TRUE(errorsIn(m_analysis, "matmul_reduce_scatter").empty());
  EXPECT_TRUE(m_sink.diagnostics().empty());
}

TEST_F(SeedExamplesTest, F1AndF2TileAnInputThatIsNotSplitOverJ) {
  load("pspec_examples.mlir");
  EXPECT_EQ(localType("f1", false, 0), "tensor<12x12xf32> -> tensor<3x12xf32>");
  EXPECT_EQ(localType("f1", true, 0), "tensor<12x24xf32> <- tensor<3x12xf32>");
  EXPECT_EQ(v("f1", "x_block"), "{V:i}");
  // The output names 'j', which x_block is invariant over: a free pbroadcast on the way out.
  EXPECT_EQ(sites("f1"), Strings{"sdy.return#0 'j' (out_shardings)"});
  EXPECT_EQ(localType("f2", false, 0), "tensor<12x24xf32> -> tensor<3x12xf32>");
  EXPECT_EQ(v("f2", "x_block"), "{V:(i,j)}");
  EXPECT_TRUE(sites("f2").empty());
}

TEST_F(SeedExamplesTest, F3ToF5UntileTheAxesTheirPsumMakesInvariant) {
  load("pspec_examples.mlir");
  EXPECT_EQ(localType("f3", true, 0), "tensor<12x6xf32> <- tensor<3x6xf32>");
  EXPECT_EQ(v("f3", "s"), "{V:i}");
  EXPECT_EQ(collectives("f3"), Strings{"psum over 'j'"});
  EXPECT_EQ(localType("f4", true, 0), "tensor<3x12xf32> <- tensor<3x6xf32>");
  EXPECT_EQ(v("f4", "s"), "{V:j}");
  EXPECT_EQ(collectives("f4"), Strings{"psum over 'i'"});
  EXPECT_EQ(localType("f5", true, 0), "tensor<3x6xf32> <- tensor<3x6xf32>");
  EXPECT_EQ(v("f5", "s"), "{}");
  EXPECT_EQ(collectives("f5"), Strings{"psum over 'i', 'j'"});
  EXPECT_TRUE(m_analysis.replicationErrors.empty());
  EXPECT_TRUE(m_sink.diagnostics().empty());
}

TEST_F(SeedExamplesTest, AClosedOverConstantIsInvariantAndTiledOnTheWayOut) {
  load("pspec_examples.mlir");
  EXPECT_EQ(localType("tile_constant", true, 0), "tensor<4x2xf32> <- tensor<1x1xf32>");
  EXPECT_EQ(v("tile_constant", "x"), "{}");
  EXPECT_EQ(sites("tile_constant"), Strings{"sdy.return#0 'i', 'j' (out_shardings)"});
}

TEST_F(SeedExamplesTest, Example1PsumToAnUnmappedOutputAndItsTranspose) {
  load("transpose_examples.mlir");
  EXPECT_EQ(v("f1", "xb"), "{V:i}");
  EXPECT_EQ(v("f1", "w"), "{V:i}");
  EXPECT_EQ(v("f1", "yb"), "{}");
  EXPECT_EQ(collectives("f1"), Strings{"psum over 'i'"});
  EXPECT_TRUE(sites("f1").empty()); // the reduction's init value is not a JAX operand
  // t(f1) needs no psum, only a free pbroadcast of the invariant cotangent.
  EXPECT_EQ(v("f1_transpose", "yb"), "{}");
  EXPECT_EQ(v("f1_transpose", "wbar"), "{}");
  EXPECT_TRUE(collectives("f1_transpose").empty());
  EXPECT_EQ(sites("f1_transpose"), Strings{"sdy.return#0 'i' (out_shardings)"});
}

TEST_F(SeedExamplesTest, Example2PbroadcastsThePsumBeforeMultiplyingByAVaryingValue) {
  load("transpose_examples.mlir");
  EXPECT_EQ(v("f2", "p"), "{}");
  EXPECT_EQ(v("f2", "zb"), "{V:i}");
  EXPECT_EQ(sites("f2"), Strings{"stablehlo.multiply#0 'i' (mixed operands)"});
  EXPECT_EQ(v("f2_transpose", "prod"), "{V:i}");
  EXPECT_EQ(v("f2_transpose", "p"), "{}");
  EXPECT_EQ(collectives("f2_transpose"), Strings{"psum over 'i'"});
  EXPECT_EQ(sites("f2_transpose"), Strings{"sdy.return#0 'i' (out_shardings)"});
}

TEST_F(SeedExamplesTest, Example3TheCursedIdentityHasNoDeviceVaryingType) {
  load("transpose_examples.mlir");
  EXPECT_EQ(v("cursed_identity", "xb"), "{}");
  EXPECT_TRUE(sites("cursed_identity").empty());
  EXPECT_TRUE(collectives("cursed_identity").empty());
  // The old transpose psums a device-invariant value: JAX must pbroadcast it first.
  EXPECT_EQ(v("cursed_identity_old_transpose", "scaled"), "{}");
  EXPECT_EQ(v("cursed_identity_old_transpose", "p"), "{}");
  EXPECT_EQ(sites("cursed_identity_old_transpose"),
            Strings{"stablehlo.all_reduce#0 'i' (collective operand)"});
  EXPECT_TRUE(errorsIn(m_analysis, "cursed_identity_old_transpose").empty());
}

TEST_F(SeedExamplesTest, Example4AllGatherInvariantFeedsAnUnmappedOutput) {
  load("transpose_examples.mlir");
  EXPECT_EQ(localType("f4", false, 0), "tensor<8xf32> -> tensor<1xf32>");
  EXPECT_EQ(v("f4", "xb"), "{V:i}");
  EXPECT_EQ(v("f4", "yb"), "{}");
  EXPECT_EQ(collectives("f4"), Strings{"all_gather_invariant over 'i'"});
  EXPECT_TRUE(errorsIn(m_analysis, "f4").empty());
  // The old transpose psum_scatters an invariant cotangent.
  EXPECT_EQ(v("f4_old_transpose", "xb"), "{V:i}");
  EXPECT_EQ(sites("f4_old_transpose"),
            Strings{"stablehlo.reduce_scatter#0 'i' (collective operand)"});
}

TEST_F(SeedExamplesTest, Example5AllGatherToAMappedOutputStaysVarying) {
  load("transpose_examples.mlir");
  EXPECT_EQ(v("f5", "xb"), "{V:i}");
  EXPECT_EQ(v("f5", "yb"), "{V:i}");
  EXPECT_EQ(v("f5", "z"), "{V:i}");
  EXPECT_EQ(v("f5", "wb"), "{V:i}");
  EXPECT_TRUE(sites("f5").empty());
  EXPECT_EQ(collectives("f5"), Strings{"all_gather over 'i'"});
  EXPECT_TRUE(m_analysis.replicationErrors.empty());
  EXPECT_TRUE(m_sink.diagnostics().empty());
}

// all_gather and all_gather_invariant lower to the same op: with out_specs P() only the invariant
// reading is one JAX accepted, so Example 4 unmarked is read as Example 4 with
// all_gather_invariant, and says so.
TEST_F(SeedExamplesTest, Example4WithAPlainAllGatherIsReadAsAllGatherInvariant) {
  load("replication_errors.mlir");
  EXPECT_TRUE(errorsIn(m_analysis, "f4").empty());
  EXPECT_EQ(v("f4", "yb"), "{}");
  EXPECT_EQ(collectives("f4"), Strings{"all_gather_invariant over 'i'"});
  ASSERT_EQ(m_analysis.variance.readings().size(), 1u);
  const CollectiveReading& reading = m_analysis.variance.readings().front();
  EXPECT_EQ(reading.kind, CollectiveKind::AllGatherInvariant);
  EXPECT_EQ(reading.op->loc().line, 16u);
  EXPECT_EQ(reading.reason, "the out_shardings of the manual computation at line 15 need its "
                            "value replicated over 'i'");
}

TEST_F(SeedExamplesTest, F3WithoutItsPsumClaimsReplicationOverJ) {
  load("replication_errors.mlir");
  auto errors = errorsIn(m_analysis, "f3_no_psum");
  ASSERT_EQ(errors.size(), 1u);
  ASSERT_EQ(errors[0]->failures.size(), 1u);
  EXPECT_EQ(errors[0]->failures[0].axes, Strings{"j"});
  std::string message = replicationMessage(*errors[0], viewIn("f3_no_psum"));
  EXPECT_NE(message.find("The mesh given has shape (4, 2) with corresponding axis names "
                         "('i', 'j').\n\nout_specs is PartitionSpec('i',) which implies that the "
                         "corresponding output value is replicated across mesh axis 'j', but could "
                         "not infer replication over any axes\n\n"),
            std::string::npos)
      << message;
}

TEST_F(SeedExamplesTest, F5WithAPsumOverIOnlyStillVariesOverJ) {
  load("replication_errors.mlir");
  auto errors = errorsIn(m_analysis, "f5_only_i");
  ASSERT_EQ(errors.size(), 1u);
  std::string message = replicationMessage(*errors[0], viewIn("f5_only_i"));
  EXPECT_NE(message.find("out_specs is PartitionSpec() which implies that the corresponding output "
                         "value is only varying across mesh axes {} and not {j}, but it was "
                         "inferred to be possibly varying over {j}\n\n"),
            std::string::npos)
      << message;
}
