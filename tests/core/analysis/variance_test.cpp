// One test per typing rule of `VarianceAnalysis`, on small programs over a 4x2 mesh ('i', 'j')
// whose device (i, j) has id 2*i + j.
#include "core/analysis/variance.h"

#include "tests/core/analysis/analysis_test_util.h"

using namespace shardscope;
using namespace shardscope::analysis;
using namespace shardscope::analysis::testing;
using Strings = std::vector<std::string>;

namespace {

constexpr const char* kMesh = "sdy.mesh @mesh = <[\"i\"=4, \"j\"=2]>\n";

// `body` inside `sdy.manual_computation` of function @f: one operand %x : tensor<8x8xf32> with
// `in`, one result with `out`, manual axes `manual`, region argument %xb : `localType`.
std::string program(const std::string& in, const std::string& out, const std::string& manual,
                    const std::string& localType, const std::string& body,
                    const std::string& outGlobal = "tensor<8x8xf32>",
                    const std::string& extra = "") {
  return std::string(kMesh) + extra + "func.func @f(%x: tensor<8x8xf32>) -> " + outGlobal +
         " {\n  %y = sdy.manual_computation(%x) in_shardings=[<@mesh, " + in +
         ">] out_shardings=[<@mesh, " + out + ">] manual_axes={" + manual + "} (%xb: " + localType +
         ") {\n" + body + "\n  } : (tensor<8x8xf32>) -> " + outGlobal +
         "\n  return %y : " + outGlobal + "\n}\n";
}

// A generic collective over `groups` with an add reducer when `reducer` is set.
std::string collective(const std::string& result, const std::string& name,
                       const std::string& operand, const std::string& attrs,
                       const std::string& type, const std::string& resultType, bool reducer,
                       const std::string& discardable = "") {
  std::string region = reducer ? " ({\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                                 "      %s = stablehlo.add %a, %b : tensor<f32>\n"
                                 "      stablehlo.return %s : tensor<f32>\n    })"
                               : "";
  return "    %" + result + " = \"stablehlo." + name + "\"(%" + operand + ") <{" + attrs + "}>" +
         region + discardable + " : (" + type + ") -> " + resultType;
}

const char* kGroupsJ = "replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>";
const char* kGroupsI = "replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>";

class VarianceTest : public ::testing::Test {
protected:
  void run(const std::string& text) {
    m_module = parse(text);
    ASSERT_TRUE(m_module);
    m_analysis = VarianceAnalysis::run(*m_module);
  }
  std::string v(std::string_view hint) const {
    return m_module ? varianceOf(m_analysis, *m_module, "f", hint) : "no module";
  }
  Strings sites() const { return m_module ? sitesIn(m_analysis, *m_module, "f") : Strings{"?"}; }
  Strings collectives() const {
    return m_module ? collectivesIn(m_analysis, *m_module, "f") : Strings{"?"};
  }
  const AxisOrigin* origin(std::string_view hint, std::string_view axis) const {
    const ir::Value* value = m_module ? findValue(*m_module, "f", hint) : nullptr;
    const VarianceSet* set = value ? m_analysis.varianceOf(*value) : nullptr;
    return set ? set->originOf(axis) : nullptr;
  }

  std::unique_ptr<ir::Module> m_module;
  VarianceAnalysis m_analysis;
};

} // namespace

TEST_F(VarianceTest, RegionArgumentsVaryOverTheManualAxesTheirInShardingNames) {
  run(program("[{\"i\"}, {\"j\"}]", "[{\"i\"}, {\"j\"}]", "\"i\"", "tensor<2x8xf32>",
              "    sdy.return %xb : tensor<2x8xf32>"));
  // 'j' is a free axis here: the body still sees it, but variance tracks manual axes only.
  EXPECT_EQ(v("xb"), "{V:i}");
  const AxisOrigin* i = origin("xb", "i");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->source, VarianceSource::InSharding);
  EXPECT_EQ(i->index, 0u);
  EXPECT_EQ(v("x"), "none"); // outside every manual computation
}

TEST_F(VarianceTest, UnreducedManualAxesCountAsVarying) {
  run(program("[{}, {}], unreduced={\"j\"}", "[{}, {}], unreduced={\"j\"}", "\"i\", \"j\"",
              "tensor<8x8xf32>", "    sdy.return %xb : tensor<8x8xf32>"));
  EXPECT_EQ(v("xb"), "{V:j}");
}

TEST_F(VarianceTest, ConstantsAndIotaAreInvariant) {
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\"", "tensor<2x8xf32>",
              "    %c = stablehlo.constant dense<1.000000e+00> : tensor<2x8xf32>\n"
              "    %io = stablehlo.iota dim = 0 : tensor<2x8xf32>\n"
              "    %both = stablehlo.add %c, %io : tensor<2x8xf32>\n"
              "    sdy.return %xb : tensor<2x8xf32>"));
  EXPECT_EQ(v("c"), "{}");
  EXPECT_EQ(v("io"), "{}");
  EXPECT_EQ(v("both"), "{}");
  EXPECT_TRUE(sites().empty());
}

TEST_F(VarianceTest, OrdinaryOpsJoinTheirOperandsAndEachLaggingOperandIsAPbroadcastSite) {
  std::string text =
      std::string(kMesh) +
      "func.func @f(%x: tensor<8x8xf32>, %z: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
      "  %y = sdy.manual_computation(%x, %z) in_shardings=[<@mesh, [{\"i\"}, {}]>, <@mesh, [{}, "
      "{\"j\"}]>] out_shardings=[<@mesh, [{\"i\"}, {\"j\"}]>] manual_axes={\"i\", \"j\"} "
      "(%xb: tensor<2x8xf32>, %zb: tensor<8x4xf32>) {\n"
      "    %xs = stablehlo.slice %xb [0:2, 0:4] : (tensor<2x8xf32>) -> tensor<2x4xf32>\n"
      "    %zs = stablehlo.slice %zb [0:2, 0:4] : (tensor<8x4xf32>) -> tensor<2x4xf32>\n"
      "    %sum = stablehlo.add %xs, %zs : tensor<2x4xf32>\n"
      "    %twice = stablehlo.add %sum, %sum : tensor<2x4xf32>\n"
      "    sdy.return %twice : tensor<2x4xf32>\n"
      "  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "  return %y : tensor<8x8xf32>\n}\n";
  run(text);
  EXPECT_EQ(v("xs"), "{V:i}");
  EXPECT_EQ(v("zs"), "{V:j}");
  EXPECT_EQ(v("sum"), "{V:(i,j)}");
  EXPECT_EQ(v("twice"), "{V:(i,j)}");
  EXPECT_EQ(sites(), (Strings{"stablehlo.add#0 'j' (mixed operands)",
                              "stablehlo.add#1 'i' (mixed operands)"}));
}

TEST_F(VarianceTest, DeviceIdsVaryOverEveryManualAxisInScope) {
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\", \"j\"", "tensor<2x8xf32>",
              "    %id = stablehlo.partition_id : tensor<ui32>\n"
              "    %idx = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
              "    sdy.return %xb : tensor<2x8xf32>"));
  EXPECT_EQ(v("id"), "{V:(i,j)}");
  EXPECT_EQ(v("idx"), "{V:(i,j)}");
  ASSERT_TRUE(origin("idx", "j"));
  EXPECT_EQ(origin("idx", "j")->source, VarianceSource::DeviceId);
  // In a partially manual computation only the manual axes count.
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\"", "tensor<2x8xf32>",
              "    %id = stablehlo.replica_id : tensor<ui32>\n"
              "    sdy.return %xb : tensor<2x8xf32>"));
  EXPECT_EQ(v("id"), "{V:i}");
}

TEST_F(VarianceTest, AllReduceRemovesItsAxesAndIsNamedAfterItsReducer) {
  std::string body = collective("m", "all_reduce", "xb", kGroupsJ, "tensor<2x4xf32>",
                                "tensor<2x4xf32>", /*reducer=*/false);
  body.insert(body.find("}>") + 2, " ({\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
                                   "      %s = stablehlo.maximum %a, %b : tensor<f32>\n"
                                   "      stablehlo.return %s : tensor<f32>\n    })");
  run(program("[{\"i\"}, {\"j\"}]", "[{\"i\"}, {}]", "\"i\", \"j\"", "tensor<2x4xf32>",
              body + "\n    sdy.return %m : tensor<2x4xf32>", "tensor<8x4xf32>"));
  EXPECT_EQ(v("m"), "{V:i}");
  EXPECT_EQ(collectives(), Strings{"pmax over 'j'"});
}

TEST_F(VarianceTest, AllGatherKeepsItsAxesAndAddsThemToAnInvariantOperand) {
  // The output names 'j': the varying reading of the unmarked all_gather is consistent.
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {\"j\"}]", "\"i\", \"j\"", "tensor<2x8xf32>",
              collective("g", "all_gather", "xb",
                         std::string("all_gather_dim = 1 : i64, ") + kGroupsJ, "tensor<2x8xf32>",
                         "tensor<2x16xf32>", false) +
                  "\n    sdy.return %g : tensor<2x16xf32>",
              "tensor<8x32xf32>"));
  EXPECT_EQ(v("g"), "{V:(i,j)}");
  EXPECT_TRUE(m_analysis.readings().empty());
  EXPECT_EQ(sites(), Strings{"stablehlo.all_gather#0 'j' (collective operand)"});
  const AxisOrigin* j = origin("g", "j");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->source, VarianceSource::Collective);
  EXPECT_EQ(j->op->name(), "stablehlo.all_gather");
  ASSERT_TRUE(origin("g", "i"));
  EXPECT_EQ(origin("g", "i")->source, VarianceSource::InSharding); // not the gather's axis
}

TEST_F(VarianceTest, AllGatherInvariantRemovesItsAxes) {
  run(program("[{\"i\"}, {}]", "[{}, {}]", "\"i\"", "tensor<2x8xf32>",
              collective("g", "all_gather", "xb",
                         std::string("all_gather_dim = 0 : i64, ") + kGroupsI, "tensor<2x8xf32>",
                         "tensor<8x8xf32>", false, " {shardscope.all_gather_invariant}") +
                  "\n    sdy.return %g : tensor<8x8xf32>"));
  EXPECT_EQ(v("g"), "{}");
  EXPECT_EQ(collectives(), Strings{"all_gather_invariant over 'i'"});
}

TEST_F(VarianceTest, AllToAllAndPpermuteKeepVaryingWhileCollectiveBroadcastMakesInvariant) {
  std::string body = collective("t", "all_to_all", "xb",
                                std::string("concat_dimension = 0 : i64, split_count = 4 : i64, "
                                            "split_dimension = 1 : i64, ") +
                                    kGroupsI,
                                "tensor<8x8xf32>", "tensor<32x2xf32>", false) +
                     "\n" +
                     collective("b", "collective_broadcast", "xb", kGroupsI, "tensor<8x8xf32>",
                                "tensor<8x8xf32>", false) +
                     "\n    sdy.return %b : tensor<8x8xf32>";
  run(program("[{}, {}]", "[{}, {}]", "\"i\"", "tensor<8x8xf32>", body));
  EXPECT_EQ(v("t"), "{V:i}");
  EXPECT_EQ(v("b"), "{}");
  EXPECT_EQ(collectives(), (Strings{"all_to_all over 'i'", "collective_broadcast over 'i'"}));
  // all_to_all lifts its invariant operand; a collective broadcast accepts any operand.
  EXPECT_EQ(sites(), Strings{"stablehlo.all_to_all#0 'i' (collective operand)"});
}

TEST_F(VarianceTest, CollectivesWhoseGroupsMatchNoManualAxesKeepTheirOperandsVariance) {
  run(program(
      "[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\"", "tensor<2x8xf32>",
      collective("r", "all_reduce", "xb", kGroupsJ, "tensor<2x8xf32>", "tensor<2x8xf32>", true) +
          "\n    sdy.return %r : tensor<2x8xf32>"));
  EXPECT_EQ(v("r"), "{V:i}");
  ASSERT_EQ(m_analysis.collectives().size(), 1u);
  EXPECT_FALSE(m_analysis.collectives()[0].match.matched);
  EXPECT_TRUE(sites().empty());
}

TEST_F(VarianceTest, WhileLoopsIterateTheirCarriesToAFixedPoint) {
  run(readTestData("shard_map/partial_nested.mlir"));
  EXPECT_EQ(varianceOf(m_analysis, *m_module, "loop", "acc"), "{V:i}");
  EXPECT_EQ(varianceOf(m_analysis, *m_module, "loop", "sum"), "{V:i}");
  EXPECT_EQ(varianceOf(m_analysis, *m_module, "loop", "iter"), "{}");
  EXPECT_EQ(sitesIn(m_analysis, *m_module, "loop"), Strings{"stablehlo.while#1 'i' (loop carry)"});
}

TEST_F(VarianceTest, LoopCarriesWhoseVarianceChangesInTheBodyAreRecorded) {
  // JAX's `_check_carry_type` compares the initial carry with one pass of the body: an invariant
  // accumulator that adds the varying operand grows to {i}; the counter stays invariant.
  std::string body =
      "    %z = stablehlo.constant dense<0> : tensor<i32>\n"
      "    %a0 = stablehlo.constant dense<0.0> : tensor<2x8xf32>\n"
      "    %r:2 = stablehlo.while(%k = %z, %acc = %a0) : tensor<i32>, tensor<2x8xf32>\n"
      "     cond {\n"
      "      %n = stablehlo.constant dense<2> : tensor<i32>\n"
      "      %c = stablehlo.compare LT, %k, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %c : tensor<i1>\n"
      "    } do {\n"
      "      %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %k1 = stablehlo.add %k, %one : tensor<i32>\n"
      "      %acc1 = stablehlo.add %acc, %xb : tensor<2x8xf32>\n"
      "      stablehlo.return %k1, %acc1 : tensor<i32>, tensor<2x8xf32>\n"
      "    }\n"
      "    sdy.return %r#1 : tensor<2x8xf32>";
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\"", "tensor<2x8xf32>", body));
  ASSERT_EQ(m_analysis.carryMismatches().size(), 1u);
  const CarryMismatch& m = m_analysis.carryMismatches()[0];
  EXPECT_EQ(m.index, 1u);
  EXPECT_EQ(m.initial.str(), "");
  EXPECT_EQ(m.returned.str(), "{V:i}");
  const AxisOrigin* i = m.returned.originOf("i");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->source, VarianceSource::InSharding);
}

TEST_F(VarianceTest, BranchesJoinTheirResultsAndThePredicate) {
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\", \"j\"", "tensor<2x8xf32>",
              "    %c = stablehlo.constant dense<1.000000e+00> : tensor<2x8xf32>\n"
              "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
              "    %same = \"stablehlo.if\"(%t) ({\n      stablehlo.return %c : tensor<2x8xf32>\n"
              "    }, {\n      stablehlo.return %xb : tensor<2x8xf32>\n"
              "    }) : (tensor<i1>) -> tensor<2x8xf32>\n"
              "    %id = stablehlo.partition_id : tensor<ui32>\n"
              "    %zero = stablehlo.constant dense<0> : tensor<ui32>\n"
              "    %p = stablehlo.compare EQ, %id, %zero : (tensor<ui32>, tensor<ui32>) -> "
              "tensor<i1>\n"
              "    %pick = \"stablehlo.if\"(%p) ({\n      stablehlo.return %c : tensor<2x8xf32>\n"
              "    }, {\n      stablehlo.return %c : tensor<2x8xf32>\n"
              "    }) : (tensor<i1>) -> tensor<2x8xf32>\n"
              "    sdy.return %same : tensor<2x8xf32>"));
  EXPECT_EQ(v("same"), "{V:i}");
  EXPECT_EQ(v("pick"), "{V:(i,j)}"); // devices may take different branches
}

TEST_F(VarianceTest, CallsAreTypedWithTheCallersOperands) {
  std::string helper =
      "func.func private @psum_j(%v: tensor<2x4xf32>) -> tensor<2x4xf32> {\n" +
      collective("r", "all_reduce", "v", kGroupsJ, "tensor<2x4xf32>", "tensor<2x4xf32>", true) +
      "\n  return %r : tensor<2x4xf32>\n}\n";
  run(program("[{\"i\"}, {\"j\"}]", "[{\"i\"}, {}]", "\"i\", \"j\"", "tensor<2x4xf32>",
              "    %c = func.call @psum_j(%xb) : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
              "    sdy.return %c : tensor<2x4xf32>",
              "tensor<8x4xf32>", helper));
  EXPECT_EQ(v("c"), "{V:i}");
  // Values of the callee depend on the call site and are not recorded; its collective belongs to
  // the calling manual computation (a nested jax.jit's psum is the shard_map's psum).
  EXPECT_EQ(varianceOf(m_analysis, *m_module, "psum_j", "r"), "none");
  EXPECT_EQ(collectivesIn(m_analysis, *m_module, "psum_j"), Strings{"psum over 'j'"});
}

TEST_F(VarianceTest, PassThroughOpsKeepEachOperandsVarianceApart) {
  run(program("[{\"i\"}, {}]", "[{\"i\"}, {}]", "\"i\"", "tensor<2x8xf32>",
              "    %c = stablehlo.constant dense<1.000000e+00> : tensor<2x8xf32>\n"
              "    %b:2 = stablehlo.optimization_barrier %xb, %c : tensor<2x8xf32>, "
              "tensor<2x8xf32>\n"
              "    %n = sdy.named_computation<\"g\">(%c, %xb) (%p: tensor<2x8xf32>, "
              "%q: tensor<2x8xf32>) {\n"
              "      sdy.return %p : tensor<2x8xf32>\n"
              "    } : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>\n"
              "    sdy.return %xb : tensor<2x8xf32>"));
  EXPECT_EQ(v("q"), "{V:i}");
  EXPECT_EQ(v("p"), "{}");
  EXPECT_EQ(v("n"), "{}");
  ASSERT_TRUE(m_module);
  const ir::Operation* barrier = nullptr;
  for (const ir::Use& use : findValue(*m_module, "f", "c")->uses())
    if (use.user->is("stablehlo.optimization_barrier"))
      barrier = use.user;
  ASSERT_TRUE(barrier);
  EXPECT_EQ(m_analysis.varianceOf(*barrier->result(0))->str(), "{V:i}");
  EXPECT_TRUE(m_analysis.varianceOf(*barrier->result(1))->empty());
  EXPECT_TRUE(sites().empty());
}

TEST_F(VarianceTest, NestedComputationsAddTheirAxesAndDropThemOnTheWayOut) {
  run(readTestData("shard_map/partial_nested.mlir"));
  auto nested = [&](std::string_view hint) {
    return varianceOf(m_analysis, *m_module, "nested", hint);
  };
  EXPECT_EQ(nested("xb"), "{V:i}");
  EXPECT_EQ(nested("xbb"), "{V:(i,j)}");
  EXPECT_EQ(nested("s"), "{V:i}");
  EXPECT_EQ(nested("inner"), "{V:i}");
  EXPECT_EQ(collectivesIn(m_analysis, *m_module, "nested"), Strings{"psum over 'j'"});
  EXPECT_EQ(collectivesIn(m_analysis, *m_module, "ppermute"), Strings{"ppermute over 'i'"});
  EXPECT_EQ(varianceOf(m_analysis, *m_module, "ppermute", "p"), "{V:i}");
  EXPECT_EQ(sitesIn(m_analysis, *m_module, "ppermute"),
            Strings{"stablehlo.collective_permute#0 'i' (collective operand)"});
}

TEST(VarianceSetTest, KeepsMeshOrderAndTheFirstOrigin) {
  Strings mesh{"i", "j", "k"};
  VarianceSet set;
  set.add({"k", VarianceSource::DeviceId, nullptr, 0}, mesh);
  set.add({"i", VarianceSource::InSharding, nullptr, 1}, mesh);
  set.add({"k", VarianceSource::Collective, nullptr, 0}, mesh);
  EXPECT_EQ(set.str(), "{V:(i,k)}");
  EXPECT_EQ(set.originOf("k")->source, VarianceSource::DeviceId);
  VarianceSet other;
  other.add({"j", VarianceSource::Collective, nullptr, 0}, mesh);
  EXPECT_EQ(set.missing(other), Strings{"j"});
  set.unite(other, mesh);
  EXPECT_EQ(set.axes(), (Strings{"i", "j", "k"}));
  set.restrictTo(Strings{"j", "k"});
  set.remove("k");
  EXPECT_EQ(set.str(), "{V:j}");
  EXPECT_EQ(VarianceSet().str(), "");
}
