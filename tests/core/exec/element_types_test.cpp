// Element types beyond the common ones: sub-byte integers and the 8-, 6- and 4-bit floats.
// Expected encodings are derived by hand from each format's definition (sign, exponent width,
// mantissa width, bias, special values as LLVM's APFloat defines them).
#include "core/exec/tensor.h"
#include "core/ir/minifloat.h"
#include "tests/core/exec/exec_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

namespace shardscope::exec {
namespace {

using ir::ElementType;
using testing::runOne;

struct Encoding {
  ElementType type;
  double value;
  uint8_t bits;
};

TEST(MiniFloatTest, EncodesOneAndLargestFiniteOfEveryFormat) {
  const Encoding cases[] = {
      {ElementType::F8E4M3FN, 1.0, 0x38},      // 0 0111 000, bias 7
      {ElementType::F8E4M3FN, 448.0, 0x7E},    // S.1111.111 is NaN, so 1.75 * 2^8 is largest
      {ElementType::F8E5M2, 1.0, 0x3C},        // 0 01111 00, bias 15
      {ElementType::F8E5M2, 57344.0, 0x7B},    // 1.75 * 2^15
      {ElementType::F8E4M3FNUZ, 1.0, 0x40},    // bias 8
      {ElementType::F8E5M2FNUZ, 1.0, 0x40},    // bias 16
      {ElementType::F8E4M3B11FNUZ, 1.0, 0x58}, // bias 11
      {ElementType::F8E3M4, 1.0, 0x30},        // 0 011 0000, bias 3
      {ElementType::F8E3M4, 15.5, 0x6F},       // (1 + 15/16) * 2^3; exponent 111 is inf/NaN
      {ElementType::F8E4M3, 1.0, 0x38},
      {ElementType::F8E4M3, 240.0, 0x77},      // 1.875 * 2^7
      {ElementType::F8E8M0FNU, 1.0, 0x7F},     // 2^(127 - 127)
      {ElementType::F8E8M0FNU, 2.0, 0x80},
      {ElementType::F6E2M3FN, 1.0, 0x08},      // 0 01 000, bias 1
      {ElementType::F6E2M3FN, 7.5, 0x1F},      // every encoding is finite
      {ElementType::F6E2M3FN, -3.0, 0x34},     // 1 10 100
      {ElementType::F6E3M2FN, 1.0, 0x0C},      // 0 011 00, bias 3
      {ElementType::F6E3M2FN, 28.0, 0x1F},
      {ElementType::F4E2M1FN, 1.0, 0x2},       // 0 01 0
      {ElementType::F4E2M1FN, 6.0, 0x7},
      {ElementType::F4E2M1FN, -0.5, 0x9},      // 1 00 1: subnormal
  };
  for (const Encoding& c : cases) {
    SCOPED_TRACE(std::string(ir::elementTypeName(c.type)) + " " + std::to_string(c.value));
    EXPECT_EQ(ir::miniFloatFromDouble(c.value, c.type), c.bits);
    EXPECT_EQ(ir::miniFloatToDouble(c.bits, c.type), c.value);
  }
}

TEST(MiniFloatTest, RoundsToNearestEvenAndHandlesOverflowPerFormat) {
  // f4E2M1FN holds 2 and 3 (mantissa 0 and 1): 2.5 is a tie and goes to the even mantissa.
  EXPECT_EQ(ir::miniFloatFromDouble(2.5, ElementType::F4E2M1FN), 0x4);
  EXPECT_EQ(ir::miniFloatFromDouble(2.75, ElementType::F4E2M1FN), 0x5);
  // Finite-only formats saturate.
  EXPECT_EQ(ir::miniFloatFromDouble(100.0, ElementType::F4E2M1FN), 0x7);
  // f8E4M3FN: 464 lies halfway between 448 (mantissa 110) and the NaN encoding's 480: even wins;
  // anything above becomes NaN.
  EXPECT_EQ(ir::miniFloatFromDouble(464.0, ElementType::F8E4M3FN), 0x7E);
  EXPECT_EQ(ir::miniFloatFromDouble(465.0, ElementType::F8E4M3FN), 0x7F);
  EXPECT_TRUE(std::isnan(ir::miniFloatToDouble(0x7F, ElementType::F8E4M3FN)));
  // IEEE-like formats overflow to infinity.
  EXPECT_EQ(ir::miniFloatFromDouble(1e6, ElementType::F8E5M2), 0x7C);
  EXPECT_EQ(ir::miniFloatFromDouble(-1e6, ElementType::F8E5M2), 0xFC);
  // FNUZ formats: the negative-zero encoding is NaN, and -0.0 encodes as +0.
  EXPECT_TRUE(std::isnan(ir::miniFloatToDouble(0x80, ElementType::F8E4M3FNUZ)));
  EXPECT_EQ(ir::miniFloatFromDouble(-0.0, ElementType::F8E4M3FNUZ), 0x00);
  EXPECT_EQ(ir::miniFloatFromDouble(NAN, ElementType::F8E4M3FNUZ), 0x80);
  // Subnormals: the smallest f8E4M3FN is 2^-9.
  EXPECT_EQ(ir::miniFloatFromDouble(std::ldexp(1.0, -9), ElementType::F8E4M3FN), 0x01);
  EXPECT_TRUE(std::isnan(ir::miniFloatToDouble(0xFF, ElementType::F8E8M0FNU)));
}

TEST(ElementTypesTest, SubByteIntegersWrapAsTwosComplement) {
  // From StableHLO's add tests: i2 holds -2..1, ui2 0..3, i4 -8..7.
  Tensor i2 = runOne(R"(
func.func @main() -> tensor<4xi2> {
  %0 = stablehlo.constant dense<[1, 0, -1, -2]> : tensor<4xi2>
  %1 = stablehlo.constant dense<[-1, 1, 1, 1]> : tensor<4xi2>
  %2 = stablehlo.add %0, %1 : tensor<4xi2>
  return %2 : tensor<4xi2>
})");
  ASSERT_EQ(i2.numElements(), 4);
  EXPECT_EQ(i2.intAt(0), 0);
  EXPECT_EQ(i2.intAt(1), 1);
  EXPECT_EQ(i2.intAt(2), 0);
  EXPECT_EQ(i2.intAt(3), -1);
  Tensor ui4 = runOne(R"(
func.func @main() -> tensor<2xui4> {
  %0 = stablehlo.constant dense<[15, 7]> : tensor<2xui4>
  %1 = stablehlo.constant dense<[1, 1]> : tensor<2xui4>
  %2 = stablehlo.add %0, %1 : tensor<2xui4>
  return %2 : tensor<2xui4>
})");
  EXPECT_EQ(ui4.intAt(0), 0);
  EXPECT_EQ(ui4.intAt(1), 8);
  Tensor i4 = runOne(R"(
func.func @main() -> tensor<i4> {
  %0 = stablehlo.constant dense<7> : tensor<i4>
  %1 = stablehlo.constant dense<1> : tensor<i4>
  %2 = stablehlo.add %0, %1 : tensor<i4>
  return %2 : tensor<i4>
})");
  EXPECT_EQ(i4.intAt(0), -8);
}

TEST(ElementTypesTest, MiniFloatArithmeticRoundsToTheResultType) {
  // f4E2M1FN: 1.5 + 1.5 = 3 (exact); 3 + 2 = 5 is a tie between 4 and 6: 4 has the even
  // mantissa.
  Tensor t = runOne(R"(
func.func @main() -> tensor<2xf4E2M1FN> {
  %0 = stablehlo.constant dense<[1.5, 3.0]> : tensor<2xf4E2M1FN>
  %1 = stablehlo.constant dense<[1.5, 2.0]> : tensor<2xf4E2M1FN>
  %2 = stablehlo.add %0, %1 : tensor<2xf4E2M1FN>
  return %2 : tensor<2xf4E2M1FN>
})");
  ASSERT_EQ(t.numElements(), 2);
  EXPECT_EQ(t.floatAt(0), 3.0);
  EXPECT_EQ(t.floatAt(1), 4.0);
}

TEST(ElementTypesTest, TuplesAndTokensAreValues) {
  // The spec's get_tuple_element example: element 1 of (val0, (3)) is the inner tuple.
  std::vector<Tensor> results = testing::runMain(R"(
func.func @main() -> (tensor<i64>, !stablehlo.token) {
  %val0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %tmp0 = stablehlo.constant dense<3> : tensor<i64>
  %val1 = stablehlo.tuple %tmp0 : tuple<tensor<i64>>
  %t = stablehlo.tuple %val0, %val1 : tuple<tensor<2xf64>, tuple<tensor<i64>>>
  %inner = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf64>, tuple<tensor<i64>>>) -> tuple<tensor<i64>>
  %r = stablehlo.get_tuple_element %inner[0] : (tuple<tensor<i64>>) -> tensor<i64>
  %a = stablehlo.after_all : !stablehlo.token
  %b = stablehlo.after_all %a, %a : !stablehlo.token
  return %r, %b : tensor<i64>, !stablehlo.token
})");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].intAt(0), 3);
  EXPECT_TRUE(results[1].isToken());
  EXPECT_EQ(results[1].type(), ir::Type::token());
  // Tuples compare by their elements, not by identity.
  Tensor three = Tensor::fromInts(ElementType::I64, {}, std::vector<int64_t>{3});
  Tensor four = Tensor::fromInts(ElementType::I64, {}, std::vector<int64_t>{4});
  EXPECT_EQ(Tensor::tuple({three}), Tensor::tuple({three}));
  EXPECT_NE(Tensor::tuple({three}), Tensor::tuple({four}));
  EXPECT_EQ(Tensor::token(), Tensor::token());
}

TEST(ElementTypesTest, UniformQuantizationFollowsTheSpecFormulas) {
  // quantize(x) = round(x / scale + zero_point): 4.0 / 0.1 - 30 = 10 and 15.0 / 0.5 - 20 = 10
  // (per-axis parameters along dimension 0); dequantize gives the values back. A quantized add
  // runs on dequantized values: [1, 2] + [3, 4] = [4, 6], quantized with scale 0.5 and zero
  // point -20 to [-12, -8].
  std::vector<Tensor> results = testing::runMain(R"(
func.func @main() -> (tensor<2xi8>, tensor<2xf32>, tensor<2xi8>) {
  %x = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %bits = "stablehlo.bitcast_convert"(%q) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xi8>
  %back = "stablehlo.uniform_dequantize"(%q) : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xf32>
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %qa = "stablehlo.uniform_quantize"(%a) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
  %qb = "stablehlo.uniform_quantize"(%b) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %sum = "stablehlo.add"(%qa, %qb) : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
  %sumBits = "stablehlo.bitcast_convert"(%sum) : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
  return %bits, %back, %sumBits : tensor<2xi8>, tensor<2xf32>, tensor<2xi8>
})");
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].intAt(0), 10);
  EXPECT_EQ(results[0].intAt(1), 10);
  EXPECT_NEAR(results[1].floatAt(0), 4.0, 1e-6);
  EXPECT_NEAR(results[1].floatAt(1), 15.0, 1e-6);
  EXPECT_EQ(results[2].intAt(0), -12);
  EXPECT_EQ(results[2].intAt(1), -8);
}

} // namespace
} // namespace shardscope::exec
