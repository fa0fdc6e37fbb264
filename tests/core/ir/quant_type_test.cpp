#include "core/ir/quant_type.h"

#include <gtest/gtest.h>

using namespace shardscope::ir;

namespace {

QuantType parse(std::string_view text) {
  std::optional<QuantType> q = parseQuantTensorText(text);
  EXPECT_TRUE(q.has_value()) << text;
  return q.value_or(QuantType{});
}

} // namespace

TEST(QuantTypeTest, SpellingsOfOneTypeShareTheirIdentityText) {
  // MLIR reads the default storage range, `%e` scales and a zero point 0 as the same type.
  QuantType a = parse("tensor<2x3x!quant.uniform<i8<-128:127>:f32, 0.1:0>>");
  QuantType b = parse("tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01>>");
  EXPECT_EQ(a.identityText(), b.identityText());
  EXPECT_EQ(a.identityText(), "tensor<2x3x!quant.uniform<i8:f32, 0.1>>");
  EXPECT_EQ(a.type(), b.type());
  // A narrower storage range is another type, printed with its range.
  QuantType narrow = parse("tensor<2x3x!quant.uniform<i8<-127:127>:f32, 0.1>>");
  EXPECT_NE(narrow.type(), a.type());
  EXPECT_EQ(narrow.printedText(), "tensor<2x3x!quant.uniform<i8<-127:127>:f32, 1.000000e-01>>");
}

TEST(QuantTypeTest, PrintsAsMlirButKeepsExactScales) {
  QuantType q = parse("tensor<4x!quant.uniform<ui8:f32:0, {0.0039215686:3, 2.0, 0.5:-1, 1e-3}>>");
  EXPECT_EQ(q.printedText(),
            "tensor<4x!quant.uniform<ui8:f32:0, "
            "{3.921569e-03:3,2.000000e+00,5.000000e-01:-1,1.000000e-03}>>");
  EXPECT_EQ(q.scales[0], 0.0039215686);
  // Types whose scales differ below the printed digits stay apart, and print alike.
  QuantType close = parse("tensor<4x!quant.uniform<ui8:f32:0, {0.00392156862:3, 2.0, 0.5:-1, 1e-3}>>");
  EXPECT_NE(close.type(), q.type());
  EXPECT_EQ(close.type().str(), q.type().str());
  std::optional<QuantType> back = quantTypeOf(q.type());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->scales, q.scales);
  EXPECT_EQ(back->zeroPoints, (std::vector<int64_t>{3, 0, -1, 0}));
  EXPECT_EQ(back->storageMin, 0);
  EXPECT_EQ(back->storageMax, 255);
}

TEST(QuantTypeTest, NamesTheInvariantABrokenTypeBreaks) {
  auto problem = [](std::string_view text) {
    return quantInvariantError(parse(text)).value_or("none");
  };
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8:f32, 0.5>>"), "none");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i64:f32, 0.5>>"), "illegal storage type size: 64");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8<-200:100>:f32, 0.5>>"),
            "illegal storage min and storage max: (-200:100)");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8<5:5>:f32, 0.5>>"),
            "illegal storage min and storage max: (5:5)");
  // Extreme ranges and widths are judged without overflowing (the sanitizers watch this).
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8<-9223372036854775808:9223372036854775807>:f32, "
                    "0.5>>"),
            "illegal storage min and storage max: (-9223372036854775808:9223372036854775807)");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<ui64:f32, 0.5>>"), "illegal storage type size: 64");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8:i32, 0.5>>"), "expressed type must be floating point");
  // f16's largest finite value is 65504 and its smallest subnormal 2^-24.
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i4:f16, 65504.0>>"), "none");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i4:f16, 70000.0>>"),
            "scale 7.000000e+04 out of expressed type range [5.960464e-08, 6.550400e+04]");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i4:f16, 4.9e-08>>").substr(0, 22), "scale 4.900000e-08 out");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8:f32, -1.0>>").substr(0, 23), "scale -1.000000e+00 out");
  EXPECT_EQ(problem("tensor<2x!quant.uniform<i8:f32:-1, {0.5,0.5}>>"), "illegal quantized dimension: -1");
}

TEST(QuantTypeTest, StablehloAdmitsSignlessOrUnsignedStorageWithZeroPointsInRange) {
  EXPECT_TRUE(isValidStablehloQuantType(parse("tensor<2x!quant.uniform<i8:f32, 0.5:-128>>")));
  EXPECT_TRUE(isValidStablehloQuantType(parse("tensor<2x!quant.uniform<ui4:f32, 0.5:15>>")));
  EXPECT_FALSE(isValidStablehloQuantType(parse("tensor<2x!quant.uniform<si8:f32, 0.5>>")));
  EXPECT_FALSE(isValidStablehloQuantType(parse("tensor<2x!quant.uniform<i8:f32, 0.5:128>>")));
  EXPECT_FALSE(isValidStablehloQuantType(parse("tensor<2x!quant.uniform<i8<-10:10>:f32, 0.5:11>>")));
  EXPECT_FALSE(isValidStablehloQuantType(parse("tensor<2x!quant.uniform<i64:f32, 0.5>>")));
  EXPECT_TRUE(isValidStablehloQuantType(parse("tensor<2x3x!quant.uniform<i8:f32:1, {1.0,2.0,3.0}>>")));
  EXPECT_FALSE(isValidStablehloQuantType(parse("tensor<2x3x!quant.uniform<i8:f32:1, {1.0,2.0}>>")));
  EXPECT_FALSE(isValidStablehloQuantType(parse("tensor<2x3x!quant.uniform<i8:f32:2, {1.0,2.0}>>")));
}

TEST(QuantTypeTest, ReadsUnrankedTypesButGivesThemNoShape) {
  QuantType q = parse("tensor<*x!quant.uniform<i8:f32, 0.5>>");
  EXPECT_TRUE(q.unranked);
  EXPECT_EQ(q.printedText(), "tensor<*x!quant.uniform<i8:f32, 5.000000e-01>>");
  EXPECT_FALSE(quantTypeOf(q.type()).has_value());
  EXPECT_FALSE(parseQuantTensorText("tensor<2xf32>").has_value());
  EXPECT_FALSE(parseQuantTensorText("tensor<2x!quant.uniform<i8:f32, 0.5>> trailing").has_value());
}
