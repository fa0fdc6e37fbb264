// The typed loops of the elementwise kernels (`detail/typed_loops.h`), checked against values
// derived by hand from the StableHLO spec (wrap-around, NaN propagation, IEEE comparisons) and
// against the C library in double precision for f32 transcendental functions.
#include "core/exec/detail/typed_loops.h"
#include "tests/core/exec/exec_test_util.h"

#include <cmath>
#include <limits>

namespace shardscope::exec {
namespace {

using testing::f32;
using testing::runOne;
using testing::values;

std::string unaryProgram(const std::string& op, const std::string& type) {
  return "func.func @main(%x: " + type + ") -> " + type + " {\n  %r = stablehlo." + op +
         " %x : " + type + "\n  return %r : " + type + "\n}\n";
}

std::string binaryProgram(const std::string& op, const std::string& type) {
  return "func.func @main(%a: " + type + ", %b: " + type + ") -> " + type +
         " {\n  %r = stablehlo." + op + " %a, %b : " + type + "\n  return %r : " + type +
         "\n}\n";
}

TEST(TypedKernelsTest, IntegerArithmeticWrapsAtTheElementWidth) {
  Tensor a = Tensor::fromInts(ir::ElementType::I8, {3}, std::vector<int64_t>{127, -128, 100});
  Tensor b = Tensor::fromInts(ir::ElementType::I8, {3}, std::vector<int64_t>{1, -1, 3});
  // 127 + 1 = 128 -> -128; -128 + -1 = -129 -> 127; 100 + 3 = 103.
  Tensor sum = runOne(binaryProgram("add", "tensor<3xi8>"), {a, b});
  EXPECT_EQ(sum.intAt(0), -128);
  EXPECT_EQ(sum.intAt(1), 127);
  EXPECT_EQ(sum.intAt(2), 103);
  // 127 * 1 = 127; -128 * -1 = 128 -> -128; 100 * 3 = 300 -> 44.
  Tensor product = runOne(binaryProgram("multiply", "tensor<3xi8>"), {a, b});
  EXPECT_EQ(product.intAt(1), -128);
  EXPECT_EQ(product.intAt(2), 44);
  Tensor big = Tensor::fromInts(ir::ElementType::I32, {1}, std::vector<int64_t>{INT32_MAX});
  Tensor two = Tensor::fromInts(ir::ElementType::I32, {1}, std::vector<int64_t>{2});
  EXPECT_EQ(runOne(binaryProgram("multiply", "tensor<1xi32>"), {big, two}).intAt(0), -2);
  Tensor minimum = Tensor::fromInts(ir::ElementType::I32, {1}, std::vector<int64_t>{INT32_MIN});
  EXPECT_EQ(runOne(unaryProgram("negate", "tensor<1xi32>"), {minimum}).intAt(0), INT32_MIN);
  EXPECT_EQ(runOne(unaryProgram("abs", "tensor<1xi32>"), {minimum}).intAt(0), INT32_MIN);
}

TEST(TypedKernelsTest, UnsignedMaximumOrdersAsUnsigned) {
  Tensor a = Tensor::fromInts(ir::ElementType::UI32, {2}, std::vector<int64_t>{0xFFFFFFFF, 1});
  Tensor b = Tensor::fromInts(ir::ElementType::UI32, {2}, std::vector<int64_t>{2, 0});
  Tensor r = runOne(binaryProgram("maximum", "tensor<2xui32>"), {a, b});
  EXPECT_EQ(static_cast<uint32_t>(r.intAt(0)), 0xFFFFFFFFu);
  EXPECT_EQ(r.intAt(1), 1);
}

TEST(TypedKernelsTest, FloatMaximumPropagatesNanAndOrdersSignedZeros) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor a = f32({3}, {nan, -0.0, 1.0});
  Tensor b = f32({3}, {1.0, 0.0, 2.0});
  Tensor mx = runOne(binaryProgram("maximum", "tensor<3xf32>"), {a, b});
  EXPECT_TRUE(std::isnan(mx.floatAt(0)));
  EXPECT_FALSE(std::signbit(mx.floatAt(1)));
  EXPECT_EQ(mx.floatAt(2), 2.0);
  Tensor mn = runOne(binaryProgram("minimum", "tensor<3xf32>"), {a, b});
  EXPECT_TRUE(std::isnan(mn.floatAt(0)));
  EXPECT_TRUE(std::signbit(mn.floatAt(1)));
  EXPECT_EQ(mn.floatAt(2), 1.0);
}

TEST(TypedKernelsTest, F32ArithmeticIsCorrectlyRounded) {
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: it rounds to even, 1.
  Tensor a = f32({2}, {1.0, 0.1});
  Tensor b = f32({2}, {std::ldexp(1.0, -24), 0.2});
  Tensor r = runOne(binaryProgram("add", "tensor<2xf32>"), {a, b});
  EXPECT_EQ(r.floatAt(0), 1.0);
  EXPECT_EQ(r.data<float>()[1], 0.1f + 0.2f);
}

TEST(TypedKernelsTest, F32TanhIsWithinSixUlpsEverywhere) {
  std::vector<double> xs;
  for (double x = -12; x <= 12; x += 0.001953125)
    xs.push_back(x);
  for (double x : {1e-30, -1e-30, 3e-4, 4e-4, 5e-4, 1e-3, 0.0})
    xs.push_back(x);
  Tensor x = f32({static_cast<int64_t>(xs.size())}, xs);
  Tensor r = runOne(unaryProgram("tanh", "tensor<" + std::to_string(xs.size()) + "xf32>"), {x});
  int64_t worst = 0;
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double exact = std::tanh(static_cast<double>(x.data<float>()[i]));
    worst = std::max(worst, ulpDistance(exact, r.floatAt(i), ir::ElementType::F32));
    EXPECT_LE(std::fabs(r.floatAt(i)), 1.0) << "at " << x.floatAt(i);
  }
  EXPECT_LE(worst, 6); // measured: 5 ulps at worst
  // Specials: tanh(+-inf) = +-1, NaN stays NaN, denormals are themselves.
  double inf = std::numeric_limits<double>::infinity();
  Tensor s = f32({4}, {inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1.401298464324817e-45});
  Tensor t = runOne(unaryProgram("tanh", "tensor<4xf32>"), {s});
  EXPECT_EQ(t.floatAt(0), 1.0);
  EXPECT_EQ(t.floatAt(1), -1.0);
  EXPECT_TRUE(std::isnan(t.floatAt(2)));
  EXPECT_EQ(t.floatAt(3), s.floatAt(3));
}

TEST(TypedKernelsTest, F32ExpLogAndLogisticAreWithinTwoUlps) {
  std::vector<double> xs;
  for (double x = -80; x <= 80; x += 0.37)
    xs.push_back(x);
  Tensor x = f32({static_cast<int64_t>(xs.size())}, xs);
  std::string type = "tensor<" + std::to_string(xs.size()) + "xf32>";
  Tensor e = runOne(unaryProgram("exponential", type), {x});
  Tensor l = runOne(unaryProgram("logistic", type), {x});
  for (int64_t i = 0; i < x.numElements(); ++i) {
    double v = x.data<float>()[i];
    EXPECT_LE(ulpDistance(std::exp(v), e.floatAt(i), ir::ElementType::F32), 2) << v;
    EXPECT_LE(ulpDistance(1 / (1 + std::exp(-v)), l.floatAt(i), ir::ElementType::F32), 2) << v;
  }
  Tensor positive = f32({4}, {1e-30, 0.5, 3.0, 1e30});
  Tensor g = runOne(unaryProgram("log", "tensor<4xf32>"), {positive});
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_LE(ulpDistance(std::log(static_cast<double>(positive.data<float>()[i])), g.floatAt(i),
                          ir::ElementType::F32),
              1);
}

TEST(TypedKernelsTest, CompareFollowsIeeeForFloatsAndSignednessForIntegers) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor a = f32({3}, {nan, -0.0, 1.0});
  Tensor b = f32({3}, {nan, 0.0, 2.0});
  auto cmp = [&](const std::string& dir, const std::string& type, const Tensor& x,
                 const Tensor& y, int64_t n) {
    std::string t = "tensor<" + std::to_string(n) + "x" + type + ">";
    std::string r = "tensor<" + std::to_string(n) + "xi1>";
    return runOne("func.func @main(%a: " + t + ", %b: " + t + ") -> " + r +
                      " {\n  %r = stablehlo.compare " + dir + ", %a, %b : (" + t + ", " + t +
                      ") -> " + r + "\n  return %r : " + r + "\n}\n",
                  {x, y});
  };
  Tensor eq = cmp("EQ", "f32", a, b, 3);
  EXPECT_EQ(eq.intAt(0), 0); // NaN is unordered
  EXPECT_EQ(eq.intAt(1), 1); // -0 == +0
  EXPECT_EQ(eq.intAt(2), 0);
  Tensor ne = cmp("NE", "f32", a, b, 3);
  EXPECT_EQ(ne.intAt(0), 1);
  EXPECT_EQ(ne.intAt(1), 0);
  Tensor lt = cmp("LT", "f32", a, b, 3);
  EXPECT_EQ(lt.intAt(0), 0);
  EXPECT_EQ(lt.intAt(2), 1);
  Tensor u = Tensor::fromInts(ir::ElementType::UI8, {1}, std::vector<int64_t>{200});
  Tensor v = Tensor::fromInts(ir::ElementType::UI8, {1}, std::vector<int64_t>{100});
  EXPECT_EQ(cmp("GT", "ui8", u, v, 1).intAt(0), 1); // 200 > 100 unsigned
  Tensor s = Tensor::fromInts(ir::ElementType::I8, {1}, std::vector<int64_t>{-56});
  Tensor t = Tensor::fromInts(ir::ElementType::I8, {1}, std::vector<int64_t>{100});
  EXPECT_EQ(cmp("GT", "i8", s, t, 1).intAt(0), 0); // -56 < 100 signed
}

TEST(TypedKernelsTest, SelectAndConvert) {
  Tensor pred = Tensor::fromInts(ir::ElementType::I1, {3}, std::vector<int64_t>{1, 0, 1});
  Tensor a = f32({3}, {1, 2, 3});
  Tensor b = f32({3}, {-1, -2, -3});
  Tensor r = runOne(
      "func.func @main(%p: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> "
      "{\n  %r = stablehlo.select %p, %a, %b : tensor<3xi1>, tensor<3xf32>\n  return %r : "
      "tensor<3xf32>\n}\n",
      {pred, a, b});
  EXPECT_EQ(values(r), (std::vector<double>{1, -2, 3}));
  // 2^53 + 1 as i64 -> f32: correctly rounded once, to 2^53.
  Tensor big = Tensor::fromInts(ir::ElementType::I64, {2}, std::vector<int64_t>{(int64_t{1} << 53) + 1, -7});
  Tensor c = runOne("func.func @main(%x: tensor<2xi64>) -> tensor<2xf32> {\n  %r = "
                    "stablehlo.convert %x : (tensor<2xi64>) -> tensor<2xf32>\n  return %r : "
                    "tensor<2xf32>\n}\n",
                    {big});
  EXPECT_EQ(c.floatAt(0), std::ldexp(1.0, 53));
  EXPECT_EQ(c.floatAt(1), -7.0);
  // i32 -> i8 wraps: 300 -> 44, -129 -> 127.
  Tensor w = Tensor::fromInts(ir::ElementType::I32, {2}, std::vector<int64_t>{300, -129});
  Tensor n = runOne("func.func @main(%x: tensor<2xi32>) -> tensor<2xi8> {\n  %r = "
                    "stablehlo.convert %x : (tensor<2xi32>) -> tensor<2xi8>\n  return %r : "
                    "tensor<2xi8>\n}\n",
                    {w});
  EXPECT_EQ(n.intAt(0), 44);
  EXPECT_EQ(n.intAt(1), 127);
}

TEST(TypedKernelsTest, CopiesShareTheirBufferUntilWritten) {
  Tensor a = f32({4}, {1, 2, 3, 4});
  Tensor b = a;
  EXPECT_TRUE(a.sharesStorageWith(b));
  b.setFloat(0, 9);
  EXPECT_FALSE(a.sharesStorageWith(b));
  EXPECT_EQ(a.floatAt(0), 1.0);
  EXPECT_EQ(b.floatAt(0), 9.0);
}

} // namespace
} // namespace shardscope::exec
