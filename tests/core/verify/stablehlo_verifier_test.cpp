#include "core/verify/stablehlo_verifier.h"

#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

struct Result {
  bool ok = false;
  std::vector<support::Diagnostic> diagnostics;
  std::string firstMessage() const {
    return diagnostics.empty() ? std::string() : diagnostics.front().message;
  }
};

// Parses `text` (which must parse) and runs the StableHLO verifier on it.
Result verifyText(const std::string& text) {
  support::CollectingSink parseSink;
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(text, 1, parseSink);
  EXPECT_TRUE(module && !parseSink.hasErrors())
      << (parseSink.diagnostics().empty() ? "" : parseSink.diagnostics().front().message);
  Result r;
  if (!module)
    return r;
  support::CollectingSink sink;
  r.ok = verify::verifyStablehlo(*module, sink);
  r.diagnostics = sink.diagnostics();
  return r;
}

} // namespace

TEST(StablehloVerifierTest, AcceptsAValidModule) {
  Result r = verifyText(R"(func.func @f(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)");
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.diagnostics.empty()) << r.firstMessage();
}

TEST(StablehloVerifierTest, ReportsOneErrorAtTheOffendingOp) {
  Result r = verifyText(R"(func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reverse %a, dims = [3] : tensor<4xf32>
  %1 = stablehlo.reverse %a, dims = [5] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.firstMessage(), "all dimensions should be between [0, 1). Got dimension: 3.");
  EXPECT_EQ(r.diagnostics.front().loc.line, 2u);
  EXPECT_EQ(r.diagnostics.front().loc.column, 3u);
}

TEST(StablehloVerifierTest, VerifiesAnOpBeforeTheOpsInItsRegions) {
  // The while's own rule (its body returns f32 for an i32 carry) comes before the bad reverse
  // inside its condition, as in MLIR's verifier.
  Result r = verifyText(R"(func.func @f(%a: tensor<i32>) -> tensor<i32> {
  %0 = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<i32>):
    %r = stablehlo.reverse %x, dims = [0] : tensor<i32>
    %c = stablehlo.compare LT, %r, %r : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<i32>):
    %f = stablehlo.convert %x : (tensor<i32>) -> tensor<f32>
    stablehlo.return %f : tensor<f32>
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
)");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.firstMessage(), "expect operands to be compatible with body block return types but "
                              "got 'tensor<i32>' vs 'tensor<f32>'");
}

TEST(StablehloVerifierTest, ChecksCallsAfterEveryOp) {
  // MLIR checks symbol uses when it leaves the module: the later bad op is reported first.
  Result r = verifyText(R"(func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reverse %a, dims = [1] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
)");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.diagnostics.front().loc.line, 6u);
}

TEST(StablehloVerifierTest, CallResultMismatchHasNotes) {
  Result r = verifyText(R"(func.func @f(%a: tensor<4xf32>) -> tensor<8xf32> {
  %0 = func.call @g(%a) : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
)");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.firstMessage(), "'func.call' op result type mismatch at index 0");
  ASSERT_EQ(r.diagnostics.front().notes.size(), 2u);
  EXPECT_EQ(r.diagnostics.front().notes[0].message, "      op result types: 'tensor<8xf32>'");
  EXPECT_EQ(r.diagnostics.front().notes[1].message, "function result types: 'tensor<4xf32>'");
}

TEST(StablehloVerifierTest, DynamicSizesAreCompatibleWithStaticOnes) {
  Result r = verifyText(R"(func.func @f(%a: tensor<?x4xf32>, %b: tensor<2x?xf32>) -> tensor<?x4xf32> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<?x4xf32>
  %1 = stablehlo.reshape %a : (tensor<?x4xf32>) -> tensor<2x2x4xf32>
  return %0 : tensor<?x4xf32>
}
)");
  EXPECT_TRUE(r.ok) << r.firstMessage();
}

// A reshape's result is static or has one bounded dimension (StablehloOps.td's
// HLO_StaticShapeTensorPerAxisQuantizedTensorOrBoundedTensor): a dynamic one is what
// dynamic_reshape is for.
TEST(StablehloVerifierTest, AReshapeResultIsStatic) {
  Result r = verifyText(R"(func.func @f(%a: tensor<?x4xf32>) -> tensor<?x2x2xf32> {
  %1 = stablehlo.reshape %a : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  return %1 : tensor<?x2x2xf32>
}
)");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.firstMessage(), "'stablehlo.reshape' op result #0 must be statically shaped or "
                              "single bounded dimension tensor, but got 'tensor<?x2x2xf32>'");
}

// The parser refuses such a type before the verifier runs (its own check stays for modules built
// in memory); the error points at the type.
TEST(StablehloVerifierTest, AnElementCountThatOverflowsIsRefusedAtTheType) {
  support::CollectingSink sink;
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(
      "func.func @f(%a: tensor<4294967296x4294967296x2xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.constant dense<0.0> : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n}\n",
      1, sink);
  EXPECT_FALSE(module && !sink.hasErrors());
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_EQ(sink.diagnostics().front().message,
            "tensor type has more elements than fit in 64 bits");
  EXPECT_EQ(sink.diagnostics().front().loc.line, 1u);
}

TEST(StablehloVerifierTest, LeavesOpsOfOtherDialectsAlone) {
  Result r = verifyText(R"(func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mydialect.reverse"(%a) {dimensions = array<i64: 7>} : (tensor<4xf32>) -> tensor<9xf32>
  return %a : tensor<4xf32>
}
)");
  EXPECT_TRUE(r.ok) << r.firstMessage();
}

TEST(StablehloVerifierTest, KnowsWhichOpsHaveRules) {
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.pad"));
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.dot_general"));
  EXPECT_TRUE(verify::hasStablehloRule("func.call"));
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.custom_call"));
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.rng"));
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.dynamic_gather"));
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.dynamic_conv"));
  EXPECT_TRUE(verify::hasStablehloRule("stablehlo.uniform_quantize"));
  EXPECT_FALSE(verify::hasStablehloRule("stablehlo.torch_index_select"));
  EXPECT_FALSE(verify::hasStablehloRule("sdy.sharding_constraint"));
}

TEST(StablehloVerifierTest, QuantizedRulesSkipTypesTheyCannotRead) {
  // A dynamically shaped quantized operand is beyond `ir::quantTypeOf`: the mismatched storage
  // types (add_c3) are not guessed at.
  Result r = verifyText(R"(func.func @f(%a: tensor<?x!quant.uniform<i8:f32, 0.1>>, %b: tensor<?x!quant.uniform<i16:f32, 0.1>>) -> tensor<?x!quant.uniform<i8:f32, 0.1>> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<?x!quant.uniform<i8:f32, 0.1>>, tensor<?x!quant.uniform<i16:f32, 0.1>>) -> tensor<?x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<?x!quant.uniform<i8:f32, 0.1>>
}
)");
  EXPECT_TRUE(r.ok) << r.firstMessage();
  // The same with static shapes is read and rejected.
  r = verifyText(R"(func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 0.1>>, %b: tensor<2x!quant.uniform<i16:f32, 0.1>>) -> tensor<2x!quant.uniform<i8:f32, 0.1>> {
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.1>>, tensor<2x!quant.uniform<i16:f32, 0.1>>) -> tensor<2x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 0.1>>
}
)");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.firstMessage(), "mismatched operands and result quantization storage types");
}

TEST(StablehloVerifierTest, QuantizedParametersCompareByValueNotSpelling) {
  // `0.1` and `1.000000e-01` are one scale, and a missing zero point is 0: broadcast_in_dim_c1
  // holds although the two types are written differently.
  Result r = verifyText(R"(func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 0.1>>) -> tensor<3x2x!quant.uniform<i8:f32, 1.000000e-01:0>> {
  %0 = "stablehlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<2x!quant.uniform<i8:f32, 0.1>>) -> tensor<3x2x!quant.uniform<i8:f32, 1.000000e-01:0>>
  return %0 : tensor<3x2x!quant.uniform<i8:f32, 1.000000e-01:0>>
}
)");
  EXPECT_TRUE(r.ok) << r.firstMessage();
}
