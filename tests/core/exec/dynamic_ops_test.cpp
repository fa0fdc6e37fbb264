// dynamic_iota, dynamic_reshape, dynamic_broadcast_in_dim, dynamic_pad and real_dynamic_slice:
// the StableHLO spec example for dynamic_pad, hand-worked cases for the rest, and the error for a
// shape operand that disagrees with the static result type.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;
using Doubles = std::vector<double>;

namespace {

Tensor i64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return Tensor::fromInts(ElementType::I64, std::move(shape), values);
}

const char* kIota = R"(
func.func @main(%s: tensor<2xi32>) -> tensor<2x3xi32> {
  %r = "stablehlo.dynamic_iota"(%s) {iota_dimension = 1 : i64} : (tensor<2xi32>) -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}
)";

TEST(DynamicOpsTest, DynamicIota) {
  EXPECT_EQ(values(runOne(kIota, {i32({2}, {2, 3})})), (Doubles{0, 1, 2, 0, 1, 2}));
}

TEST(DynamicOpsTest, ShapeOperandMustMatchTheResultType) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(kIota, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {i32({2}, {2, 4})}, sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_NE(sink.diagnostics()[0].message.find("[2, 4] does not match"), std::string::npos)
      << sink.diagnostics()[0].message;
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 3u);
}

TEST(DynamicOpsTest, DynamicReshapeAndBroadcast) {
  const char* reshape = R"(
func.func @main(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<3x2xf32> {
  %r = "stablehlo.dynamic_reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
)";
  Tensor r = runOne(reshape, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2}, {3, 2})});
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values(r), (Doubles{1, 2, 3, 4, 5, 6}));
  const char* broadcast = R"(
func.func @main(%x: tensor<3xf32>, %s: tensor<2xi32>) -> tensor<2x3xf32> {
  %r = "stablehlo.dynamic_broadcast_in_dim"(%x, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)";
  EXPECT_EQ(values(runOne(broadcast, {f32({3}, {7, 8, 9}), i32({2}, {2, 3})})),
            (Doubles{7, 8, 9, 7, 8, 9}));
}

std::string padProgram(const std::string& x, const std::string& out) {
  return "func.func @main(%x: " + x +
         ", %v: tensor<i64>, %lo: tensor<2xi64>, %hi: " + "tensor<2xi64>, %in: tensor<2xi64>) -> " +
         out + " {\n" + "  %r = \"stablehlo.dynamic_pad\"(%x, %v, %lo, %hi, %in) : (" + x +
         ", tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> " + out +
         "\n  return %r : " + out + "\n}\n";
}

TEST(DynamicOpsTest, DynamicPadSpecExample) {
  Tensor r = runOne(padProgram("tensor<2x3xi64>", "tensor<5x9xi64>"),
                    {i64({2, 3}, {1, 2, 3, 4, 5, 6}), i64({}, {0}), i64({2}, {0, 1}),
                     i64({2}, {2, 1}), i64({2}, {1, 2})});
  EXPECT_EQ(values(r), (Doubles{0, 1, 0, 0, 2, 0, 0, 3, 0, //
                                0, 0, 0, 0, 0, 0, 0, 0, 0, //
                                0, 4, 0, 0, 5, 0, 0, 6, 0, //
                                0, 0, 0, 0, 0, 0, 0, 0, 0, //
                                0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(DynamicOpsTest, DynamicPadWithNegativeEdges) {
  // Rows: drop the first; columns: one 9 before, drop the last element.
  Tensor r = runOne(padProgram("tensor<2x3xi64>", "tensor<1x3xi64>"),
                    {i64({2, 3}, {1, 2, 3, 4, 5, 6}), i64({}, {9}), i64({2}, {-1, 1}),
                     i64({2}, {0, -1}), i64({2}, {0, 0})});
  EXPECT_EQ(values(r), (Doubles{9, 4, 5}));
}

TEST(DynamicOpsTest, RealDynamicSliceWithStrides) {
  const char* program = R"(
func.func @main(%x: tensor<4x4xi32>, %s: tensor<2xi32>, %l: tensor<2xi32>, %st: tensor<2xi32>) -> tensor<2x2xi32> {
  %r = "stablehlo.real_dynamic_slice"(%x, %s, %l, %st) : (tensor<4x4xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  return %r : tensor<2x2xi32>
}
)";
  std::vector<int64_t> data(16);
  for (int64_t i = 0; i < 16; ++i)
    data[static_cast<size_t>(i)] = i;
  // Rows 1 and 3, columns 0 and 3.
  Tensor r =
      runOne(program, {i32({4, 4}, data), i32({2}, {1, 0}), i32({2}, {4, 4}), i32({2}, {2, 3})});
  EXPECT_EQ(values(r), (Doubles{4, 7, 12, 15}));
}

} // namespace
