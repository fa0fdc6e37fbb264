#include "core/exec/tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace shardscope;
using namespace shardscope::exec;
using ir::ElementType;

namespace {

TEST(TensorTest, ZeroFilledWithRowMajorStrides) {
  Tensor t(ElementType::F32, {2, 3});
  EXPECT_EQ(t.numElements(), 6);
  EXPECT_EQ(t.bytes().size(), 24u);
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(t.floatAt(5), 0.0);
  EXPECT_EQ(t.type().str(), "tensor<2x3xf32>");
}

TEST(TensorTest, HalfTypesRoundOnStore) {
  Tensor h(ElementType::F16, {1});
  h.setFloat(0, 1.0 + 1.0 / 4096); // below half an f16 ulp at 1.0: rounds to 1
  EXPECT_EQ(h.floatAt(0), 1.0);
  Tensor b(ElementType::BF16, {1});
  b.setFloat(0, 3.0);
  EXPECT_EQ(b.floatAt(0), 3.0);
  EXPECT_EQ(b.bytes().size(), 2u);
}

TEST(TensorTest, IntegersTruncateAndExtendBySignedness) {
  Tensor u(ElementType::UI8, {1});
  u.setInt(0, 257);
  EXPECT_EQ(u.intAt(0), 1);
  Tensor s(ElementType::I8, {1});
  s.setInt(0, 255);
  EXPECT_EQ(s.intAt(0), -1);
  Tensor big(ElementType::UI64, {1});
  big.setInt(0, -1);
  EXPECT_EQ(big.floatAt(0), 18446744073709551615.0);
  Tensor b(ElementType::I1, {1});
  b.setFloat(0, 0.5);
  EXPECT_EQ(b.intAt(0), 1);
}

TEST(TensorTest, FloatToIntSaturatesAndMapsNanToZero) {
  Tensor t(ElementType::I8, {3});
  t.setFloat(0, 1000.0);
  t.setFloat(1, -1000.0);
  t.setFloat(2, NAN);
  EXPECT_EQ(t.intAt(0), 127);
  EXPECT_EQ(t.intAt(1), -128);
  EXPECT_EQ(t.intAt(2), 0);
}

TEST(TensorTest, FromDenseExpandsSplat) {
  ir::DenseElementsAttr dense;
  int64_t shape[] = {2, 2};
  dense.type = ir::Type::tensor(shape, ElementType::I32);
  dense.isSplat = true;
  int32_t seven = 7;
  dense.raw.resize(4);
  std::memcpy(dense.raw.data(), &seven, 4);
  std::optional<Tensor> t = Tensor::fromDense(dense);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->numElements(), 4);
  EXPECT_EQ(t->intAt(3), 7);
}

TEST(TensorTest, FromDenseRejectsUnsupportedElements) {
  ir::DenseElementsAttr dense;
  int64_t shape[] = {1};
  dense.type = ir::Type::tensor(shape, ElementType::Index);
  dense.raw.resize(8);
  EXPECT_FALSE(Tensor::fromDense(dense));
}

TEST(TensorTest, CompareExactAndWithUlps) {
  Tensor a = Tensor::fromDoubles(ElementType::F32, {2}, std::vector<double>{1.0, 2.0});
  Tensor b = a;
  float next = std::nextafter(2.0f, 3.0f);
  b.setFloat(1, next);
  EXPECT_FALSE(compareTensors(a, b).equal);
  EXPECT_NE(compareTensors(a, b).message.find("element 1"), std::string::npos);
  EXPECT_TRUE(compareTensors(a, b, {.maxUlps = 1}).equal);
  EXPECT_EQ(ulpDistance(2.0, next, ElementType::F32), 1);
  EXPECT_TRUE(compareTensors(a, b, {.relTolerance = 1e-6}).equal);
}

TEST(TensorTest, CompareTreatsNansAsEqualAndTypesMustMatch) {
  Tensor a = Tensor::fromDoubles(ElementType::F32, {1}, std::vector<double>{NAN});
  EXPECT_TRUE(compareTensors(a, a).equal);
  Tensor c = Tensor::fromDoubles(ElementType::F64, {1}, std::vector<double>{NAN});
  EXPECT_FALSE(compareTensors(a, c).equal);
}

// Per-element bounds of reordered sums: a finite bound widens the tolerance of its element; an
// infinite one (the sum can overflow in some order) accepts any value, a NaN against a finite
// value included. In f8E4M3FN overflow is NaN and 448 the largest finite value.
TEST(TensorTest, CompareWithBoundsAcceptsAnyValueWhereTheBoundIsInfinite) {
  Tensor expected = Tensor::fromDoubles(ElementType::F8E4M3FN, {2}, std::vector<double>{NAN, 8});
  Tensor actual = Tensor::fromDoubles(ElementType::F8E4M3FN, {2}, std::vector<double>{448, 10});
  Tensor finite = Tensor::fromDoubles(ElementType::F64, {2}, std::vector<double>{1, 1});
  EXPECT_FALSE(compareTensors(expected, actual, {.bounds = &finite}).equal);
  Tensor open = Tensor::fromDoubles(ElementType::F64, {2},
                                    std::vector<double>{INFINITY, 2});
  EXPECT_TRUE(compareTensors(expected, actual, {.bounds = &open}).equal);
  Tensor tight = Tensor::fromDoubles(ElementType::F64, {2}, std::vector<double>{INFINITY, 1});
  CompareResult result = compareTensors(expected, actual, {.bounds = &tight});
  EXPECT_FALSE(result.equal);
  EXPECT_NE(result.message.find("element 1"), std::string::npos) << result.message;
}

TEST(TensorTest, PrinterIsShortAndTyped) {
  Tensor t = Tensor::fromInts(ElementType::I32, {3}, std::vector<int64_t>{1, -2, 3});
  EXPECT_EQ(t.str(), "tensor<3xi32> [1, -2, 3]");
  EXPECT_EQ(t.str(2), "tensor<3xi32> [1, -2, ...]");
  Tensor b = Tensor::fromInts(ElementType::I1, {2}, std::vector<int64_t>{1, 0});
  EXPECT_EQ(b.str(), "tensor<2xi1> [true, false]");
}

} // namespace
