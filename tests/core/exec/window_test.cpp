// reduce_window and select_and_scatter: the StableHLO spec examples, negative padding, strides,
// NaN propagation through max, multi-operand bodies and empty dims, with expectations worked out
// by hand.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

#include <cmath>
#include <limits>

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;
using Doubles = std::vector<double>;

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

Tensor i64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return Tensor::fromInts(ElementType::I64, std::move(shape), values);
}

TEST(ReduceWindowTest, SpecExampleWithDilationsAndPadding) {
  const char* program = R"(
func.func @main(%x: tensor<3x2xi64>, %init: tensor<i64>) -> tensor<2x2xi64> {
  %r = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    window_dimensions = array<i64: 2, 1>,
    window_strides = array<i64: 4, 1>,
    base_dilations = array<i64: 2, 1>,
    window_dilations = array<i64: 3, 1>,
    padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  return %r : tensor<2x2xi64>
}
)";
  Tensor r = runOne(program, {i64({3, 2}, {1, 2, 3, 4, 5, 6}), i64({}, {0})});
  EXPECT_EQ(values(r), (Doubles{0, 0, 3, 4}));
}

// 1-D reduce_window over `n` elements of `element` with window `w`, stride `s`, padding
// `lo`/`hi` and a body of `op` (or of `op` applied twice when `viaRegion`, which defeats the
// single-op fast path without changing the result for max).
std::string window1d(const std::string& element, int64_t n, int64_t out, int64_t w, int64_t s,
                     int64_t lo, int64_t hi, const std::string& op, bool viaRegion = false) {
  std::string t = "tensor<" + std::to_string(n) + "x" + element + ">";
  std::string o = "tensor<" + std::to_string(out) + "x" + element + ">";
  std::string sc = "tensor<" + element + ">";
  std::string body = "    %s = " + op + " %a, %b : " + sc + "\n";
  if (viaRegion)
    body += "    %s2 = " + op + " %s, %s : " + sc + "\n    stablehlo.return %s2 : " + sc + "\n";
  else
    body += "    stablehlo.return %s : " + sc + "\n";
  return "func.func @main(%x: " + t + ", %init: " + sc + ") -> " + o + " {\n" +
         "  %r = \"stablehlo.reduce_window\"(%x, %init) ({\n  ^bb0(%a: " + sc + ", %b: " + sc +
         "):\n" + body + "  }) {window_dimensions = array<i64: " + std::to_string(w) +
         ">, window_strides = array<i64: " + std::to_string(s) + ">, padding = dense<[[" +
         std::to_string(lo) + ", " + std::to_string(hi) + "]]> : tensor<1x2xi64>} : (" + t + ", " +
         sc + ") -> " + o + "\n  return %r : " + o + "\n}\n";
}

TEST(ReduceWindowTest, NegativePaddingCropsBeforeWindowing) {
  // Padding [-1, 0] drops the first element: windows [2, 3] and [4, 5].
  Tensor r = runOne(window1d("f32", 5, 2, 2, 2, -1, 0, "stablehlo.add"),
                    {f32({5}, {1, 2, 3, 4, 5}), f32({}, {0})});
  EXPECT_EQ(values(r), (Doubles{5, 9}));
}

TEST(ReduceWindowTest, PaddingReadsTheInitValue) {
  // Windows of 3 with stride 2 over [init, 1, 2, 3, init]: {i,1,2}, {2,3,i}; init = 10 is part of
  // every window and also padding.
  Tensor r = runOne(window1d("i32", 3, 2, 3, 2, 1, 1, "stablehlo.add"),
                    {i32({3}, {1, 2, 3}), i32({}, {10})});
  EXPECT_EQ(values(r), (Doubles{10 + 10 + 1 + 2, 10 + 2 + 3 + 10}));
}

TEST(ReduceWindowTest, MaxPropagatesNanOnFastAndRegionPaths) {
  Tensor x = f32({4}, {1, kNan, 3, 2});
  Tensor init = f32({}, {-std::numeric_limits<double>::infinity()});
  for (bool viaRegion : {false, true}) {
    Tensor r = runOne(window1d("f32", 4, 3, 2, 1, 0, 0, "stablehlo.maximum", viaRegion), {x, init});
    std::vector<double> v = values(r);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_TRUE(std::isnan(v[0])) << viaRegion;
    EXPECT_TRUE(std::isnan(v[1])) << viaRegion;
    EXPECT_EQ(v[2], 3) << viaRegion;
  }
}

TEST(ReduceWindowTest, MaxOfSignedZerosIsPositiveZero) {
  Tensor init = f32({}, {-std::numeric_limits<double>::infinity()});
  for (bool viaRegion : {false, true}) {
    Tensor r = runOne(window1d("f32", 2, 1, 2, 1, 0, 0, "stablehlo.maximum", viaRegion),
                      {f32({2}, {-0.0, 0.0}), init});
    ASSERT_EQ(r.numElements(), 1);
    EXPECT_EQ(r.floatAt(0), 0);
    EXPECT_FALSE(std::signbit(r.floatAt(0))) << viaRegion;
  }
}

// `add %a, %a` ignores the window element: it doubles the accumulator once per element, so it
// must not be taken for the single-op `add %a, %b` fast path.
TEST(ReduceWindowTest, BodyUsingOneArgumentTwiceRunsTheRegion) {
  const char* program = R"(
func.func @main(%x: tensor<3xi32>, %init: tensor<i32>) -> tensor<1xi32> {
  %r = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %a : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 3>} : (tensor<3xi32>, tensor<i32>) -> tensor<1xi32>
  return %r : tensor<1xi32>
}
)";
  EXPECT_EQ(values(runOne(program, {i32({3}, {1, 2, 3}), i32({}, {1})})), (Doubles{8}));
}

TEST(ReduceWindowTest, IntegerSumWrapsAround) {
  Tensor x = Tensor::fromInts(ElementType::I8, {3}, std::vector<int64_t>{100, 100, -100});
  Tensor init = Tensor::fromInts(ElementType::I8, {}, std::vector<int64_t>{0});
  Tensor r = runOne(window1d("i8", 3, 2, 2, 1, 0, 0, "stablehlo.add"), {x, init});
  EXPECT_EQ(values(r), (Doubles{-56, 0})); // 200 wraps to -56
}

TEST(ReduceWindowTest, TwoOperandArgmax) {
  const char* program = R"(
func.func @main(%v: tensor<4xf32>, %i: tensor<4xi32>, %v0: tensor<f32>, %i0: tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %r:2 = "stablehlo.reduce_window"(%v, %i, %v0, %i0) ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %ge, %a, %b : tensor<i1>, tensor<f32>
    %mi = stablehlo.select %ge, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %m, %mi : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}
     : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}
)";
  auto results =
      runMain(program, {f32({4}, {3, 7, 7, 1}), i32({4}, {0, 1, 2, 3}),
                        f32({}, {-std::numeric_limits<double>::infinity()}), i32({}, {-1})});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(values(results[0]), (Doubles{7, 7}));
  EXPECT_EQ(values(results[1]), (Doubles{1, 2}));
}

TEST(ReduceWindowTest, TwoDimensionalMaxPoolWithStrides) {
  const char* program = R"(
func.func @main(%x: tensor<4x4xbf16>, %init: tensor<bf16>) -> tensor<2x2xbf16> {
  %r = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.maximum %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
     : (tensor<4x4xbf16>, tensor<bf16>) -> tensor<2x2xbf16>
  return %r : tensor<2x2xbf16>
}
)";
  std::vector<double> data = {1, 5, 2, 0, -3, 4, 8, 1, 0, 0, -1, -2, 9, 0, -3, -4};
  Tensor x = Tensor::fromDoubles(ElementType::BF16, {4, 4}, data);
  Tensor init = Tensor::fromDoubles(ElementType::BF16, {}, std::vector<double>{-100});
  EXPECT_EQ(values(runOne(program, {x, init})), (Doubles{5, 8, 9, -1}));
}

TEST(ReduceWindowTest, EmptyInputGivesEmptyResult) {
  Tensor r = runOne(window1d("f32", 0, 0, 1, 1, 0, 0, "stablehlo.add"),
                    {Tensor(ElementType::F32, {0}), f32({}, {0})});
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{0}));
}

TEST(ReduceWindowTest, WrongResultShapeIsReported) {
  std::string program = window1d("f32", 5, 3, 2, 2, 0, 0, "stablehlo.add"); // should be 2
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(program, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {f32({5}, {1, 2, 3, 4, 5}), f32({}, {0})}, sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_NE(sink.diagnostics()[0].message.find("reduce_window"), std::string::npos);
}

std::string selectAndScatter(const std::string& selectDir) {
  return R"(
func.func @main(%x: tensor<4x2xi64>, %src: tensor<2x2xi64>, %init: tensor<i64>) -> tensor<4x2xi64> {
  %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %p = stablehlo.compare )" +
         selectDir + R"(, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {
    window_dimensions = array<i64: 3, 1>,
    window_strides = array<i64: 2, 1>,
    padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>
  } : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
  return %r : tensor<4x2xi64>
}
)";
}

TEST(SelectAndScatterTest, SpecExample) {
  Tensor x = i64({4, 2}, {1, 5, 2, 5, 3, 6, 4, 4});
  Tensor src = i64({2, 2}, {5, 6, 7, 8});
  Tensor r = runOne(selectAndScatter("GE"), {x, src, i64({}, {0})});
  EXPECT_EQ(values(r), (Doubles{0, 0, 0, 0, 5, 14, 7, 0}));
}

TEST(SelectAndScatterTest, TiesKeepTheFirstElementUnderGtAndTheLastUnderGe) {
  // Every window holds equal values, so only the tie rule decides.
  Tensor x = i64({4, 2}, {2, 1, 2, 1, 2, 1, 2, 1});
  Tensor src = i64({2, 2}, {5, 6, 7, 8});
  // GE: the selected element stays while select(selected, current) holds, so the first wins.
  EXPECT_EQ(values(runOne(selectAndScatter("GE"), {x, src, i64({}, {0})})),
            (Doubles{5, 6, 0, 0, 7, 8, 0, 0}));
  // GT: equal elements replace the selection, so the last one in each window wins.
  EXPECT_EQ(values(runOne(selectAndScatter("GT"), {x, src, i64({}, {0})})),
            (Doubles{0, 0, 0, 0, 5, 6, 7, 8}));
}

} // namespace
