// dot_general against a naive reference loop on random data, for the BLAS (f32, f64) and the
// generic (i32, bf16) paths, with batch and contracting dims in unusual positions.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

#include <random>

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;

namespace {

// lhs: [k=3, b=2, m=4], rhs: [b=2, n=5, k=3]  ->  result [b=2, m=4, n=5].
std::string program(const std::string& e) {
  std::string lhs = "tensor<3x2x4x" + e + ">", rhs = "tensor<2x5x3x" + e + ">",
              out = "tensor<2x4x5x" + e + ">";
  return "func.func @main(%a: " + lhs + ", %b: " + rhs + ") -> " + out +
         " {\n  %r = stablehlo.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = "
         "[0] x [2] : (" +
         lhs + ", " + rhs + ") -> " + out + "\n  return %r : " + out + "\n}\n";
}

Tensor randomTensor(ElementType e, std::vector<int64_t> shape, std::mt19937& rng) {
  Tensor t(e, std::move(shape));
  std::uniform_int_distribution<int> dist(-8, 8);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.setFloat(i, ir::isFloatElement(e) ? dist(rng) / 4.0 : dist(rng));
  return t;
}

// The reference: result[b][m][n] = sum_k lhs[k][b][m] * rhs[b][n][k], in double.
std::vector<double> naive(const Tensor& lhs, const Tensor& rhs) {
  std::vector<double> out;
  for (int b = 0; b < 2; ++b)
    for (int m = 0; m < 4; ++m)
      for (int n = 0; n < 5; ++n) {
        double acc = 0;
        for (int k = 0; k < 3; ++k)
          acc += lhs.floatAt((k * 2 + b) * 4 + m) * rhs.floatAt((b * 5 + n) * 3 + k);
        out.push_back(acc);
      }
  return out;
}

class DotGeneralTest : public ::testing::TestWithParam<ElementType> {};

TEST_P(DotGeneralTest, MatchesNaiveLoopOnRandomData) {
  ElementType e = GetParam();
  std::mt19937 rng(42);
  Tensor lhs = randomTensor(e, {3, 2, 4}, rng);
  Tensor rhs = randomTensor(e, {2, 5, 3}, rng);
  Tensor r = runOne(program(std::string(ir::elementTypeName(e))), {lhs, rhs});
  Tensor expected = Tensor::fromDoubles(e, {2, 4, 5}, naive(lhs, rhs));
  // Small multiples of 1/4 are exact in every tested type, so the results must match exactly.
  CompareResult cmp = compareTensors(expected, r);
  EXPECT_TRUE(cmp.equal) << cmp.message;
}

// Operands stored as the transposed canonical matrices ([b, k, m] x [b, n, k]) and in canonical
// order ([b, m, k] x [b, k, n]) go to BLAS without packing, transposed or not; both must match a
// naive loop.
std::string layoutProgram(const std::string& e, bool transposed) {
  std::string lhs = transposed ? "tensor<2x3x4x" + e + ">" : "tensor<2x4x3x" + e + ">";
  std::string rhs = transposed ? "tensor<2x5x3x" + e + ">" : "tensor<2x3x5x" + e + ">";
  std::string out = "tensor<2x4x5x" + e + ">";
  std::string dims = transposed ? "contracting_dims = [1] x [2]" : "contracting_dims = [2] x [1]";
  return "func.func @main(%a: " + lhs + ", %b: " + rhs + ") -> " + out +
         " {\n  %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], " + dims + " : (" +
         lhs + ", " + rhs + ") -> " + out + "\n  return %r : " + out + "\n}\n";
}

TEST_P(DotGeneralTest, InPlaceLayoutsMatchNaiveLoop) {
  ElementType e = GetParam();
  for (bool transposed : {false, true}) {
    std::mt19937 rng(transposed ? 5 : 6);
    Tensor lhs = randomTensor(
        e, transposed ? std::vector<int64_t>{2, 3, 4} : std::vector<int64_t>{2, 4, 3}, rng);
    Tensor rhs = randomTensor(
        e, transposed ? std::vector<int64_t>{2, 5, 3} : std::vector<int64_t>{2, 3, 5}, rng);
    std::vector<double> expected;
    for (int b = 0; b < 2; ++b)
      for (int m = 0; m < 4; ++m)
        for (int n = 0; n < 5; ++n) {
          double acc = 0;
          for (int k = 0; k < 3; ++k)
            acc += transposed ? lhs.floatAt((b * 3 + k) * 4 + m) * rhs.floatAt((b * 5 + n) * 3 + k)
                              : lhs.floatAt((b * 4 + m) * 3 + k) * rhs.floatAt((b * 3 + k) * 5 + n);
          expected.push_back(acc);
        }
    Tensor r = runOne(layoutProgram(std::string(ir::elementTypeName(e)), transposed), {lhs, rhs});
    CompareResult cmp = compareTensors(Tensor::fromDoubles(e, {2, 4, 5}, expected), r);
    EXPECT_TRUE(cmp.equal) << (transposed ? "transposed: " : "canonical: ") << cmp.message;
  }
}

INSTANTIATE_TEST_SUITE_P(ElementTypes, DotGeneralTest,
                         ::testing::Values(ElementType::F32, ElementType::F64, ElementType::I32,
                                           ElementType::BF16));

TEST(DotGeneralPlainTest, MatrixVectorProduct) {
  const char* text = R"(func.func @main(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2xf32> {
  %r = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
)";
  Tensor r = runOne(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {1, 0, -1})});
  EXPECT_EQ(values(r), (std::vector<double>{-2, -2}));
}

} // namespace
