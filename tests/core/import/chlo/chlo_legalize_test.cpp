#include "core/import/chlo/chlo_legalize.h"

#include "core/exec/interpreter.h"
#include "core/io/mlir/mlir.h"
#include "core/verify/stablehlo_verifier.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace shardscope;

namespace {

struct Lowered {
  std::unique_ptr<ir::Module> module;
  std::vector<support::Diagnostic> diagnostics;
  bool ok = false;
};

// Parses and verifies `text`, then runs the pass.
Lowered lower(const std::string& text) {
  Lowered out;
  support::CollectingSink sink;
  out.module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(out.module && !sink.hasErrors())
      << (sink.diagnostics().empty() ? "" : sink.diagnostics().front().message);
  if (!out.module)
    return out;
  EXPECT_TRUE(verify::verifyStablehlo(*out.module, sink))
      << (sink.diagnostics().empty() ? "" : sink.diagnostics().front().message);
  out.ok = import_::legalizeChloToStablehlo(*out.module, sink);
  out.diagnostics = sink.diagnostics();
  return out;
}

int countChloOps(ir::Module& module) {
  int count = 0;
  module.op().walk([&](ir::Operation& op) { count += op.dialect() == "chlo" ? 1 : 0; });
  return count;
}

// Lowers `text`, checks that no CHLO op is left and that the result verifies, then runs `@main`.
std::vector<exec::Tensor> lowerAndRun(const std::string& text) {
  Lowered l = lower(text);
  EXPECT_TRUE(l.ok) << (l.diagnostics.empty() ? "" : l.diagnostics.front().message);
  if (!l.ok)
    return {};
  EXPECT_EQ(countChloOps(*l.module), 0);
  support::CollectingSink sink;
  EXPECT_TRUE(verify::verifyStablehlo(*l.module, sink))
      << (sink.diagnostics().empty() ? "" : sink.diagnostics().front().message) << "\n"
      << io::mlir::printModule(*l.module);
  exec::Interpreter interpreter(*l.module);
  auto results = interpreter.run("main", {}, sink);
  EXPECT_TRUE(results.has_value())
      << (sink.diagnostics().empty() ? "" : sink.diagnostics().front().message);
  return results ? *results : std::vector<exec::Tensor>{};
}

std::vector<int64_t> ints(const exec::Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.intAt(i));
  return out;
}

std::vector<double> doubles(const exec::Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.floatAt(i));
  return out;
}

std::string mulhiProgram(const std::string& type, const std::string& lhs, const std::string& rhs) {
  return "func.func @main() -> " + type + " {\n  %a = stablehlo.constant dense<" + lhs +
         "> : " + type + "\n  %b = stablehlo.constant dense<" + rhs + "> : " + type +
         "\n  %0 = \"chlo.mulhi\"(%a, %b) : (" + type + ", " + type + ") -> " + type +
         "\n  return %0 : " + type + "\n}\n";
}

} // namespace

// 64 * 4 = 256 = 0x0100: high byte 1; -64 * 4 = -256 = 0xFF00: high byte -1.
TEST(ChloLegalizeTest, MulhiOfSignedBytesKeepsTheHighByte) {
  auto r = lowerAndRun(mulhiProgram("tensor<3xi8>", "[64, -64, -64]", "[4, 4, -4]"));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(ints(r[0]), (std::vector<int64_t>{1, -1, 1}));
}

// 240 * 16 = 3840 = 0x0F00: 15; unsigned, so no sign is shifted in.
TEST(ChloLegalizeTest, MulhiOfUnsignedBytesShiftsLogically) {
  auto r = lowerAndRun(mulhiProgram("tensor<2xui8>", "[240, 255]", "[16, 255]"));
  ASSERT_EQ(r.size(), 1u);
  // 255 * 255 = 65025 = 0xFE01: 254.
  EXPECT_EQ(ints(r[0]), (std::vector<int64_t>{15, 254}));
}

// 2^62 * 4 = 2^64: high word 1; -3 * 5 = -15: high word -1 (all ones); 2^32 * 2^32 = 2^64.
TEST(ChloLegalizeTest, MulhiOfSignedWordsUsesThePartialProducts) {
  auto r = lowerAndRun(
      mulhiProgram("tensor<3xi64>", "[4611686018427387904, -3, 4294967296]", "[4, 5, 4294967296]"));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(ints(r[0]), (std::vector<int64_t>{1, -1, 1}));
}

// (2^64 - 1)^2 = 2^128 - 2^65 + 1: high word 2^64 - 2; 2^63 * 4 = 2^65: high word 2.
TEST(ChloLegalizeTest, MulhiOfUnsignedWordsCarriesBetweenHalves) {
  auto r = lowerAndRun(mulhiProgram("tensor<2xui64>", "[18446744073709551615, 9223372036854775808]",
                                    "[18446744073709551615, 4]"));
  ASSERT_EQ(r.size(), 1u);
  std::vector<int64_t> hi = ints(r[0]);
  ASSERT_EQ(hi.size(), 2u);
  EXPECT_EQ(static_cast<uint64_t>(hi[0]), 18446744073709551614ull);
  EXPECT_EQ(hi[1], 2);
}

// Rows 0 | 1, 2 are groups 0 | 1; group 0's rhs picks column 0, group 1's column 1.
TEST(ChloLegalizeTest, RaggedDotMode1MultipliesEachRowWithItsGroup) {
  auto r = lowerAndRun(R"(func.func @main() -> tensor<3x1xf32> {
  %lhs = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %rhs = stablehlo.constant dense<[[[1.0], [0.0]], [[0.0], [1.0]]]> : tensor<2x2x1xf32>
  %gs = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %gs) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>, precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]} : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(doubles(r[0]), (std::vector<double>{1, 4, 6}));
}

// Contracting positions 0, 1 | 2: [1*1 + 2*10] and [3*100], stacked on a new leading dim.
TEST(ChloLegalizeTest, RaggedDotMode2ContractsEachGroupSeparately) {
  auto r = lowerAndRun(R"(func.func @main() -> tensor<2x1x1xf32> {
  %lhs = stablehlo.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %rhs = stablehlo.constant dense<[[1.0], [10.0], [100.0]]> : tensor<3x1xf32>
  %gs = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %gs) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1]>} : (tensor<1x3xf32>, tensor<3x1xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}
)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(doubles(r[0]), (std::vector<double>{21, 300}));
}

// A ragged batch dim changes nothing: batch 0: 1*3 + 2*4 = 11, batch 1: 5*7 + 6*8 = 83.
TEST(ChloLegalizeTest, RaggedDotMode3IsTheBatchedDot) {
  auto r = lowerAndRun(R"(func.func @main() -> tensor<2x1x1xf32> {
  %lhs = stablehlo.constant dense<[[[1.0, 2.0]], [[5.0, 6.0]]]> : tensor<2x1x2xf32>
  %rhs = stablehlo.constant dense<[[[3.0], [4.0]], [[7.0], [8.0]]]> : tensor<2x2x1xf32>
  %gs = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %gs) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0]>} : (tensor<2x1x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}
)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(doubles(r[0]), (std::vector<double>{11, 83}));
}

// Suffix sums of [1, 2, 3] from the back: [6, 5, 3], final carry 6.
TEST(ChloLegalizeTest, ReverseScanWalksFromTheLastPosition) {
  auto r = lowerAndRun(R"(func.func @main() -> (tensor<3xi32>, tensor<i32>) {
  %in = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = chlo.scan(%in) inits(%init) dimension=0 attributes {is_reverse = true} {
  ^bb0(%x: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %x, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  } : (tensor<3xi32>, tensor<i32>) -> (tensor<3xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<3xi32>, tensor<i32>
}
)");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(ints(r[0]), (std::vector<int64_t>{6, 5, 3}));
  EXPECT_EQ(ints(r[1]), (std::vector<int64_t>{6}));
}

// A mulhi inside a scan body is lowered before the body is copied into the loop:
// running products' high bytes of [16, 32] * 16 (carry starts at 0, adds each mulhi).
TEST(ChloLegalizeTest, ScanBodyMayHoldChloOps) {
  auto r = lowerAndRun(R"(func.func @main() -> tensor<i8> {
  %in = stablehlo.constant dense<[16, 32]> : tensor<2xi8>
  %init = stablehlo.constant dense<0> : tensor<i8>
  %0 = chlo.scan(%in) inits(%init) dimension=0 {
  ^bb0(%x: tensor<i8>, %c: tensor<i8>):
    %h = "chlo.mulhi"(%x, %x) : (tensor<i8>, tensor<i8>) -> tensor<i8>
    %1 = stablehlo.add %h, %c : tensor<i8>
    stablehlo.return %1 : tensor<i8>
  } : (tensor<2xi8>, tensor<i8>) -> tensor<i8>
  return %0 : tensor<i8>
}
)");
  ASSERT_EQ(r.size(), 1u);
  // 16 * 16 = 256 -> 1; 32 * 32 = 1024 -> 4.
  EXPECT_EQ(ints(r[0]), (std::vector<int64_t>{5}));
}

TEST(ChloLegalizeTest, RefusesOtherChloOpsAndChangesNothing) {
  Lowered l = lower(
      R"(func.func @main(%a: tensor<4xi32>, %b: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = "chlo.mulhi"(%a, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = chlo.erf %b : tensor<4xf32> -> tensor<4xf32>
  return %0, %1 : tensor<4xi32>, tensor<4xf32>
}
)");
  EXPECT_FALSE(l.ok);
  ASSERT_EQ(l.diagnostics.size(), 1u);
  EXPECT_EQ(l.diagnostics[0].message,
            "failed to legalize operation 'chlo.erf': ShardScope lowers only 'chlo.mulhi', "
            "'chlo.ragged_dot' and 'chlo.scan'");
  EXPECT_EQ(l.diagnostics[0].loc.line, 3u);
  EXPECT_EQ(countChloOps(*l.module), 2);
}
