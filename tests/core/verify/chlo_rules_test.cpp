// The CHLO rules of the StableHLO verifier (core/verify/detail/verify_chlo.cpp), with the
// messages of StableHLO's ChloOps.cpp.
#include "core/verify/stablehlo_verifier.h"

#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

// The first verifier message on `text` (which must parse); empty when it verifies.
std::string firstError(const std::string& text) {
  support::CollectingSink sink;
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(module && !sink.hasErrors())
      << (sink.diagnostics().empty() ? "" : sink.diagnostics().front().message);
  if (!module)
    return "<no module>";
  bool ok = verify::verifyStablehlo(*module, sink);
  EXPECT_EQ(ok, sink.diagnostics().empty());
  return sink.diagnostics().empty() ? std::string() : sink.diagnostics().front().message;
}

// A ragged_dot of `lhs` x `rhs` with `groups` group sizes, dimension numbers `dims` and result
// type `result`.
std::string raggedDot(const std::string& lhs, const std::string& rhs, const std::string& groups,
                      const std::string& dims, const std::string& result) {
  return "func.func @f(%l: " + lhs + ", %r: " + rhs + ", %g: " + groups + ") -> " + result +
         " {\n  %0 = \"chlo.ragged_dot\"(%l, %r, %g) {ragged_dot_dimension_numbers = "
         "#chlo.ragged_dot<" +
         dims + ">} : (" + lhs + ", " + rhs + ", " + groups + ") -> " + result +
         "\n  return %0 : " + result + "\n}\n";
}

std::string scan(const std::string& header, const std::string& args, const std::string& body,
                 const std::string& types) {
  return "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {\n  %0:2 = chlo.scan" + header +
         " {\n  ^bb0(" + args + "):\n    " + body + "\n  } : " + types + "\n  return\n}\n";
}

constexpr const char* kMode1 =
    "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
    "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]";

} // namespace

TEST(ChloRulesTest, MulhiTakesIntegersOfTwoToSixtyFourBits) {
  EXPECT_EQ(firstError(R"(func.func @f(%a: tensor<4xui16>) -> tensor<4xui16> {
  %0 = "chlo.mulhi"(%a, %a) : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}
)"),
            "");
  EXPECT_EQ(firstError(R"(func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "chlo.mulhi"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
)"),
            "'chlo.mulhi' op operand #0 must be ranked tensor of 2/4/8/16/32/64-bit integer "
            "values, but got 'tensor<4xf32>'");
  EXPECT_EQ(firstError(R"(func.func @f(%a: tensor<4xi32>) -> tensor<2xi32> {
  %0 = chlo.mulhi %a, %a : tensor<4xi32>, tensor<4xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
)"),
            "'chlo.mulhi' op requires compatible types for all operands and results");
}

TEST(ChloRulesTest, RaggedDotAcceptsEachMode) {
  EXPECT_EQ(firstError(raggedDot("tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<3xi64>", kMode1,
                                 "tensor<11x7xf32>")),
            "");
  EXPECT_EQ(firstError(raggedDot("tensor<2x11x5xf32>", "tensor<2x5x7xf32>", "tensor<3xi64>",
                                 "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                                 "lhs_contracting_dimensions = [2], rhs_contracting_dimensions "
                                 "= [1], lhs_ragged_dimensions = [2], rhs_group_dimensions = []",
                                 "tensor<3x2x11x7xf32>")),
            "");
  EXPECT_EQ(firstError(raggedDot("tensor<3x11x5xf32>", "tensor<3x5x7xf32>", "tensor<3xi64>",
                                 "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
                                 "lhs_contracting_dimensions = [2], rhs_contracting_dimensions "
                                 "= [1], lhs_ragged_dimensions = [0]",
                                 "tensor<3x11x7xf32>")),
            "");
}

TEST(ChloRulesTest, RaggedDotGroupSizesFollowTheLhsDimsBeforeTheRaggedOne) {
  std::string dims = "lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], "
                     "lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2], "
                     "lhs_ragged_dimensions = [2], rhs_group_dimensions = [0]";
  EXPECT_EQ(firstError(raggedDot("tensor<19x17x11x5xf32>", "tensor<3x19x5x7xf32>",
                                 "tensor<19x17x3xi64>", dims, "tensor<19x17x11x7xf32>")),
            "");
  EXPECT_EQ(firstError(raggedDot("tensor<19x17x11x5xf32>", "tensor<3x19x5x7xf32>",
                                 "tensor<19x11x3xi64>", dims, "tensor<19x17x11x7xf32>")),
            "group_sizes is expected to have shape [19, 17, 3], got [19, 11, 3]");
  EXPECT_EQ(firstError(raggedDot("tensor<19x17x11x5xf32>", "tensor<3x19x5x7xf32>",
                                 "tensor<17x3xi64>", dims, "tensor<19x17x11x7xf32>")),
            "expected group_sizes to have rank 3, got 2");
}

TEST(ChloRulesTest, RaggedDotChecksItsDimensionNumbers) {
  EXPECT_EQ(firstError(raggedDot("tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<3xi64>",
                                 "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = "
                                 "[1], lhs_ragged_dimensions = [2], rhs_group_dimensions = [0]",
                                 "tensor<11x7xf32>")),
            "Expects lhs_ragged_dim to be in range [0, lhs_rank) i.e. [0, 2). got: 2.");
  EXPECT_EQ(firstError(raggedDot("tensor<11x5xf32>", "tensor<5x7xf32>", "tensor<3xi64>",
                                 "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = "
                                 "[0], lhs_ragged_dimensions = [0]",
                                 "tensor<11x7xf32>")),
            "There must be exactly one group dimension in the rhs when the lhs ragged dimension "
            "is non-contracting.");
  EXPECT_EQ(firstError(raggedDot("tensor<11x5xf32>", "tensor<3x5x7xf32>", "tensor<3xi64>", kMode1,
                                 "tensor<11x8xf32>")),
            "inferred shape '[11, 7]' is incompatible with return type of operation "
            "'tensor<11x8xf32>'");
}

TEST(ChloRulesTest, ScanChecksItsBodyAgainstItsOperands) {
  std::string body = "%1 = stablehlo.add %x, %c : tensor<3xf32>\n    "
                     "stablehlo.return %1, %1 : tensor<3xf32>, tensor<3xf32>";
  std::string types = "(tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)";
  EXPECT_EQ(firstError(scan("(%a) inits(%b) dimension=0", "%x: tensor<3xf32>, %c: tensor<3xf32>",
                            body, types)),
            "");
  EXPECT_EQ(firstError(scan("(%a) inits(%b) dimension=0 attributes {scan_dim_size = 3 : i64}",
                            "%x: tensor<3xf32>, %c: tensor<3xf32>", body, types)),
            "'chlo.scan' op invalid scan dimension size of operand 0");
  EXPECT_EQ(firstError(scan("(%a) inits(%b) dimension=1", "%x: tensor<3xf32>, %c: tensor<3xf32>",
                            body, types)),
            "'chlo.scan' op operand and body argument 0 are incompatible");
  EXPECT_EQ(firstError(scan("(%a) inits(%b) dimension=0", "%x: tensor<3xf32>",
                            "stablehlo.return %x, %x : tensor<3xf32>, tensor<3xf32>", types)),
            "'chlo.scan' op expects 2 arguments in the body, but got 1");
}

TEST(ChloRulesTest, ScanPrintsGenericallyAndReadsBack) {
  std::string text = scan("(%a) inits(%b) dimension=0 attributes {is_reverse = true}",
                          "%x: tensor<3xf32>, %c: tensor<3xf32>",
                          "%1 = stablehlo.add %x, %c : tensor<3xf32>\n    "
                          "stablehlo.return %1, %1 : tensor<3xf32>, tensor<3xf32>",
                          "(tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)");
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  std::string printed = io::mlir::printModule(*module);
  EXPECT_NE(printed.find("\"chlo.scan\"(%arg0, %arg1) <{dimension = 0 : i64, is_reverse = true, "
                         "operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = "
                         "array<i32: 1, 1>}>"),
            std::string::npos)
      << printed;
  auto again = io::mlir::parseModule(printed, 2, sink);
  ASSERT_TRUE(again) << (sink.diagnostics().empty() ? "" : sink.diagnostics().front().message);
  EXPECT_EQ(io::mlir::printModule(*again), printed);
  EXPECT_TRUE(verify::verifyStablehlo(*again, sink));
}
