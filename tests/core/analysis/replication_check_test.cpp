#include "core/analysis/replication_check.h"

#include "tests/core/analysis/analysis_test_util.h"

using namespace shardscope;
using namespace shardscope::analysis;
using namespace shardscope::analysis::testing;
using Strings = std::vector<std::string>;

namespace {

ir::TensorSharding shardingOf(std::vector<std::vector<ir::AxisRef>> dims,
                              std::vector<ir::AxisRef> unreduced = {}) {
  ir::TensorSharding s;
  s.meshName = "mesh";
  for (auto& axes : dims)
    s.dims.push_back({std::move(axes), true, std::nullopt});
  s.unreducedAxes = std::move(unreduced);
  return s;
}

ir::AxisRef axis(std::string name) { return {std::move(name), std::nullopt}; }

class ReplicationCheckTest : public ::testing::Test {
protected:
  void run(const std::string& text) {
    m_module = parse(text);
    ASSERT_TRUE(m_module);
    m_analysis = analyzeShardMaps(*m_module, m_sink);
  }
  const ManualComputationView& view(const ReplicationError& error) const {
    return *m_analysis.variance.viewOf(*error.manualComputation);
  }

  std::unique_ptr<ir::Module> m_module;
  support::CollectingSink m_sink;
  ShardMapAnalysis m_analysis;
};

} // namespace

TEST(JaxPartitionSpecReprTest, PrintsWhatReprOfAPartitionSpecPrints) {
  Strings ij{"i", "j"};
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{axis("i")}, {}}), ij), "PartitionSpec('i',)");
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{}, {axis("j")}}), ij), "PartitionSpec(None, 'j')");
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{axis("i"), axis("j")}, {}}), ij),
            "PartitionSpec(('i', 'j'),)");
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{}, {}}), ij), "PartitionSpec()");
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({}), ij), "PartitionSpec()");
  // Free axes are not part of a shard_map spec.
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{axis("i"), axis("j")}}), Strings{"i"}),
            "PartitionSpec('i',)");
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{axis("i")}}, {axis("j")}), ij),
            "PartitionSpec('i', unreduced={'j'})");
  ir::AxisRef sub{"i", ir::SubAxisInfo{1, 2}};
  EXPECT_EQ(jaxPartitionSpecRepr(shardingOf({{sub}}), ij), "PartitionSpec('i':(1)2,)");
}

TEST_F(ReplicationCheckTest, NotesNameTheOpThatFirstMadeTheValueVary) {
  run(readTestData("shard_map/replication_errors.mlir"));
  auto errors = errorsIn(m_analysis, "axis_index");
  ASSERT_EQ(errors.size(), 1u);
  support::Diagnostic diag = replicationDiagnostic(*errors[0], view(*errors[0]));
  EXPECT_EQ(diag.severity, support::Severity::Error);
  EXPECT_EQ(diag.loc.line, 42u);
  ASSERT_EQ(diag.notes.size(), 1u);
  EXPECT_EQ(diag.notes[0].message, "output 0: 'stablehlo.partition_id' at line 43 gives each "
                                   "device its own id, so the value varies over mesh axis 'i'");
  EXPECT_EQ(diag.notes[0].loc.line, 43u);

  // Varying by its input only: JAX's check_vma=False programs look the same, so a warning that
  // says so, after the note naming the origin.
  auto f3 = errorsIn(m_analysis, "f3_no_psum");
  ASSERT_EQ(f3.size(), 1u);
  support::Diagnostic f3Diag = replicationDiagnostic(*f3[0], view(*f3[0]));
  EXPECT_EQ(f3Diag.severity, support::Severity::Warning);
  ASSERT_EQ(f3Diag.notes.size(), 2u);
  EXPECT_NE(f3Diag.notes[1].message.find("check_vma=False"), std::string::npos);
  EXPECT_EQ(f3Diag.notes[0].message, "output 0: varies over mesh axis 'j' because "
                                     "in_shardings[0] of the manual computation at line 23 "
                                     "names it");
}

TEST_F(ReplicationCheckTest, KeysOutputsByIndexAndBulletsSeveralFailures) {
  run(readTestData("shard_map/replication_errors.mlir"));
  auto one = errorsIn(m_analysis, "two_outputs");
  ASSERT_EQ(one.size(), 1u);
  std::string message = replicationMessage(*one[0], view(*one[0]));
  EXPECT_NE(message.find(".\n\nout_specs[0] is PartitionSpec() which implies"), std::string::npos)
      << message;
  auto both = errorsIn(m_analysis, "both_outputs");
  ASSERT_EQ(both.size(), 1u);
  ASSERT_EQ(both[0]->failures.size(), 2u);
  message = replicationMessage(*both[0], view(*both[0]));
  EXPECT_NE(message.find("('i',).\n\n* out_specs[0] is PartitionSpec() which implies that the "
                         "corresponding output value is replicated across mesh axis 'i', but "
                         "could not infer replication over any axes\n\n* out_specs[1] is "
                         "PartitionSpec() which implies"),
            std::string::npos)
      << message;
}

TEST_F(ReplicationCheckTest, ReportsEveryFailingComputationAsOneDiagnostic) {
  run(readTestData("shard_map/replication_errors.mlir"));
  Strings names;
  for (const ReplicationError& error : m_analysis.replicationErrors)
    names.push_back(error.functionName);
  // f4's all_gather is read as all_gather_invariant: its out_specs allow nothing else.
  EXPECT_EQ(names, (Strings{"f3_no_psum", "f5_only_i", "axis_index", "two_outputs",
                            "both_outputs"}));
  ASSERT_EQ(m_sink.diagnostics().size(), 5u);
  EXPECT_TRUE(m_sink.diagnostics()[0].message.starts_with(
      "shard_map applied to the function 'f3_no_psum' was given out_specs which require "
      "replication"));
}

TEST_F(ReplicationCheckTest, PartialManualCountsFreeAxesAsUnmentioned) {
  run(R"(sdy.mesh @mesh = <["i"=4, "j"=2]>
func.func @partial(%x: tensor<8xf32>) -> tensor<2xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"i"} (%xb: tensor<2xf32>) {
    sdy.return %xb : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
})");
  ASSERT_EQ(m_analysis.replicationErrors.size(), 1u);
  const ReplicationError& error = m_analysis.replicationErrors[0];
  EXPECT_EQ(error.failures[0].axes, Strings{"i"});
  std::string message = replicationMessage(error, view(error));
  EXPECT_NE(message.find("out_specs is PartitionSpec() which implies that the corresponding "
                         "output value is only varying across mesh axes {} and not {i}, but it "
                         "was inferred to be possibly varying over {i}"),
            std::string::npos)
      << message;
}

TEST_F(ReplicationCheckTest, AxesOfEnclosingComputationsAreLeftToThem) {
  // The inner computation returns a value varying over the outer axis 'i' with an out_sharding
  // that can't name 'i': not its business. The outer one names 'i', so all is well.
  run(R"(sdy.mesh @mesh = <["i"=4, "j"=2]>
func.func @nested(%x: tensor<8x4xf32>) -> tensor<8x2xf32> {
  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"i"}, {}]>] out_shardings=[<@mesh, [{"i"}, {}]>] manual_axes={"i"} (%xb: tensor<2x4xf32>) {
    %inner = sdy.manual_computation(%xb) in_shardings=[<@mesh, [{}, {"j"}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"j"} (%xbb: tensor<2x2xf32>) {
      %s = "stablehlo.all_reduce"(%xbb) <{replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %sum : tensor<f32>
      }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
      sdy.return %s : tensor<2x2xf32>
    } : (tensor<2x4xf32>) -> tensor<2x2xf32>
    sdy.return %inner : tensor<2x2xf32>
  } : (tensor<8x4xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
})");
  ASSERT_TRUE(m_module);
  EXPECT_TRUE(m_analysis.replicationErrors.empty());
  EXPECT_TRUE(m_sink.diagnostics().empty());
  EXPECT_EQ(varianceOf(m_analysis.variance, *m_module, "nested", "s"), "{V:i}");
}

TEST_F(ReplicationCheckTest, UnmatchedCollectivesAreWarnings) {
  run(readTestData("shard_map/partial_nested.mlir"));
  // The file's @loop also grows a carry's variance, which JAX's _check_carry_type words as a
  // TypeError; the text cannot prove it (pcast leaves no op), so that is a warning too.
  ASSERT_EQ(m_sink.diagnostics().size(), 2u);
  const support::Diagnostic& carry = m_sink.diagnostics()[0];
  EXPECT_EQ(carry.severity, support::Severity::Warning);
  EXPECT_EQ(carry.message.rfind("while_loop body function carry input and carry output must have "
                                "equal types, but they differ:",
                                0),
            0u);
  const support::Diagnostic& warning = m_sink.diagnostics()[1];
  EXPECT_EQ(warning.severity, support::Severity::Warning);
  EXPECT_EQ(warning.message, "cannot map the devices of 'stablehlo.all_reduce' to manual axes: "
                             "replica groups [[0, 3], [1, 2], [4, 7], [5, 6]] match no set of "
                             "manual axes of {\"i\", \"j\"}");
  EXPECT_TRUE(m_analysis.replicationErrors.empty());
}
