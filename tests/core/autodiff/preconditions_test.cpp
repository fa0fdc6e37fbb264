// Ops whose attributes point outside their operands' shapes: the transpose and derivative rules
// refuse them with an error located at the op, instead of indexing past a shape (these inputs
// overflowed heap buffers under ASan before the rules checked their preconditions).
#include "tests/core/autodiff/autodiff_test_util.h"

namespace shardscope::autodiff::testing {
namespace {

// Transposes `@main` of `text` in its first argument and returns the one error, "LINE:COL: msg".
std::string transposeError(const std::string& text) {
  auto module = parse(text);
  if (!module)
    return "does not parse";
  size_t before = module->functions().size();
  support::CollectingSink sink;
  TransposeOptions options;
  options.function = "main";
  options.linearIn = {"0"};
  if (transpose(*module, options, sink).function)
    return "transposed";
  EXPECT_EQ(module->functions().size(), before) << "a failed transpose added a function";
  return messages(sink);
}

TEST(AutodiffPreconditionsTest, DotGeneralContractingDimensionOutOfRangeIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [5] x [0] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
})"),
            "3:3: invalid 'stablehlo.dot_general': lhs batching and contracting dimensions [5] "
            "has dimension 5 out of range for rank 2\n");
}

TEST(AutodiffPreconditionsTest, DotGeneralUnequalContractingCountsAreLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0, 1] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
})"),
            "3:3: invalid 'stablehlo.dot_general': expected as many lhs as rhs contracting "
            "dimensions, got 1 and 2\n");
}

TEST(AutodiffPreconditionsTest, TransposePermutationOutOfRangeIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = stablehlo.transpose %x, dims = [9, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
})"),
            "3:3: invalid 'stablehlo.transpose': permutation [9, 0] has dimension 9 out of range "
            "for rank 2\n");
}

TEST(AutodiffPreconditionsTest, TransposePermutationWithARepeatIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %t = stablehlo.transpose %x, dims = [0, 0] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
})"),
            "3:3: invalid 'stablehlo.transpose': permutation [0, 0] repeats dimension 0\n");
}

TEST(AutodiffPreconditionsTest, ShortPermutationIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %t = stablehlo.transpose %x, dims = [2] : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  return %t : tensor<8x2x4xf32>
})"),
            "3:3: invalid 'stablehlo.transpose': permutation has 1 entries, expected one per "
            "dimension (3)\n");
}

TEST(AutodiffPreconditionsTest, BroadcastDimensionOutOfRangeIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<3x4xf32> {
  %b = stablehlo.broadcast_in_dim %x, dims = [6] : (tensor<4xf32>) -> tensor<3x4xf32>
  return %b : tensor<3x4xf32>
})"),
            "3:3: invalid 'stablehlo.broadcast_in_dim': broadcast_dimensions [6] has dimension 6 "
            "out of range for rank 2\n");
}

TEST(AutodiffPreconditionsTest, SlicePastTheEndIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %s = "stablehlo.slice"(%x) {start_indices = array<i64: 6>, limit_indices = array<i64: 14>, strides = array<i64: 2>} : (tensor<8xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
})"),
            "3:3: invalid 'stablehlo.slice': slice [6, 14) of dimension 0 is out of bounds for "
            "size 8\n");
}

TEST(AutodiffPreconditionsTest, ConcatenateDimensionOutOfRangeIsLocated) {
  EXPECT_EQ(transposeError(R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<8xf32> {
  %c = stablehlo.concatenate %x, %y, dim = 3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
})"),
            "3:3: invalid 'stablehlo.concatenate': dimension 3 is out of range for rank 1\n");
}

TEST(AutodiffPreconditionsTest, ValidOpsStillTranspose) {
  // The checks accept what the rules handle: a batched dot with permuted contracting dims.
  EXPECT_EQ(transposeError(R"(
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5x3xf32>) -> tensor<2x5xf32> {
  %d = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1, 2] x [3, 1] : (tensor<2x3x4xf32>, tensor<2x4x5x3xf32>) -> tensor<2x5xf32>
  %t = stablehlo.transpose %d, dims = [1, 0] : (tensor<2x5xf32>) -> tensor<5x2xf32>
  %r = stablehlo.reshape %t : (tensor<5x2xf32>) -> tensor<10xf32>
  %s = "stablehlo.slice"(%r) {start_indices = array<i64: 1>, limit_indices = array<i64: 9>, strides = array<i64: 2>} : (tensor<10xf32>) -> tensor<4xf32>
  %b2 = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %r2 = stablehlo.reshape %b2 : (tensor<2x4xf32>) -> tensor<8xf32>
  %c = stablehlo.concatenate %r2, %r2, dim = 0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<16xf32>
  %r3 = stablehlo.reshape %c : (tensor<16xf32>) -> tensor<2x8xf32>
  %o = "stablehlo.slice"(%r3) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 5>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<2x5xf32>
  return %o : tensor<2x5xf32>
})"),
            "transposed");
}

} // namespace
} // namespace shardscope::autodiff::testing
