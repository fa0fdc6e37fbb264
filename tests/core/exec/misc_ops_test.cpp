// Bit ops (shifts, popcnt, count_leading_zeros), reduce_precision, map, real/imag of real
// tensors, get_dimension_size, cholesky, triangular_solve and batch norm, plus the explicit
// errors for tuple and rng ops. Expectations come from the StableHLO spec examples or
// are worked out by hand.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

#include <cmath>
#include <limits>

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;
using Doubles = std::vector<double>;

namespace {

Tensor ints(ElementType e, std::vector<int64_t> shape, std::vector<int64_t> v) {
  return Tensor::fromInts(e, std::move(shape), v);
}

std::string binaryProgram(const std::string& op, const std::string& type) {
  return "func.func @main(%a: " + type + ", %b: " + type + ") -> " + type + " {\n  %r = " + op +
         " %a, %b : " + type + "\n  return %r : " + type + "\n}\n";
}
std::string unaryProgram(const std::string& op, const std::string& type,
                         const std::string& extra = "") {
  return "func.func @main(%a: " + type + ") -> " + type + " {\n  %r = " + op + " %a" + extra +
         " : " + type + "\n  return %r : " + type + "\n}\n";
}

// Runs `@main` expecting failure; returns the first diagnostic's message.
std::string runError(const std::string& text, std::vector<Tensor> inputs) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", std::move(inputs), sink));
  return sink.diagnostics().empty() ? std::string() : sink.diagnostics()[0].message;
}

TEST(BitOpsTest, ShiftsHandleWidthAndNegativeAmounts) {
  const char* type = "tensor<6xi8>";
  Tensor x = ints(ElementType::I8, {6}, {1, 1, -128, -128, 64, 5});
  Tensor n = ints(ElementType::I8, {6}, {7, 8, 7, 8, 9, -1});
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.shift_left", type), {x, n})),
            (Doubles{-128, 0, 0, 0, 0, 0}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.shift_right_arithmetic", type), {x, n})),
            (Doubles{0, 0, -1, -1, 0, 0}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.shift_right_logical", type), {x, n})),
            (Doubles{0, 0, 1, 0, 0, 0}));
}

TEST(BitOpsTest, ShiftsOnUnsignedAndWideTypes) {
  Tensor x = ints(ElementType::UI32, {3}, {0x80000000, 0xF0, 3});
  Tensor n = ints(ElementType::UI32, {3}, {31, 4, 31});
  EXPECT_EQ(
      values(runOne(binaryProgram("stablehlo.shift_right_logical", "tensor<3xui32>"), {x, n})),
      (Doubles{1, 15, 0}));
  // Arithmetic shifts replicate the top bit even for unsigned types.
  EXPECT_EQ(
      values(runOne(binaryProgram("stablehlo.shift_right_arithmetic", "tensor<3xui32>"), {x, n})),
      (Doubles{4294967295.0, 15, 0}));
  Tensor y = ints(ElementType::I64, {2}, {1, -1});
  Tensor m = ints(ElementType::I64, {2}, {63, 64});
  Tensor r = runOne(binaryProgram("stablehlo.shift_left", "tensor<2xi64>"), {y, m});
  EXPECT_EQ(r.intAt(0), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(r.intAt(1), 0);
}

TEST(BitOpsTest, PopcntAndCountLeadingZeros) {
  Tensor x = ints(ElementType::I8, {4}, {0, 1, -1, 0x0F});
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.popcnt", "tensor<4xi8>"), {x})),
            (Doubles{0, 1, 8, 4}));
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.count_leading_zeros", "tensor<4xi8>"), {x})),
            (Doubles{8, 7, 0, 4}));
  Tensor w = ints(ElementType::UI64, {2}, {1, 0});
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.count_leading_zeros", "tensor<2xui64>"), {w})),
            (Doubles{63, 64}));
  Tensor h = ints(ElementType::I16, {2}, {-1, 0x0101});
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.popcnt", "tensor<2xi16>"), {h})),
            (Doubles{16, 2}));
}

TEST(BitOpsTest, FloatOperandIsRejected) {
  std::string message =
      runError(unaryProgram("stablehlo.popcnt", "tensor<2xf32>"), {f32({2}, {1, 2})});
  EXPECT_NE(message.find("expected integer operands"), std::string::npos) << message;
}

TEST(ReducePrecisionTest, RoundsToHalfPrecisionNearestEven) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // f16 (e5m10): 1 + 2^-11 is a tie that rounds down to even 1; 1 + 3 * 2^-11 is a tie that
  // rounds up to 1 + 2^-9; 65520 rounds to 2^16, beyond the f16 range, so it overflows; 1e-5 is
  // below the smallest normal f16 and flushes to zero (keeping the sign); NaN stays NaN.
  Tensor x = f32({7}, {1.0 + std::ldexp(1.0, -11), 1.0 + 3 * std::ldexp(1.0, -11), 65520, -1e-5,
                       nan, 3.0, -inf});
  Tensor r =
      runOne(unaryProgram("stablehlo.reduce_precision", "tensor<7xf32>", ", format = e5m10"), {x});
  std::vector<double> v = values(r);
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[1], 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(v[2], inf);
  EXPECT_TRUE(v[3] == 0 && std::signbit(v[3]));
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_EQ(v[5], 3.0);
  EXPECT_EQ(v[6], -inf);
}

TEST(ReducePrecisionTest, BfloatFormatOnF64KeepsEightMantissaBits) {
  // e8m7 keeps 7 explicit mantissa bits: 1 + 2^-7 is kept, 1 + 2^-8 + 2^-9 rounds up to 1 + 2^-7.
  Tensor x =
      Tensor::fromDoubles(ElementType::F64, {2},
                          std::vector<double>{1.0 + std::ldexp(1.0, -7),
                                              1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -9)});
  Tensor r =
      runOne(unaryProgram("stablehlo.reduce_precision", "tensor<2xf64>", ", format = e8m7"), {x});
  EXPECT_EQ(values(r), (Doubles{1.0 + std::ldexp(1.0, -7), 1.0 + std::ldexp(1.0, -7)}));
}

TEST(MapTest, AppliesComputationElementwise) {
  const char* program = R"(
func.func @main(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %m = stablehlo.multiply %x, %y : tensor<i32>
    %s = stablehlo.add %m, %x : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}
)";
  Tensor r = runOne(program, {i32({2, 2}, {0, 1, 2, 3}), i32({2, 2}, {4, 5, 6, 7})});
  EXPECT_EQ(values(r), (Doubles{0, 6, 14, 24}));
}

TEST(MiscOpsTest, RealAndImagOfRealTensors) {
  Tensor x = f32({2}, {1.5, -2});
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.real", "tensor<2xf32>"), {x})),
            (Doubles{1.5, -2}));
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.imag", "tensor<2xf32>"), {x})), (Doubles{0, 0}));
}

// 1.0f is 0x3F800000: little-endian bytes 00 00 80 3F; two ui16 0x0001, 0x0002 pack into the
// ui32 0x00020001.
TEST(MiscOpsTest, BitcastConvertBetweenWidths) {
  const char* split = R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2x4xui8> {
  %r = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x4xui8>
  return %r : tensor<2x4xui8>
}
)";
  EXPECT_EQ(values(runOne(split, {f32({2}, {1.0, -2.0})})),
            (Doubles{0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0}));
  const char* join = R"(
func.func @main(%a: tensor<1x2xui16>) -> tensor<1xui32> {
  %r = stablehlo.bitcast_convert %a : (tensor<1x2xui16>) -> tensor<1xui32>
  return %r : tensor<1xui32>
}
)";
  EXPECT_EQ(values(runOne(join, {ints(ElementType::UI16, {1, 2}, {1, 2})})), (Doubles{0x00020001}));
  const char* bad = R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2x2xui8> {
  %r = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2x2xui8>
  return %r : tensor<2x2xui8>
}
)";
  EXPECT_NE(runError(bad, {f32({2}, {1, 2})}).find("cannot bitcast"), std::string::npos);
}

TEST(MiscOpsTest, GetDimensionSize) {
  const char* program = R"(
func.func @main(%a: tensor<3x5xf32>) -> tensor<i32> {
  %r = "stablehlo.get_dimension_size"(%a) {dimension = 1 : i64} : (tensor<3x5xf32>) -> tensor<i32>
  return %r : tensor<i32>
}
)";
  EXPECT_EQ(values(runOne(program, {Tensor(ElementType::F32, {3, 5})})), (Doubles{5}));
}

TEST(MiscOpsTest, RngOpsReportWhyAndTuplesRoundTrip) {
  const char* rng = R"(
func.func @main(%s: tensor<2xui64>) -> tensor<4xui32> {
  %g:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %g#1 : tensor<4xui32>
}
)";
  EXPECT_NE(runError(rng, {Tensor(ElementType::UI64, {2})}).find("implementation-defined"),
            std::string::npos);
  const char* tuple = R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %t = "stablehlo.tuple"(%a) : (tensor<2xf32>) -> tuple<tensor<2xf32>>
  %r = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
)";
  // Tuples are values: packing and unpacking gives the operand back.
  Tensor unpacked = runOne(tuple, {f32({2}, {1, 2})});
  EXPECT_EQ(values(unpacked), (std::vector<double>{1, 2}));
}

TEST(LinalgTest, CholeskyOfClassicMatrixBothTriangles) {
  const char* lower = R"(
func.func @main(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %r = stablehlo.cholesky %a, lower = true : tensor<3x3xf64>
  return %r : tensor<3x3xf64>
}
)";
  const char* upper = R"(
func.func @main(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %r = stablehlo.cholesky %a : tensor<3x3xf64>
  return %r : tensor<3x3xf64>
}
)";
  // [[4, 12, -16], [12, 37, -43], [-16, -43, 98]] = L L^T with L = [[2, 0, 0], [6, 1, 0],
  // [-8, 5, 3]].
  Tensor a = Tensor::fromDoubles(ElementType::F64, {3, 3},
                                 std::vector<double>{4, 12, -16, 12, 37, -43, -16, -43, 98});
  EXPECT_EQ(values(runOne(lower, {a})), (Doubles{2, 0, 0, 6, 1, 0, -8, 5, 3}));
  EXPECT_EQ(values(runOne(upper, {a})), (Doubles{2, 6, -8, 0, 1, 5, 0, 0, 3}));
}

TEST(LinalgTest, CholeskyOfIndefiniteMatrixGivesNan) {
  const char* program = R"(
func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
)";
  Tensor r = runOne(program, {f32({2, 2}, {1, 2, 2, 1})}); // 1 - 4 < 0 on the second pivot
  EXPECT_EQ(r.floatAt(0), 1);
  EXPECT_TRUE(std::isnan(r.floatAt(3)));
}

std::string solveProgram(bool leftSide, bool lower, bool unit, const std::string& transpose,
                         const std::string& bType) {
  return std::string("func.func @main(%a: tensor<3x3xf64>, %b: ") + bType + ") -> " + bType +
         " {\n  %r = \"stablehlo.triangular_solve\"(%a, %b) {left_side = " +
         (leftSide ? "true" : "false") + ", lower = " + (lower ? "true" : "false") +
         ", unit_diagonal = " + (unit ? "true" : "false") +
         ", transpose_a = #stablehlo<transpose " + transpose + ">} : (tensor<3x3xf64>, " + bType +
         ") -> " + bType + "\n  return %r : " + bType + "\n}\n";
}

TEST(LinalgTest, TriangularSolveSpecExample) {
  Tensor a =
      Tensor::fromDoubles(ElementType::F64, {3, 3}, std::vector<double>{1, 0, 0, 2, 4, 0, 3, 5, 6});
  Tensor b = Tensor::fromDoubles(ElementType::F64, {3, 3},
                                 std::vector<double>{2, 0, 0, 4, 8, 0, 6, 10, 12});
  Tensor r = runOne(solveProgram(true, true, false, "NO_TRANSPOSE", "tensor<3x3xf64>"), {a, b});
  EXPECT_EQ(values(r), (Doubles{2, 0, 0, 0, 2, 0, 0, 0, 2}));
}

// Checks x against the equation it must solve, multiplying out op(a) by hand.
TEST(LinalgTest, TriangularSolveAllVariantsSatisfyTheirEquation) {
  // Entries of the unused triangle (99) must be ignored.
  std::vector<double> raw = {2, 99, 99, 1, 3, 99, -1, 2, 4};
  std::vector<double> upperRaw = {2, 1, -1, 99, 3, 2, 99, 99, 4};
  std::vector<double> bData = {1, 2, 3, 4, 5, 6};
  for (bool leftSide : {true, false})
    for (bool lower : {true, false})
      for (bool unit : {true, false})
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          std::vector<double> aData = lower ? raw : upperRaw;
          std::vector<int64_t> bShape =
              leftSide ? std::vector<int64_t>{3, 2} : std::vector<int64_t>{2, 3};
          std::string bType = leftSide ? "tensor<3x2xf64>" : "tensor<2x3xf64>";
          Tensor a = Tensor::fromDoubles(ElementType::F64, {3, 3}, aData);
          Tensor b = Tensor::fromDoubles(ElementType::F64, bShape, bData);
          Tensor x = runOne(solveProgram(leftSide, lower, unit, transpose, bType), {a, b});
          // op(a) as a dense matrix.
          double m[3][3] = {};
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
              bool inside = lower ? j <= i : j >= i;
              double v = i == j && unit ? 1 : (inside ? aData[i * 3 + j] : 0);
              if (std::string(transpose) == "NO_TRANSPOSE")
                m[i][j] = v;
              else
                m[j][i] = v;
            }
          for (int64_t r = 0; r < bShape[0]; ++r)
            for (int64_t c = 0; c < bShape[1]; ++c) {
              double sum = 0;
              for (int k = 0; k < 3; ++k)
                sum += leftSide ? m[r][k] * x.floatAt(k * 2 + c) : x.floatAt(r * 3 + k) * m[k][c];
              EXPECT_NEAR(sum, bData[r * bShape[1] + c], 1e-12)
                  << "left " << leftSide << " lower " << lower << " unit " << unit << " "
                  << transpose;
            }
        }
}

Tensor bnOperand() { return f32({2, 2, 2}, {1, 2, 3, 4, 3, 4, 1, 2}); }

TEST(BatchNormTest, InferenceSpecExample) {
  const char* program = R"(
func.func @main(%x: tensor<2x2x2xf32>, %scale: tensor<2xf32>, %offset: tensor<2xf32>, %mean: tensor<2xf32>, %var: tensor<2xf32>) -> tensor<2x2x2xf32> {
  %r = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}
)";
  Tensor r = runOne(program, {bnOperand(), f32({2}, {1, 1}), f32({2}, {1, 1}), f32({2}, {2, 3}),
                              f32({2}, {1, 1})});
  EXPECT_EQ(values(r), (Doubles{0, 0, 2, 2, 2, 2, 0, 0}));
}

TEST(BatchNormTest, TrainingSpecExample) {
  const char* program = R"(
func.func @main(%x: tensor<2x2x2xf32>, %scale: tensor<2xf32>, %offset: tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %r:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %r#0, %r#1, %r#2 : tensor<2x2x2xf32>, tensor<2xf32>, tensor<2xf32>
}
)";
  auto results = runMain(program, {bnOperand(), f32({2}, {1, 1}), f32({2}, {1, 1})});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(values(results[0]), (Doubles{0, 0, 2, 2, 2, 2, 0, 0}));
  EXPECT_EQ(values(results[1]), (Doubles{2, 3}));
  EXPECT_EQ(values(results[2]), (Doubles{1, 1}));
}

std::string gradProgram(const std::string& x, const std::string& f) {
  return "func.func @main(%x: " + x + ", %scale: " + f + ", %mean: " + f + ", %var: " + f +
         ", %dy: " + x + ") -> (" + x + ", " + f + ", " + f + ") {\n" +
         "  %r:3 = \"stablehlo.batch_norm_grad\"(%x, %scale, %mean, %var, %dy) {epsilon = 0.0 : "
         "f32, feature_index = 1 : i64} : (" +
         x + ", " + f + ", " + f + ", " + f + ", " + x + ") -> (" + x + ", " + f + ", " + f +
         ")\n  return %r#0, %r#1, %r#2 : " + x + ", " + f + ", " + f + "\n}\n";
}

TEST(BatchNormTest, GradSpecExample) {
  // The spec's example (feature_index = 2) with its last two dims swapped, so that the feature
  // dim is 1.
  Tensor dy = f32({2, 2, 2}, std::vector<double>(8, 0.1f));
  auto results = runMain(gradProgram("tensor<2x2x2xf32>", "tensor<2xf32>"),
                         {f32({2, 2, 2}, {1, 3, 2, 4, 3, 1, 4, 2}), f32({2}, {1, 1}),
                          f32({2}, {2, 3}), f32({2}, {1, 1}), dy});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(values(results[0]), (Doubles(8, 0)));
  EXPECT_EQ(values(results[1]), (Doubles{0, 0}));
  EXPECT_EQ(values(results[2]), (Doubles{4 * 0.1f, 4 * 0.1f}));
}

TEST(BatchNormTest, GradOfThreeSamplesWorkedByHand) {
  // x = [0, 1, 5] (one feature), mean 2, var 1, scale 1, eps 0, dy = [1, 0, 0]: centered
  // [-2, -1, 3], sum(dy) = 1, sum(dy * centered) = -2, so grad_operand =
  // (3 dy - 1 + 2 centered) / 3 = [-2/3, -1, 5/3], grad_scale = -2, grad_offset = 1.
  auto results = runMain(gradProgram("tensor<3x1xf64>", "tensor<1xf64>"),
                         {Tensor::fromDoubles(ElementType::F64, {3, 1}, Doubles{0, 1, 5}),
                          Tensor::fromDoubles(ElementType::F64, {1}, Doubles{1}),
                          Tensor::fromDoubles(ElementType::F64, {1}, Doubles{2}),
                          Tensor::fromDoubles(ElementType::F64, {1}, Doubles{1}),
                          Tensor::fromDoubles(ElementType::F64, {3, 1}, Doubles{1, 0, 0})});
  ASSERT_EQ(results.size(), 3u);
  std::vector<double> dx = values(results[0]);
  ASSERT_EQ(dx.size(), 3u);
  EXPECT_NEAR(dx[0], -2.0 / 3, 1e-15);
  EXPECT_NEAR(dx[1], -1.0, 1e-15);
  EXPECT_NEAR(dx[2], 5.0 / 3, 1e-15);
  EXPECT_EQ(values(results[1]), (Doubles{-2}));
  EXPECT_EQ(values(results[2]), (Doubles{1}));
}

} // namespace
