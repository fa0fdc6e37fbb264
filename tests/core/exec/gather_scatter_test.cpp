// gather, dynamic_gather and scatter: the StableHLO spec examples (with batching dims), plus
// out-of-range indices, empty index sets, integer wrap-around and multi-operand scatter, with
// expectations worked out by hand.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

#include <numeric>

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;
using Doubles = std::vector<double>;

namespace {

Tensor i64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return Tensor::fromInts(ElementType::I64, std::move(shape), values);
}

// 1, 2, ..., 48 shaped 2x3x4x2: the operand of the spec's gather and scatter examples.
Tensor specOperand(ElementType e) {
  std::vector<int64_t> v(48);
  std::iota(v.begin(), v.end(), 1);
  return Tensor::fromInts(e, {2, 3, 4, 2}, v);
}

Tensor specIndices() {
  return i64({2, 2, 3, 2}, {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,   //
                            0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0}); //
}

TEST(GatherTest, SpecExampleWithBatchingDims) {
  const char* program = R"(
func.func @main(%operand: tensor<2x3x4x2xi32>, %indices: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %r = "stablehlo.gather"(%operand, %indices) {
    dimension_numbers = #stablehlo.gather<
      offset_dims = [3, 4],
      collapsed_slice_dims = [1],
      operand_batching_dims = [0],
      start_indices_batching_dims = [1],
      start_index_map = [2, 1],
      index_vector_dim = 3>,
    slice_sizes = array<i64: 1, 1, 2, 2>,
    indices_are_sorted = false
  } : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  return %r : tensor<2x2x3x2x2xi32>
}
)";
  Tensor r = runOne(program, {specOperand(ElementType::I32), specIndices()});
  // Start index [0, 9] is clamped to [0, 2] along operand dim 1.
  EXPECT_EQ(values(r), (Doubles{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16, //
                                33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44, //
                                1,  2,  3,  4,  13, 14, 15, 16, 21, 22, 23, 24, //
                                43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30}));
}

// The embedding-lookup form: rows of a matrix picked by an index vector (implicit index vector
// dim), with negative and too-large indices clamped into range.
TEST(GatherTest, RowLookupClampsIndices) {
  const char* program = R"(
func.func @main(%table: tensor<3x2xf32>, %ids: tensor<4xi32>) -> tensor<4x2xf32> {
  %r = "stablehlo.gather"(%table, %ids) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
                                          start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } : (tensor<3x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
)";
  Tensor r = runOne(program, {f32({3, 2}, {10, 11, 20, 21, 30, 31}), i32({4}, {2, 0, -5, 7})});
  EXPECT_EQ(values(r), (Doubles{30, 31, 10, 11, 10, 11, 30, 31}));
}

// Offset (window) dims before the batch dim: columns picked by index land as result columns.
TEST(GatherTest, LeadingOffsetDimGathersColumns) {
  const char* program = R"(
func.func @main(%x: tensor<3x4xf32>, %ids: tensor<2x1xi32>) -> tensor<3x2xf32> {
  %r = "stablehlo.gather"(%x, %ids) {
    dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1],
                                          start_index_map = [1], index_vector_dim = 1>,
    slice_sizes = array<i64: 3, 1>
  } : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
)";
  Tensor x = f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_EQ(values(runOne(program, {x, i32({2, 1}, {3, 0})})), (Doubles{3, 0, 7, 4, 11, 8}));
}

TEST(GatherTest, EmptyIndicesGiveEmptyResult) {
  const char* program = R"(
func.func @main(%table: tensor<3x2xf32>, %ids: tensor<0x1xi32>) -> tensor<0x2xf32> {
  %r = "stablehlo.gather"(%table, %ids) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
                                          start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>
  } : (tensor<3x2xf32>, tensor<0x1xi32>) -> tensor<0x2xf32>
  return %r : tensor<0x2xf32>
}
)";
  Tensor r = runOne(program, {f32({3, 2}, {1, 2, 3, 4, 5, 6}), i32({0, 1}, {})});
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{0, 2}));
}

TEST(GatherTest, DynamicGatherReadsSliceSizesFromOperand) {
  const char* program = R"(
func.func @main(%x: tensor<3x3xi32>, %ids: tensor<2x2xi32>, %sizes: tensor<2xi32>) -> tensor<2x2x2xi32> {
  %r = "stablehlo.dynamic_gather"(%x, %ids, %sizes) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1],
                                          index_vector_dim = 1>
  } : (tensor<3x3xi32>, tensor<2x2xi32>, tensor<2xi32>) -> tensor<2x2x2xi32>
  return %r : tensor<2x2x2xi32>
}
)";
  Tensor x = i32({3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  // Windows of 2x2 at (0, 1) and at (2, 2), the latter clamped to (1, 1).
  Tensor r = runOne(program, {x, i32({2, 2}, {0, 1, 2, 2}), i32({2}, {2, 2})});
  EXPECT_EQ(values(r), (Doubles{1, 2, 4, 5, 4, 5, 7, 8}));
}

TEST(ScatterTest, SpecExampleWithBatchingDimsSkipsOutOfBoundsWindows) {
  const char* program = R"(
func.func @main(%input: tensor<2x3x4x2xi64>, %indices: tensor<2x2x3x2xi64>, %updates: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %r = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  return %r : tensor<2x3x4x2xi64>
}
)";
  Tensor updates = i64({2, 2, 3, 2, 2}, std::vector<int64_t>(48, 1));
  Tensor r = runOne(program, {specOperand(ElementType::I64), specIndices(), updates});
  // Each 2x2 window of ones lands at [batch, d1, d2..d2+1, :]; start [0, 9] is out of bounds, so
  // that window is dropped.
  EXPECT_EQ(values(r), (Doubles{3,  4,  6,  7,  6,  7,  7,  8,  9,  10, 11, 12, //
                                15, 16, 17, 18, 17, 18, 19, 20, 22, 23, 24, 25, //
                                25, 26, 28, 29, 30, 31, 31, 32, 35, 36, 38, 39, //
                                38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48}));
}

std::string rowScatter(const std::string& type, const std::string& body) {
  return "func.func @main(%x: tensor<4x" + type + ">, %ids: tensor<3x1xi32>, %u: tensor<3x" + type +
         ">) -> tensor<4x" + type + "> {\n" +
         "  %r = \"stablehlo.scatter\"(%x, %ids, %u) ({\n  ^bb0(%a: tensor<" + type +
         ">, %b: tensor<" + type + ">):\n" + body +
         "  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], "
         "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x" +
         type + ">, tensor<3x1xi32>, tensor<3x" + type + ">) -> tensor<4x" + type +
         ">\n  return %r : tensor<4x" + type + ">\n}\n";
}

// The update window dim comes first: updates[w][s] adds into input[w][index s].
TEST(ScatterTest, LeadingUpdateWindowDimScattersColumns) {
  const char* program = R"(
func.func @main(%x: tensor<3x4xf32>, %ids: tensor<2x1xi32>, %u: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %r = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0],
        inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}
     : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<3x2xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
)";
  Tensor r = runOne(program, {Tensor(ElementType::F32, {3, 4}), i32({2, 1}, {1, 0}),
                              f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(values(r), (Doubles{2, 1, 0, 0, 4, 3, 0, 0, 6, 5, 0, 0}));
}

TEST(ScatterTest, AddWrapsAroundOnIntegerOverflow) {
  std::string program = rowScatter("i8", "    %s = stablehlo.add %a, %b : tensor<i8>\n"
                                         "    stablehlo.return %s : tensor<i8>\n");
  Tensor x = Tensor::fromInts(ElementType::I8, {4}, std::vector<int64_t>{127, 0, -128, 5});
  Tensor u = Tensor::fromInts(ElementType::I8, {3}, std::vector<int64_t>{1, -1, 100});
  // Index 0 twice: 127 + 1 + 100 wraps to -28; index 2: -128 - 1 wraps to 127.
  Tensor r = runOne(program, {x, i32({3, 1}, {0, 2, 0}), u});
  EXPECT_EQ(values(r), (Doubles{-28, 0, 127, 5}));
}

TEST(ScatterTest, ReplaceBodyOverwritesAndIgnoresNegativeIndices) {
  std::string program = rowScatter("ui16", "    stablehlo.return %b : tensor<ui16>\n");
  Tensor x = Tensor::fromInts(ElementType::UI16, {4}, std::vector<int64_t>{1, 2, 3, 4});
  Tensor u = Tensor::fromInts(ElementType::UI16, {3}, std::vector<int64_t>{65535, 7, 9});
  Tensor r = runOne(program, {x, i32({3, 1}, {3, -1, 4}), u});
  EXPECT_EQ(values(r), (Doubles{1, 2, 3, 65535}));
}

// A two-operand scatter whose body keeps the (value, index) pair with the larger value: the
// region path, since no fast path covers it.
TEST(ScatterTest, MultiOperandBodyRunsRegion) {
  const char* program = R"(
func.func @main(%v: tensor<2xf32>, %i: tensor<2xi32>, %ids: tensor<3x1xi32>, %uv: tensor<3xf32>, %ui: tensor<3xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %r:2 = "stablehlo.scatter"(%v, %i, %ids, %uv, %ui) ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %ge, %a, %b : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %ge, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
        scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
     : (tensor<2xf32>, tensor<2xi32>, tensor<3x1xi32>, tensor<3xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}
)";
  auto results = runMain(program, {f32({2}, {0, 5}), i32({2}, {-1, -1}), i32({3, 1}, {0, 1, 0}),
                                   f32({3}, {2, 4, 3}), i32({3}, {10, 11, 12})});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(values(results[0]), (Doubles{3, 5}));
  EXPECT_EQ(values(results[1]), (Doubles{12, -1}));
}

TEST(ScatterTest, MismatchedUpdatesAreReportedAtTheOp) {
  const char* program = R"(
func.func @main(%x: tensor<4xf32>, %ids: tensor<2x1xi32>, %u: tensor<3xf32>) -> tensor<4xf32> {
  %r = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0],
        scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
     : (tensor<4xf32>, tensor<2x1xi32>, tensor<3xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(program, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run(
      "main", {f32({4}, {0, 0, 0, 0}), i32({2, 1}, {0, 1}), f32({3}, {1, 2, 3})}, sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_NE(sink.diagnostics()[0].message.find("does not match the indices"), std::string::npos)
      << sink.diagnostics()[0].message;
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 3u);
}

} // namespace
