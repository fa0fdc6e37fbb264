// One test per explicit-sharding rule and per JAX message (jax/_src/lax/lax.py, slicing.py,
// utils.py). The mesh is `["X"=2, "Y"=4]` with both axes Explicit unless a test says otherwise.
#include "core/analysis/explicit_rules.h"

#include "tests/core/analysis/explicit_test_support.h"

using namespace shardscope;
using namespace shardscope::analysis;
using explicit_testing::typeProgram;
using explicit_testing::withMesh;

namespace {

using Strings = std::vector<std::string>;

TEST(ExplicitRulesTest, NullaryOpsAreUnshardedUnlessGivenAnOutSharding) {
  auto p = typeProgram(withMesh(R"(
  func.func @main() -> tensor<4x8xf32> {
    %zeros = stablehlo.constant dense<0.0> : tensor<4x8xf32>
    %placed = stablehlo.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"Y"}]>]>} dense<0.0> : tensor<4x8xf32>
    %range = stablehlo.iota dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"X"}, {}]>]>} : tensor<4x8xf32>
    return %zeros : tensor<4x8xf32>
  })"));
  EXPECT_EQ(p->type("zeros"), "f32[4,8]");
  EXPECT_EQ(p->type("placed"), "f32[4,8@Y]");
  EXPECT_EQ(p->type("range"), "f32[4@X,8]");
}

TEST(ExplicitRulesTest, UnaryElementwiseOpsPassTheShardingThrough) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<4x8xi32> {
    %s = stablehlo.sine %a : tensor<4x8xf32>
    %e = stablehlo.exponential %s : tensor<4x8xf32>
    %c = stablehlo.convert %e : (tensor<4x8xf32>) -> tensor<4x8xi32>
    %moved = stablehlo.convert %e {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"X"}]>]>} : (tensor<4x8xf32>) -> tensor<4x8xi32>
    return %c : tensor<4x8xi32>
  })"));
  EXPECT_EQ(p->type("s"), "f32[4@X,8@Y]");
  EXPECT_EQ(p->type("e"), "f32[4@X,8@Y]");
  EXPECT_EQ(p->type("c"), "i32[4@X,8@Y]");
  EXPECT_EQ(p->type("moved"), "i32[4,8@X]"); // convert_element_type takes a sharding
}

TEST(ExplicitRulesTest, BinaryOpsTakeTheConsensusOfEachDimension) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%xn: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %ny: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"Y"}]>},
                  %nn: tensor<4x8xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
    %none = stablehlo.add %nn, %nn : tensor<4x8xf32>
    %one = stablehlo.subtract %xn, %nn : tensor<4x8xf32>
    %both = stablehlo.maximum %xn, %ny : tensor<4x8xf32>
    %same = stablehlo.multiply %xn, %xn : tensor<4x8xf32>
    %cmp = stablehlo.compare LT, %both, %xn : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %scalar = stablehlo.add %s, %s : tensor<f32>
    return %none : tensor<4x8xf32>
  })"));
  EXPECT_EQ(p->type("none"), "f32[4,8]");
  EXPECT_EQ(p->type("one"), "f32[4@X,8]");
  EXPECT_EQ(p->type("both"), "f32[4@X,8@Y]");
  EXPECT_EQ(p->type("same"), "f32[4@X,8]");
  EXPECT_EQ(p->type("cmp"), "bool[4@X,8@Y]");
  EXPECT_EQ(p->type("scalar"), "f32[]");
  EXPECT_EQ(p->errors(), Strings{});
}

TEST(ExplicitRulesTest, EntryArgumentsShardedUnevenlyAreRejected) {
  // jit's `_check_divisibility`: 6 rows over Y (4 devices) is an IndivisibleError; a private
  // function's arguments are not jit arguments and are not checked.
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}) -> tensor<6x8xf32> {
    return %a : tensor<6x8xf32>
  }
  func.func private @f(%a: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}) -> tensor<6x8xf32> {
    return %a : tensor<6x8xf32>
  })"));
  EXPECT_EQ(p->errors(),
            Strings{"One of pjit arguments was given the sharding NamedSharding(mesh=Mesh('X': 2, "
                    "'Y': 4, axis_types=(Explicit, Explicit)), spec=P('Y', None)) implies that "
                    "array axis 0 is partitioned 4 times, but the dimension size is 6 (full "
                    "shape: (6, 8), per-dimension tiling factors: (4, 1) should evenly divide the "
                    "shape)"});
}

TEST(ExplicitRulesTest, BinaryOpsWithDifferentShardingsOfADimensionAreRejected) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>},
                  %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X", "Y"}, {}]>}) -> tensor<8x8xf32> {
    %sum = stablehlo.add %a, %b : tensor<8x8xf32>
    %lt = stablehlo.compare LT, %a, %c : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    return %a : tensor<8x8xf32>
  })"));
  EXPECT_EQ(p->errors(),
            (Strings{"add got incompatible shardings for broadcasting: ('X', None), ('Y', None).",
                     "lt got incompatible shardings for broadcasting: ('X', None), "
                     "(('X', 'Y'), None)."}));
}

TEST(ExplicitRulesTest, AResultNamingAnAxisTwiceIsIllegal) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X", "Y"}]>}) -> tensor<4x8xf32> {
    %d = stablehlo.divide %a, %b : tensor<4x8xf32>
    return %a : tensor<4x8xf32>
  })"));
  EXPECT_EQ(p->errors(), Strings{"div operation with inputs: f32[4@X,8], f32[4,8@(X,Y)] produces "
                                 "an illegally sharded result: f32[4@X,8@(X,Y)]"});
}

TEST(ExplicitRulesTest, SelectCasesMustAgree) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%p: tensor<i1>, %pv: tensor<8xi1>,
                  %a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}]>},
                  %b: tensor<8xf32>) -> tensor<8xf32> {
    %ok = stablehlo.select %p, %a, %a : tensor<i1>, tensor<8xf32>
    %cases = stablehlo.select %p, %a, %b : tensor<i1>, tensor<8xf32>
    %which = stablehlo.select %pv, %a, %a : tensor<8xi1>, tensor<8xf32>
    return %ok : tensor<8xf32>
  })",
                                "explicit", "auto"));
  EXPECT_EQ(p->type("ok"), "f32[8@X]");
  std::string mesh = "AbstractMesh('X': 2, 'Y': 4, axis_types=(Explicit, Auto))";
  EXPECT_EQ(p->errors(),
            (Strings{"select cases must have the same shardings, got [NamedSharding(mesh=" + mesh +
                         ", spec=P(None,)), NamedSharding(mesh=" + mesh + ", spec=P('X',))].",
                     "select `which` must be scalar or have the same sharding as cases, got "
                     "`which` sharding NamedSharding(mesh=" +
                         mesh +
                         ", spec=P(None,)) but case "
                         "sharding NamedSharding(mesh=" +
                         mesh + ", spec=P('X',))."}));
}

TEST(ExplicitRulesTest, ClampHasTheOperandsSharding) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%lo: tensor<f32>, %a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}]>}) -> tensor<8xf32> {
    %c = stablehlo.clamp %lo, %a, %lo : (tensor<f32>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
    return %c : tensor<8xf32>
  })"));
  EXPECT_EQ(p->type("c"), "f32[8@Y]");
}

TEST(ExplicitRulesTest, ReshapeDropsAndAddsSingletonDimensions) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<1x8x1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}, {}]>}) -> tensor<8xf32> {
    %flat = stablehlo.reshape %a : (tensor<1x8x1xf32>) -> tensor<8xf32>
    %again = stablehlo.reshape %flat : (tensor<8xf32>) -> tensor<8x1xf32>
    return %flat : tensor<8xf32>
  })"));
  EXPECT_EQ(p->type("flat"), "f32[8@X]");
  EXPECT_EQ(p->type("again"), "f32[8@X,1]");
}

TEST(ExplicitRulesTest, ReshapeSplitsAndMergesDimensionsItCanFollow) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%u: tensor<8x6xf32>, %x: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %major: tensor<4x2x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}, {}]>}) -> tensor<48xf32> {
    %merged = stablehlo.reshape %u : (tensor<8x6xf32>) -> tensor<48xf32>
    %split = stablehlo.reshape %x : (tensor<8x6xf32>) -> tensor<4x2x6xf32>
    %merged_major = stablehlo.reshape %major : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
    return %merged : tensor<48xf32>
  })"));
  EXPECT_EQ(p->type("merged"), "f32[48]");
  EXPECT_EQ(p->type("split"), "f32[4@X,2,6]");
  EXPECT_EQ(p->type("merged_major"), "f32[8@X,3]");
  EXPECT_EQ(p->errors(), Strings{});
}

TEST(ExplicitRulesTest, ReshapeItCannotFollowAsksForAnOutSharding) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%y: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}]>},
                  %minor: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>},
                  %other: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) -> tensor<12xf32> {
    %a = stablehlo.reshape %y : (tensor<12xf32>) -> tensor<3x4xf32>
    %b = stablehlo.reshape %minor : (tensor<4x2xf32>) -> tensor<8xf32>
    %c = stablehlo.reshape %other : (tensor<6x4xf32>) -> tensor<4x6xf32>
    %d = stablehlo.reshape %other {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"X"}]>]>} : (tensor<6x4xf32>) -> tensor<4x6xf32>
    return %y : tensor<12xf32>
  })"));
  std::string prefix = "This reshape is not supported. Please specify the sharding of the output "
                       "via the `out_sharding` argument of jax.lax.reshape. Got operand type: ";
  EXPECT_EQ(p->errors(), (Strings{prefix + "float32[12@Y], new sizes: (3, 4)",
                                  prefix + "float32[4,2@X], new sizes: (8,)",
                                  prefix + "float32[6@X,4], new sizes: (4, 6)"}));
  EXPECT_EQ(p->type("d"), "f32[4,6@X]");
}

TEST(ExplicitRulesTest, TransposePermutesAndBroadcastInDimMapsDimensions) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<4x8x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}, {}]>},
                  %v: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}]>}) -> tensor<2x4x8xf32> {
    %t = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<4x8x2xf32>) -> tensor<2x4x8xf32>
    %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %given = stablehlo.broadcast_in_dim %v, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"X"}, {}]>]>} : (tensor<8xf32>) -> tensor<4x8xf32>
    return %t : tensor<2x4x8xf32>
  })"));
  EXPECT_EQ(p->type("t"), "f32[2,4@X,8@Y]");
  EXPECT_EQ(p->type("b"), "f32[4,8@Y]");
  EXPECT_EQ(p->type("given"), "f32[4@X,8]");
}

TEST(ExplicitRulesTest, ReductionsDropTheShardingOfReducedDimensions) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>}) -> tensor<4xf32> {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %all = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
    return %sum : tensor<4xf32>
  })"));
  EXPECT_EQ(p->type("sum"), "f32[4@X]");
  EXPECT_EQ(p->type("all"), "f32[]");
}

TEST(ExplicitRulesTest, ConcatenateNeedsOneShardingForAllOperands) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %b: tensor<4x8xf32>) -> tensor<8x8xf32> {
    %same = stablehlo.concatenate %a, %a, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %differ = stablehlo.concatenate %a, %b, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
    return %same : tensor<8x8xf32>
  })"));
  EXPECT_EQ(p->type("same"), "f32[8@X,8]");
  std::string mesh = "AbstractMesh('X': 2, 'Y': 4, axis_types=(Explicit, Explicit))";
  EXPECT_EQ(p->errors(), Strings{"All operands should have the same sharding. Got shardings "
                                 "NamedSharding(mesh=" +
                                 mesh +
                                 ", spec=P('X', None)), "
                                 "NamedSharding(mesh=" +
                                 mesh + ", spec=P(None, None))"});
}

TEST(ExplicitRulesTest, SliceAndPadKeepShardedDimensionsDivisible) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}, %z: tensor<f32>) -> tensor<4x8xf32> {
    %even = stablehlo.slice %a [0:4, 0:8] : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %odd = stablehlo.slice %a [0:6, 0:3] : (tensor<8x8xf32>) -> tensor<6x3xf32>
    %padded = stablehlo.pad %a, %z, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<10x8xf32>
    return %even : tensor<4x8xf32>
  })"));
  EXPECT_EQ(p->type("even"), "f32[4@Y,8]");
  EXPECT_EQ(p->errors(),
            (Strings{"slicing on sharded dims where out dim (6) is not divisible by mesh axes (4) "
                     "with spec (Y) is not implemented. Got input type=f32[8@Y,8] and output "
                     "shape=(6, 3)",
                     "padding on sharded dims where out dim (10) is not divisible by mesh axes "
                     "(4) with spec (Y) is not implemented. Got input type=f32[8@Y,8] and output "
                     "shape=(10, 8)"}));
}

TEST(ExplicitRulesTest, DotGeneralKeepsBatchAndFreeDimensions) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%lhs: tensor<2x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}, {}]>},
                  %rhs: tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}, {}]>},
                  %one: tensor<2x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}, {}]>}) -> tensor<2x4x8xf32> {
    %out = stablehlo.dot_general %lhs, %rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x16xf32>, tensor<2x16x8xf32>) -> tensor<2x4x8xf32>
    %m = stablehlo.dot_general %rhs, %one, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x16x8xf32>, tensor<2x16x8xf32>) -> tensor<2x16x16xf32>
    return %out : tensor<2x4x8xf32>
  })"));
  EXPECT_EQ(p->type("out"), "f32[2@X,4@Y,8]");
  EXPECT_EQ(p->type("m"), "f32[2@X,16,16@Y]");
  EXPECT_EQ(p->errors(), Strings{});
}

TEST(ExplicitRulesTest, DotGeneralDropsAContractingShardingOnOneSide) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%lhs: tensor<4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>},
                  %rhs: tensor<16x8xf32>) -> tensor<4x8xf32> {
    %out = stablehlo.dot %lhs, %rhs : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %out : tensor<4x8xf32>
  })"));
  EXPECT_EQ(p->type("out"), "f32[4@X,8]");
}

TEST(ExplicitRulesTest, DotGeneralWithContractingDimsShardedOnBothSidesNeedsAnOutSharding) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%lhs: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {"Y"}]>},
                  %rhs: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}]>}) -> tensor<8x4xf32> {
    %ambiguous = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %scattered = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"X"}, {"Y"}]>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %partial = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"X"}, {}], unreduced={"Y"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %wrong = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"X"}>]>} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    return %scattered : tensor<8x4xf32>
  })"));
  EXPECT_EQ(p->errors(),
            (Strings{"Contracting dimensions are sharded and it is ambiguous how the output should "
                     "be sharded. Please specify the output sharding via the `out_sharding` "
                     "parameter. Got lhs_contracting_spec=('Y',) and rhs_contracting_spec=('Y',)",
                     "out_sharding's unreduced axes should be equal to the contracting specs. Got "
                     "unreduced axes=frozenset({'X'}) and contracting spec=('Y',)"}));
  EXPECT_EQ(p->type("ambiguous"), "untyped");
  EXPECT_EQ(p->type("scattered"), "f32[8@X,4@Y]");
  EXPECT_EQ(p->type("partial"), "f32[8@X,4]{U:Y}");
}

// jax/_src/lax/lax.py::_dot_general_sharding_rule compares the batch specs as they are (an
// unsharded side included); contracting specs are only checked for being sharded on both sides.
TEST(ExplicitRulesTest, DotGeneralNeedsTheSameBatchShardings) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%lhs: tensor<4x8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}, {"Y"}]>},
                  %rhs: tensor<4x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"Y"}, {}, {}]>},
                  %rhs2: tensor<4x16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}, {}]>}) -> tensor<4x8x4xf32> {
    %batch = stablehlo.dot_general %lhs, %rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x4xf32>) -> tensor<4x8x4xf32>
    %contract = stablehlo.dot_general %lhs, %rhs2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x4xf32>) -> tensor<4x8x4xf32>
    return %batch : tensor<4x8x4xf32>
  })"));
  EXPECT_EQ(p->errors(),
            (Strings{"dot_general requires lhs batch dimensions and rhs batch dimensions to have "
                     "the same sharding, got ('X',) and ('Y',).",
                     "dot_general requires lhs batch dimensions and rhs batch dimensions to have "
                     "the same sharding, got ('X',) and (None,)."}));
}

TEST(ExplicitRulesTest, DotGeneralFreeDimensionsOnTheSameAxisAreIllegal) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%lhs: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %rhs: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>}) -> tensor<8x4xf32> {
    %out = stablehlo.dot_general %lhs, %rhs, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    return %out : tensor<8x4xf32>
  })"));
  EXPECT_EQ(p->errors(), Strings{"dot_general operation with inputs: f32[8@X,16], f32[16,4@X] "
                                 "produces an illegally sharded result: f32[8@X,4@X]"});
}

TEST(ExplicitRulesTest, ReshardAndShardingConstraintSetTheType) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>}) -> tensor<8x8xf32> {
    %r = sdy.reshard %a <@mesh, [{}, {"X", "Y"}]> : tensor<8x8xf32>
    %c = sdy.sharding_constraint %r <@mesh, [{"Y"}, {}]> : tensor<8x8xf32>
    return %c : tensor<8x8xf32>
  })"));
  EXPECT_EQ(p->type("r"), "f32[8,8@(X,Y)]");
  EXPECT_EQ(p->type("c"), "f32[8@Y,8]");
}

TEST(ExplicitRulesTest, UnreducedValuesFollowJaxsUnreducedRules) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%u: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"X"}>},
                  %v: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"X"}>},
                  %w: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"Y"}>},
                  %n: tensor<8xf32>, %m: tensor<8x8xf32>) -> tensor<8xf32> {
    %sum = stablehlo.add %u, %v : tensor<8xf32>
    %mixed = stablehlo.add %u, %n : tensor<8xf32>
    %axes = stablehlo.add %u, %w : tensor<8xf32>
    %neg = stablehlo.negate %u : tensor<8xf32>
    %dot = stablehlo.dot %m, %u : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %reduced = sdy.reshard %sum <@mesh, [{"X"}]> : tensor<8xf32>
    %wide = stablehlo.broadcast_in_dim %u, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
    return %reduced : tensor<8xf32>
  })"));
  EXPECT_EQ(p->type("sum"), "f32[8]{U:X}");
  EXPECT_EQ(p->type("wide"), "f32[2,8]{U:X}");
  EXPECT_EQ(p->type("reduced"), "f32[8@X]");
  EXPECT_EQ(p->errors(),
            (Strings{"lhs is unreduced while rhs is not. `add` operation does not allow this "
                     "because there will be implicit communication. Please reduce lhs via "
                     "`reshard` before calling `add`.",
                     "lhs and rhs to `add` must be unreduced along the same mesh axes. Got "
                     "lhs=frozenset({'X'}), rhs=frozenset({'Y'})",
                     "unreduced rule for neg is not implemented. Please file an issue at "
                     "https://github.com/jax-ml/jax/issues",
                     "lhs or rhs passed to dot_general cannot be unreduced. Got "
                     "lhs=ShapedArray(float32[8,8]) and rhs=ShapedArray(float32[8]{U:X})"}));
}

TEST(ExplicitRulesTest, InputsOnDifferentMeshesAreRejected) {
  auto p = typeProgram(R"(
module attributes {shardscope.axis_types = {a = {X = "explicit"}, b = {X = "explicit"}}} {
  sdy.mesh @a = <["X"=2]>
  sdy.mesh @b = <["X"=4]>
  func.func @main(%p: tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"X"}]>},
                  %q: tensor<8xf32> {sdy.sharding = #sdy.sharding<@b, [{"X"}]>}) -> tensor<8xf32> {
    %s = stablehlo.add %p, %q : tensor<8xf32>
    return %s : tensor<8xf32>
  }
})");
  EXPECT_EQ(p->errors(), Strings{"Mesh for all inputs should be equal. Got one mesh: "
                                 "AbstractMesh('X': 2, axis_types=(Explicit,)) and another mesh: "
                                 "AbstractMesh('X': 4, axis_types=(Explicit,))"});
}

TEST(ExplicitRulesTest, PrimitiveNamesAreJaxs) {
  auto p = typeProgram(withMesh(R"(
  func.func @main(%a: tensor<8xf32>) -> tensor<8xi1> {
    %s = stablehlo.subtract %a, %a : tensor<8xf32>
    %c = stablehlo.compare GE, %a, %s : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %t = stablehlo.tanh %a : tensor<8xf32>
    return %c : tensor<8xi1>
  })"));
  const ir::Block* body = ir::func::body(*p->module->lookupFunction("main"));
  std::vector<std::string> names;
  for (const auto& op : body->ops())
    names.push_back(jaxPrimitiveName(*op));
  EXPECT_EQ(names, (Strings{"sub", "ge", "tanh", "return"}));
}

} // namespace
