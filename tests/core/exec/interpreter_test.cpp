// Elementwise ops, constants, control flow, calls and error reporting of `Interpreter`, each on
// tiny tensors with hand-computed expectations.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

#include <cmath>

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;
using Doubles = std::vector<double>;

namespace {

// `@main(%a, %b) -> type` whose body computes `%r = <op> %a, %b : type` (or of %a alone).
std::string binaryProgram(const std::string& op, const std::string& type) {
  return "func.func @main(%a: " + type + ", %b: " + type + ") -> " + type + " {\n  %r = " + op +
         " %a, %b : " + type + "\n  return %r : " + type + "\n}\n";
}
std::string unaryProgram(const std::string& op, const std::string& type) {
  return "func.func @main(%a: " + type + ") -> " + type + " {\n  %r = " + op + " %a : " + type +
         "\n  return %r : " + type + "\n}\n";
}

TEST(InterpreterElementwiseTest, FloatBinaryOps) {
  Tensor a = f32({4}, {1, -2, 7, 2});
  Tensor b = f32({4}, {2, 4, 2, 3});
  const char* type = "tensor<4xf32>";
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.add", type), {a, b})), (Doubles{3, 2, 9, 5}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.subtract", type), {a, b})),
            (Doubles{-1, -6, 5, -1}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.multiply", type), {a, b})),
            (Doubles{2, -8, 14, 6}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.divide", type), {a, b})),
            (Doubles{0.5, -0.5, 3.5, static_cast<float>(2.0 / 3.0)}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.remainder", type), {a, b})),
            (Doubles{1, -2, 1, 2}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.maximum", type), {a, b})),
            (Doubles{2, 4, 7, 3}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.minimum", type), {a, b})),
            (Doubles{1, -2, 2, 2}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.power", type), {a, b})),
            (Doubles{1, 16, 49, 8}));
}

TEST(InterpreterElementwiseTest, IntegerDivisionFollowsStablehloEdgeCases) {
  Tensor a = i32({4}, {7, -7, 5, INT32_MIN});
  Tensor b = i32({4}, {2, 2, 0, -1});
  const char* type = "tensor<4xi32>";
  Tensor q = runOne(binaryProgram("stablehlo.divide", type), {a, b});
  EXPECT_EQ(values(q), (Doubles{3, -3, -1, INT32_MIN}));
  Tensor r = runOne(binaryProgram("stablehlo.remainder", type), {a, b});
  EXPECT_EQ(values(r), (Doubles{1, -1, 5, 0}));
  Tensor sum = runOne(binaryProgram("stablehlo.add", type),
                      {i32({4}, {INT32_MAX, 0, 0, 0}), i32({4}, {1, 0, 0, 0})});
  EXPECT_EQ(sum.intAt(0), INT32_MIN); // wraps around
}

TEST(InterpreterElementwiseTest, UnsignedMaxUsesUnsignedOrder) {
  Tensor a = Tensor::fromInts(ElementType::UI8, {2}, std::vector<int64_t>{200, 3});
  Tensor b = Tensor::fromInts(ElementType::UI8, {2}, std::vector<int64_t>{100, 4});
  Tensor r = runOne(binaryProgram("stablehlo.maximum", "tensor<2xui8>"), {a, b});
  EXPECT_EQ(values(r), (Doubles{200, 4}));
}

TEST(InterpreterElementwiseTest, BitwiseOpsOnBooleansAndIntegers) {
  Tensor p = Tensor::fromInts(ElementType::I1, {2}, std::vector<int64_t>{1, 0});
  Tensor q = Tensor::fromInts(ElementType::I1, {2}, std::vector<int64_t>{1, 1});
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.and", "tensor<2xi1>"), {p, q})),
            (Doubles{1, 0}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.or", "tensor<2xi1>"), {p, q})), (Doubles{1, 1}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.xor", "tensor<2xi1>"), {p, q})),
            (Doubles{0, 1}));
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.not", "tensor<2xi1>"), {p})), (Doubles{0, 1}));
  EXPECT_EQ(values(runOne(unaryProgram("stablehlo.not", "tensor<2xi32>"), {i32({2}, {0, 5})})),
            (Doubles{-1, -6}));
}

TEST(InterpreterElementwiseTest, FloatUnaryOps) {
  Tensor x = f32({3}, {-1.5, 0.25, 4});
  auto run = [&](const char* op) { return values(runOne(unaryProgram(op, "tensor<3xf32>"), {x})); };
  auto f = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  EXPECT_EQ(run("stablehlo.negate"), (Doubles{1.5, -0.25, -4}));
  EXPECT_EQ(run("stablehlo.abs"), (Doubles{1.5, 0.25, 4}));
  EXPECT_EQ(run("stablehlo.floor"), (Doubles{-2, 0, 4}));
  EXPECT_EQ(run("stablehlo.ceil"), (Doubles{-1, 1, 4}));
  EXPECT_EQ(run("stablehlo.sign"), (Doubles{-1, 1, 1}));
  EXPECT_EQ(run("stablehlo.exponential"),
            (Doubles{f(std::exp(-1.5)), f(std::exp(0.25)), f(std::exp(4.0))}));
  // f32 tanh is a rational approximation within a few ulps (typed_kernels_test checks its range).
  Doubles tanh = run("stablehlo.tanh");
  for (size_t i = 0; i < 3; ++i)
    EXPECT_LE(ulpDistance(std::tanh(Doubles{-1.5, 0.25, 4.0}[i]), tanh[i], ir::ElementType::F32), 6);
  EXPECT_EQ(run("stablehlo.logistic")[1], f(1 / (1 + std::exp(-0.25))));
  EXPECT_EQ(run("stablehlo.sine")[2], f(std::sin(4.0)));
  EXPECT_EQ(run("stablehlo.cosine")[2], f(std::cos(4.0)));
  Tensor pos = f32({2}, {4, 0.25});
  auto runPos = [&](const char* op) {
    return values(runOne(unaryProgram(op, "tensor<2xf32>"), {pos}));
  };
  EXPECT_EQ(runPos("stablehlo.sqrt"), (Doubles{2, 0.5}));
  EXPECT_EQ(runPos("stablehlo.rsqrt"), (Doubles{0.5, 2}));
  EXPECT_EQ(runPos("stablehlo.log"), (Doubles{f(std::log(4.0)), f(std::log(0.25))}));
  EXPECT_TRUE(std::isnan(values(runOne(unaryProgram("stablehlo.sqrt", "tensor<3xf32>"), {x}))[0]));
}

TEST(InterpreterElementwiseTest, IntegerNegateAbsSign) {
  Tensor x = i32({3}, {-3, 0, 5});
  auto run = [&](const char* op) { return values(runOne(unaryProgram(op, "tensor<3xi32>"), {x})); };
  EXPECT_EQ(run("stablehlo.negate"), (Doubles{3, 0, -5}));
  EXPECT_EQ(run("stablehlo.abs"), (Doubles{3, 0, 5}));
  EXPECT_EQ(run("stablehlo.sign"), (Doubles{-1, 0, 1}));
}

TEST(InterpreterElementwiseTest, CompareAllDirectionsAndTypes) {
  const char* text =
      R"(func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>, %i: tensor<2xi32>, %j: tensor<2xi32>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2xi1>, tensor<2xi1>, tensor<3xi1>) {
  %0 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %1 = stablehlo.compare NE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %2 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %3 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %4 = stablehlo.compare LE, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %5 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %6 = stablehlo.compare LT, %i, %j, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %7 = stablehlo.compare LT, %i, %j, UNSIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %8 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2xi1>, tensor<2xi1>, tensor<3xi1>
}
)";
  Tensor a = f32({3}, {1, 2, NAN});
  Tensor b = f32({3}, {1, 3, 0});
  std::vector<Tensor> r = runMain(text, {a, b, i32({2}, {-1, 1}), i32({2}, {1, 2})});
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(values(r[0]), (Doubles{1, 0, 0}));
  EXPECT_EQ(values(r[1]), (Doubles{0, 1, 1})); // NaN != x
  EXPECT_EQ(values(r[2]), (Doubles{1, 0, 0}));
  EXPECT_EQ(values(r[3]), (Doubles{0, 0, 0}));
  EXPECT_EQ(values(r[4]), (Doubles{1, 1, 0}));
  EXPECT_EQ(values(r[5]), (Doubles{0, 1, 0}));
  EXPECT_EQ(values(r[6]), (Doubles{1, 1}));
  EXPECT_EQ(values(r[7]), (Doubles{0, 1}));    // 0xffffffff is not < 1 unsigned
  EXPECT_EQ(values(r[8]), (Doubles{0, 1, 0})); // +NaN sorts above everything
}

TEST(InterpreterElementwiseTest, SelectClampConvertBitcast) {
  const char* text =
      R"(func.func @main(%p: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xbf16>) {
  %lo = stablehlo.constant dense<0.0> : tensor<f32>
  %hi = stablehlo.constant dense<2.0> : tensor<f32>
  %s = "stablehlo.select"(%p, %a, %b) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c = "stablehlo.clamp"(%lo, %a, %hi) : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %i = stablehlo.convert %a : (tensor<3xf32>) -> tensor<3xi32>
  %bits = stablehlo.bitcast_convert %a : (tensor<3xf32>) -> tensor<3xi32>
  %h = stablehlo.convert %a : (tensor<3xf32>) -> tensor<3xbf16>
  return %s, %c, %i, %bits, %h : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xbf16>
}
)";
  Tensor p = Tensor::fromInts(ElementType::I1, {3}, std::vector<int64_t>{1, 0, 1});
  std::vector<Tensor> r = runMain(text, {p, f32({3}, {-1.5, 1.5, 3.75}), f32({3}, {9, 8, 7})});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(values(r[0]), (Doubles{-1.5, 8, 3.75}));
  EXPECT_EQ(values(r[1]), (Doubles{0, 1.5, 2}));
  EXPECT_EQ(values(r[2]), (Doubles{-1, 1, 3})); // truncation toward zero
  EXPECT_EQ(r[3].intAt(1), 0x3fc00000);         // bits of 1.5f
  EXPECT_EQ(values(r[4]), (Doubles{-1.5, 1.5, 3.75}));
}

TEST(InterpreterElementwiseTest, ConstantAndIota) {
  const char* text = R"(func.func @main() -> (tensor<2x3xi32>, tensor<2x2xf32>) {
  %i = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %c = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  return %i, %c : tensor<2x3xi32>, tensor<2x2xf32>
}
)";
  std::vector<Tensor> r = runMain(text);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(values(r[0]), (Doubles{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(values(r[1]), (Doubles{1, 2, 3, 4}));
}

TEST(InterpreterElementwiseTest, HalfTypesRoundEachResult) {
  Tensor a = Tensor::fromDoubles(ElementType::BF16, {2}, Doubles{256, 1});
  Tensor b = Tensor::fromDoubles(ElementType::BF16, {2}, Doubles{1, 0.5});
  // 257 is not representable in bf16 (8 significant bits): ties round to even, giving 256.
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.add", "tensor<2xbf16>"), {a, b})),
            (Doubles{256, 1.5}));
  Tensor h = Tensor::fromDoubles(ElementType::F16, {2}, Doubles{2048, 3});
  Tensor one = Tensor::fromDoubles(ElementType::F16, {2}, Doubles{1, 1});
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.add", "tensor<2xf16>"), {h, one})),
            (Doubles{2048, 4}));
}

TEST(InterpreterElementwiseTest, UnsignedWrapAndDivision) {
  Tensor a = Tensor::fromInts(ElementType::UI32, {2}, std::vector<int64_t>{0, 7});
  Tensor b = Tensor::fromInts(ElementType::UI32, {2}, std::vector<int64_t>{1, 0});
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.subtract", "tensor<2xui32>"), {a, b})),
            (Doubles{4294967295.0, 7}));
  EXPECT_EQ(values(runOne(binaryProgram("stablehlo.divide", "tensor<2xui32>"), {a, b})),
            (Doubles{0, 4294967295.0})); // x / 0 is all ones
}

TEST(InterpreterErrorTest, UnsupportedElementTypeIsReportedAtTheOp) {
  const char* text = R"(func.func @main() -> tensor<2xindex> {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xindex>
  return %c : tensor<2xindex>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {}, sink));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_NE(sink.diagnostics()[0].message.find("index"), std::string::npos);
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
}

TEST(InterpreterElementwiseTest, ConvertAcrossIntegerWidthsAndBooleans) {
  const char* text =
      R"(func.func @main(%x: tensor<3xi64>) -> (tensor<3xi8>, tensor<3xui16>, tensor<3xui64>, tensor<3xi1>, tensor<3xf64>) {
  %a = stablehlo.convert %x : (tensor<3xi64>) -> tensor<3xi8>
  %b = stablehlo.convert %x : (tensor<3xi64>) -> tensor<3xui16>
  %c = stablehlo.convert %x : (tensor<3xi64>) -> tensor<3xui64>
  %d = stablehlo.convert %x : (tensor<3xi64>) -> tensor<3xi1>
  %e = stablehlo.convert %c : (tensor<3xui64>) -> tensor<3xf64>
  return %a, %b, %c, %d, %e : tensor<3xi8>, tensor<3xui16>, tensor<3xui64>, tensor<3xi1>, tensor<3xf64>
}
)";
  Tensor x = Tensor::fromInts(ElementType::I64, {3}, std::vector<int64_t>{-1, 0, 258});
  std::vector<Tensor> r = runMain(text, {x});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(values(r[0]), (Doubles{-1, 0, 2}));      // truncation to 8 bits
  EXPECT_EQ(values(r[1]), (Doubles{65535, 0, 258})); // two's complement bits
  EXPECT_EQ(r[2].intAt(0), -1);                      // all 64 bits set
  EXPECT_EQ(values(r[3]), (Doubles{1, 0, 1}));       // x != 0
  EXPECT_EQ(values(r[4]), (Doubles{18446744073709551615.0, 0, 258}));
}

TEST(InterpreterControlFlowTest, WhileLoopSumsCounter) {
  const char* text = R"(func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = "stablehlo.while"(%zero, %zero) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %c = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %next = stablehlo.add %i, %one : tensor<i32>
    %sum = stablehlo.add %acc, %next : tensor<i32>
    stablehlo.return %next, %sum : tensor<i32>, tensor<i32>
  }) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  return %r#1 : tensor<i32>
}
)";
  EXPECT_EQ(runOne(text, {i32({}, {4})}).intAt(0), 1 + 2 + 3 + 4);
}

TEST(InterpreterControlFlowTest, CaseClampsOutOfRangeIndexToLastBranch) {
  const char* text = R"(func.func @main(%k: tensor<i32>) -> tensor<f32> {
  %r = "stablehlo.case"(%k) ({
    %a = stablehlo.constant dense<10.0> : tensor<f32>
    stablehlo.return %a : tensor<f32>
  }, {
    %b = stablehlo.constant dense<20.0> : tensor<f32>
    stablehlo.return %b : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}
)";
  EXPECT_EQ(runOne(text, {i32({}, {0})}).floatAt(0), 10.0);
  EXPECT_EQ(runOne(text, {i32({}, {1})}).floatAt(0), 20.0);
  EXPECT_EQ(runOne(text, {i32({}, {7})}).floatAt(0), 20.0);
}

TEST(InterpreterControlFlowTest, IfTakesTheTrueRegionFirst) {
  // The spec's example: the true branch is the first region; branches may use outer values.
  const char* text = R"(func.func @main(%pred: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %r = "stablehlo.if"(%pred) ({
    %t = stablehlo.add %x, %x : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }, {
    %f = stablehlo.negate %x : tensor<f32>
    stablehlo.return %f : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}
)";
  Tensor yes = Tensor::fromInts(ir::ElementType::I1, {}, std::vector<int64_t>{1});
  Tensor no = Tensor::fromInts(ir::ElementType::I1, {}, std::vector<int64_t>{0});
  Tensor x = Tensor::fromDoubles(ir::ElementType::F32, {}, std::vector<double>{3.0});
  EXPECT_EQ(runOne(text, {yes, x}).floatAt(0), 6.0);
  EXPECT_EQ(runOne(text, {no, x}).floatAt(0), -3.0);
}

TEST(InterpreterControlFlowTest, NamedComputationRunsItsBodyLikeACall) {
  const char* text = R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %r = sdy.named_computation<"double">(%x) (%y: tensor<2xi32>) {
    %d = stablehlo.add %y, %y : tensor<2xi32>
    sdy.return %d : tensor<2xi32>
  } : (tensor<2xi32>) -> tensor<2xi32>
  %s = stablehlo.add %r, %x : tensor<2xi32>
  return %s : tensor<2xi32>
}
)";
  Tensor out = runOne(text, {i32({2}, {5, -7})});
  EXPECT_EQ(out.intAt(0), 15);
  EXPECT_EQ(out.intAt(1), -21);
}

TEST(InterpreterControlFlowTest, CallBarrierAndShardingOpsPassValues) {
  const char* text = R"(sdy.mesh @mesh = <["x"=2]>
func.func @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = stablehlo.add %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @double(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<2xf32>
  %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<2xf32>
  %3 = stablehlo.optimization_barrier %2 : tensor<2xf32>
  return %3 : tensor<2xf32>
}
)";
  EXPECT_EQ(values(runOne(text, {f32({2}, {1, 2.5})})), (Doubles{2, 5}));
}

TEST(InterpreterErrorTest, UnsupportedOpIsReportedAtItsLocation) {
  const char* text = R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = "stablehlo.fancy_op"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {f32({4}, {1, 2, 3, 4})}, sink));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  const support::Diagnostic& d = sink.diagnostics()[0];
  EXPECT_EQ(d.message, "unsupported op 'stablehlo.fancy_op' in the interpreter");
  EXPECT_EQ(d.loc.line, 3u);
  EXPECT_EQ(d.loc.column, 3u); // the op's location starts at its results
}

TEST(InterpreterErrorTest, CollectivesAreRejectedForNow) {
  const char* text = R"(func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %1 = "stablehlo.collective_permute"(%a) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {f32({4}, {1, 2, 3, 4})}, sink));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_NE(sink.diagnostics()[0].message.find("collective"), std::string::npos);
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
}

TEST(InterpreterErrorTest, WrongInputTypeIsReported) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(unaryProgram("stablehlo.negate", "tensor<2xf32>"), 1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {i32({2}, {1, 2})}, sink));
  EXPECT_TRUE(sink.hasErrors());
}

TEST(InterpreterErrorTest, MalformedPermutationIsReportedNotExecuted) {
  const char* text = R"(func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %r = "stablehlo.transpose"(%x) <{permutation = array<i64: 0, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", {f32({2, 3}, {1, 2, 3, 4, 5, 6})}, sink));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message, "'stablehlo.transpose': invalid 'permutation'");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
}

TEST(InterpreterErrorTest, UnknownFunctionIsReported) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(unaryProgram("stablehlo.negate", "tensor<2xf32>"), 1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("nope", {}, sink));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message, "no function named \"nope\"");
}

TEST(InterpreterSteppingTest, StepsOneOpAtATimeThroughAWhileBody) {
  const char* text = R"(func.func @main(%x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.while"(%x) ({
  ^bb0(%i: tensor<i32>):
    %c = stablehlo.compare LT, %i, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%i: tensor<i32>):
    stablehlo.return %i : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  ASSERT_TRUE(interpreter.start("main", {i32({}, {3})}, sink));
  EXPECT_EQ(interpreter.currentOp()->name(), "stablehlo.while");
  ASSERT_TRUE(interpreter.step()); // enters the condition
  EXPECT_EQ(interpreter.depth(), 2u);
  EXPECT_EQ(interpreter.currentOp()->name(), "stablehlo.compare");
  while (interpreter.step()) {
  }
  EXPECT_TRUE(interpreter.finished());
  ASSERT_EQ(interpreter.results().size(), 1u);
  EXPECT_EQ(interpreter.results()[0].intAt(0), 3);
}

TEST(InterpreterSteppingTest, InfiniteLoopHitsStepLimit) {
  const char* text = R"(func.func @main(%x: tensor<i1>) -> tensor<i1> {
  %r = "stablehlo.while"(%x) ({
  ^bb0(%c: tensor<i1>):
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%c: tensor<i1>):
    stablehlo.return %c : tensor<i1>
  }) : (tensor<i1>) -> tensor<i1>
  return %r : tensor<i1>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  interpreter.setStepLimit(100);
  Tensor on = Tensor::fromInts(ElementType::I1, {}, std::vector<int64_t>{1});
  EXPECT_FALSE(interpreter.run("main", {on}, sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_NE(sink.diagnostics()[0].message.find("step limit"), std::string::npos);
}

} // namespace
