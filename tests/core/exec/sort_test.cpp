// sort: the StableHLO spec example, stability, TOTALORDER with NaN and signed zeros, FLOAT
// comparisons with NaN (not a strict weak order), unsigned keys, empty dims and a negative
// dimension, with expectations worked out by hand.
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

// `@main` sorting one `type` operand along `dim` with `compare <dir>, <cmpType>`.
std::string sortProgram(const std::string& type, const std::string& element, int dim,
                        const std::string& dir, const std::string& cmpType = "") {
  std::string scalar = "tensor<" + element + ">";
  return "func.func @main(%x: " + type + ") -> " + type + " {\n" +
         "  %r = \"stablehlo.sort\"(%x) ({\n  ^bb0(%a: " + scalar + ", %b: " + scalar + "):\n" +
         "    %p = stablehlo.compare " + dir + ", %a, %b" +
         (cmpType.empty() ? "" : ", " + cmpType) + " : (" + scalar + ", " + scalar +
         ") -> tensor<i1>\n" +
         "    stablehlo.return %p : tensor<i1>\n  }) {dimension = " + std::to_string(dim) +
         " : i64, is_stable = true} : (" + type + ") -> " + type + "\n  return %r : " + type +
         "\n}\n";
}

TEST(SortTest, SpecExampleSortsTwoOperandsByTheFirst) {
  const char* program = R"(
func.func @main(%a: tensor<2x3xi64>, %b: tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>) {
  %r:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%x0: tensor<i64>, %x1: tensor<i64>, %y0: tensor<i64>, %y1: tensor<i64>):
    %p = stablehlo.compare GT, %x0, %x1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)
  return %r#0, %r#1 : tensor<2x3xi64>, tensor<2x3xi64>
}
)";
  auto a = Tensor::fromInts(ElementType::I64, {2, 3}, std::vector<int64_t>{1, 2, 3, 3, 2, 1});
  auto b = Tensor::fromInts(ElementType::I64, {2, 3}, std::vector<int64_t>{3, 2, 1, 1, 2, 3});
  auto results = runMain(program, {a, b});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(values(results[0]), (Doubles{3, 2, 3, 1, 2, 1}));
  EXPECT_EQ(values(results[1]), (Doubles{1, 2, 1, 3, 2, 3}));
}

TEST(SortTest, StableSortKeepsOrderOfEqualKeys) {
  const char* program = R"(
func.func @main(%k: tensor<6xi32>, %v: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %r:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<6xi32>, tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>)
  return %r#0, %r#1 : tensor<6xi32>, tensor<6xi32>
}
)";
  auto results = runMain(program, {i32({6}, {1, 0, 1, 0, 2, 0}), i32({6}, {0, 1, 2, 3, 4, 5})});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(values(results[0]), (Doubles{0, 0, 0, 1, 1, 2}));
  EXPECT_EQ(values(results[1]), (Doubles{1, 3, 5, 0, 2, 4}));
}

// Lexicographic order on two keys: the comparator is no single compare, so the region runs.
TEST(SortTest, TwoKeyComparatorRunsTheRegion) {
  const char* program = R"(
func.func @main(%a: tensor<4xi32>, %b: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %r:2 = "stablehlo.sort"(%a, %b) ({
  ^bb0(%a0: tensor<i32>, %a1: tensor<i32>, %b0: tensor<f32>, %b1: tensor<f32>):
    %lt = stablehlo.compare LT, %a0, %a1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a0, %a1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %blt = stablehlo.compare LT, %b0, %b1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %blt : tensor<i1>
    %p = stablehlo.or %lt, %tie : tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xi32>, tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xf32>
}
)";
  auto results = runMain(program, {i32({4}, {1, 0, 1, 0}), f32({4}, {3, 2.5, 1, 2})});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(values(results[0]), (Doubles{0, 0, 1, 1}));
  EXPECT_EQ(values(results[1]), (Doubles{2, 2.5, 1, 3}));
}

// `compare GT, %rhs, %lhs` is `lhs < rhs` with the arguments swapped: ascending order.
TEST(SortTest, SwappedComparatorArgumentsSortAscending) {
  const char* program = R"(
func.func @main(%a: tensor<4xi16>) -> tensor<4xi16> {
  %r = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<i16>, %y: tensor<i16>):
    %p = stablehlo.compare GT, %y, %x : (tensor<i16>, tensor<i16>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xi16>) -> tensor<4xi16>
  return %r : tensor<4xi16>
}
)";
  Tensor x = Tensor::fromInts(ElementType::I16, {4}, std::vector<int64_t>{5, -7, 0, 3});
  EXPECT_EQ(values(runOne(program, {x})), (Doubles{-7, 0, 3, 5}));
}

TEST(SortTest, TotalOrderPlacesNegativeZeroBeforeZeroAndNanLast) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Tensor x = f32({6}, {nan, 1, -inf, 0.0, -0.0, 2});
  Tensor r = runOne(sortProgram("tensor<6xf32>", "f32", 0, "LT", "TOTALORDER"), {x});
  std::vector<double> v = values(r);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0], -inf);
  EXPECT_TRUE(v[1] == 0 && std::signbit(v[1]));
  EXPECT_TRUE(v[2] == 0 && !std::signbit(v[2]));
  EXPECT_EQ(v[3], 1);
  EXPECT_EQ(v[4], 2);
  EXPECT_TRUE(std::isnan(v[5]));
}

// With FLOAT comparisons a NaN is "equal" to everything, so the comparator is no strict weak
// order: the result is then unspecified, but the sort must finish, keep every element and order
// the NaN-free runs.
TEST(SortTest, FloatCompareWithNanStillPermutesElements) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x = f32({5}, {3, nan, 1, 2, nan});
  Tensor r = runOne(sortProgram("tensor<5xf32>", "f32", 0, "LT"), {x});
  std::vector<double> v = values(r);
  ASSERT_EQ(v.size(), 5u);
  int nans = 0;
  double sum = 0;
  for (double e : v)
    std::isnan(e) ? ++nans : (sum += e, 0);
  EXPECT_EQ(nans, 2);
  EXPECT_EQ(sum, 6);
}

TEST(SortTest, UnsignedKeysDescendingAlongInnerDim) {
  Tensor x = Tensor::fromInts(ElementType::UI8, {2, 3}, std::vector<int64_t>{1, 255, 128, 0, 7, 3});
  Tensor r = runOne(sortProgram("tensor<2x3xui8>", "ui8", 1, "GT"), {x});
  EXPECT_EQ(values(r), (Doubles{255, 128, 1, 7, 3, 0}));
}

TEST(SortTest, NegativeDimensionCountsFromTheBack) {
  Tensor x = i32({2, 2}, {4, 3, 2, 1});
  Tensor r = runOne(sortProgram("tensor<2x2xi32>", "i32", -1, "LT"), {x});
  EXPECT_EQ(values(r), (Doubles{3, 4, 1, 2}));
}

TEST(SortTest, EmptyDimensionsAreFine) {
  Tensor x(ElementType::F32, {0, 3});
  Tensor r = runOne(sortProgram("tensor<0x3xf32>", "f32", 1, "LT"), {x});
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{0, 3}));
  Tensor y(ElementType::F32, {2, 0});
  Tensor s = runOne(sortProgram("tensor<2x0xf32>", "f32", 1, "LT"), {y});
  EXPECT_EQ(s.shape(), (std::vector<int64_t>{2, 0}));
}

TEST(SortTest, LongerSliceMatchesStdSort) {
  std::vector<int64_t> data;
  for (int i = 0; i < 37; ++i)
    data.push_back((i * 7919) % 101 - 50);
  std::vector<int64_t> sorted = data;
  std::sort(sorted.begin(), sorted.end());
  Tensor r = runOne(sortProgram("tensor<37xi64>", "i64", 0, "LT"),
                    {Tensor::fromInts(ElementType::I64, {37}, data)});
  for (int64_t i = 0; i < 37; ++i)
    EXPECT_EQ(r.intAt(i), sorted[static_cast<size_t>(i)]) << "element " << i;
}

} // namespace
