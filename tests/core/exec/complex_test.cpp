// Complex numbers in the interpreter: Tensor storage, printing and comparison, the complex /
// real / imag ops, complex elementwise arithmetic, convert, compare, dot_general, reduce and fft.
// Expectations come from the StableHLO spec examples or are computed independently here (a naive
// DFT, std::complex arithmetic), never copied from the kernels' output.
#include "tests/core/exec/exec_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace shardscope::exec {
namespace {

using ir::ElementType;
using testing::runOne;
using testing::values;
using Complex = std::complex<double>;
using Complexes = std::vector<Complex>;

Tensor complexTensor(ElementType e, std::vector<int64_t> shape, const Complexes& v) {
  Tensor t(e, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i)
    t.setComplex(static_cast<int64_t>(i), v[i]);
  return t;
}

Tensor c64(std::vector<int64_t> shape, const Complexes& v) {
  return complexTensor(ElementType::Complex64, std::move(shape), v);
}
Tensor c128(std::vector<int64_t> shape, const Complexes& v) {
  return complexTensor(ElementType::Complex128, std::move(shape), v);
}

Complexes complexes(const Tensor& t) {
  Complexes out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.complexAt(i));
  return out;
}

// Parses and runs `@main`, expecting an error; returns its message.
std::string runError(const std::string& text, std::vector<Tensor> inputs = {}) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", std::move(inputs), sink));
  return sink.diagnostics().empty() ? std::string() : sink.diagnostics()[0].message;
}

// Elementwise closeness: |a - b| <= tol for both parts.
void expectNear(const Complexes& actual, const Complexes& expected, double tol) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i].real(), expected[i].real(), tol) << "element " << i;
    EXPECT_NEAR(actual[i].imag(), expected[i].imag(), tol) << "element " << i;
  }
}

// The textbook O(n^2) DFT in long double, sign -1 forward; `inverse` conjugates the kernel and
// divides by n.
Complexes naiveDft(const Complexes& x, bool inverse = false) {
  size_t n = x.size();
  Complexes out(n);
  for (size_t k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    for (size_t j = 0; j < n; ++j) {
      long double angle = (inverse ? 2 : -2) * std::numbers::pi_v<long double> *
                          static_cast<long double>((j * k) % n) / static_cast<long double>(n);
      re += x[j].real() * std::cos(angle) - x[j].imag() * std::sin(angle);
      im += x[j].real() * std::sin(angle) + x[j].imag() * std::cos(angle);
    }
    out[k] = inverse ? Complex(static_cast<double>(re / n), static_cast<double>(im / n))
                     : Complex(static_cast<double>(re), static_cast<double>(im));
  }
  return out;
}

Complexes randomComplexes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  Complexes out(n);
  for (Complex& c : out)
    c = {dist(rng), dist(rng)};
  return out;
}

std::string fftProgram(const std::string& type, const std::string& in, const std::string& out,
                       const std::string& lengths) {
  return "func.func @main(%x: " + in + ") -> " + out + " {\n  %r = \"stablehlo.fft\"(%x) {" +
         "fft_type = #stablehlo<fft_type " + type + ">, fft_length = array<i64: " + lengths +
         ">} : (" + in + ") -> " + out + "\n  return %r : " + out + "\n}\n";
}

// ---- Tensor -------------------------------------------------------------------------------

TEST(ComplexTensorTest, StoresRealPartFirstInTwoFloatsOrDoubles) {
  Tensor a = c64({2}, {{1.5, -2.0}, {3.0, 4.0}});
  EXPECT_EQ(a.bytes().size(), 16u);
  const float* f = a.data<float>();
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[1], -2.0f);
  EXPECT_EQ(f[2], 3.0f);
  EXPECT_EQ(f[3], 4.0f);
  Tensor b = c128({1}, {{0.1, 0.2}});
  EXPECT_EQ(b.bytes().size(), 16u);
  EXPECT_EQ(b.data<double>()[0], 0.1);
  EXPECT_EQ(b.data<double>()[1], 0.2);
  // Rounding to the part type happens once per part.
  Tensor c = c64({1}, {{0.1, 0.2}});
  EXPECT_EQ(c.complexAt(0), Complex(static_cast<float>(0.1), static_cast<float>(0.2)));
  // Real accessors see the real part; real setters zero the imaginary part.
  EXPECT_EQ(a.floatAt(0), 1.5);
  c.setFloat(0, 7.0);
  EXPECT_EQ(c.complexAt(0), Complex(7.0, 0.0));
  c.setInt(0, -3);
  EXPECT_EQ(c.complexAt(0), Complex(-3.0, 0.0));
}

TEST(ComplexTensorTest, FromDenseLiteralsOfBothWidths) {
  const char* text = R"(func.func @main() -> (tensor<2xcomplex<f32>>, tensor<3xcomplex<f64>>) {
  %a = stablehlo.constant dense<[(1.0, 2.0), (-3.5, 0.25)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.constant dense<(0.5, -1.0)> : tensor<3xcomplex<f64>>
  return %a, %b : tensor<2xcomplex<f32>>, tensor<3xcomplex<f64>>
}
)";
  std::vector<Tensor> r = testing::runMain(text);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(complexes(r[0]), (Complexes{{1, 2}, {-3.5, 0.25}}));
  EXPECT_EQ(complexes(r[1]), (Complexes{{0.5, -1}, {0.5, -1}, {0.5, -1}}));
}

TEST(ComplexLiteralTest, HexPartsAreBitPatternsOfThePartType) {
  const char* text = R"(func.func @main() -> (tensor<2xcomplex<f32>>, tensor<complex<f64>>) {
  %a = stablehlo.constant dense<[(0x7FC00000, 1.0), (-1.5, 0xFF800000)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.constant dense<(0x3FF0000000000000, 0x4000000000000000)> : tensor<complex<f64>>
  return %a, %b : tensor<2xcomplex<f32>>, tensor<complex<f64>>
}
)";
  std::vector<Tensor> r = testing::runMain(text);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(std::isnan(r[0].complexAt(0).real()));
  EXPECT_EQ(r[0].complexAt(0).imag(), 1.0);
  EXPECT_EQ(r[0].complexAt(1), Complex(-1.5, -INFINITY));
  EXPECT_EQ(r[1].complexAt(0), Complex(1.0, 2.0));
}

TEST(ComplexLiteralTest, F64PartsSurviveAPrintRoundTrip) {
  const char* text = R"(func.func @main() -> tensor<2xcomplex<f64>> {
  %a = stablehlo.constant dense<[(0.33333333333333331, 0.1), (1.0, -2.5)]> : tensor<2xcomplex<f64>>
  return %a : tensor<2xcomplex<f64>>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  std::string printed = io::mlir::printModule(*module);
  auto again = io::mlir::parseModule(printed, /*fileId=*/2, sink);
  ASSERT_TRUE(again) << printed;
  Tensor before = Interpreter(*module).run("main", {}, sink).value().at(0);
  Tensor after = Interpreter(*again).run("main", {}, sink).value().at(0);
  EXPECT_EQ(before.complexAt(0).real(), 1.0 / 3.0);
  EXPECT_EQ(after, before) << printed;
}

TEST(ComplexLiteralTest, ComplexLiteralOfARealTypeIsAnError) {
  const char* text = R"(func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xf32>
  return %a : tensor<2xf32>
}
)";
  support::CollectingSink sink;
  EXPECT_FALSE(io::mlir::parseModule(text, /*fileId=*/1, sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_NE(sink.diagnostics()[0].message.find("non-complex element type 'f32'"), std::string::npos)
      << sink.diagnostics()[0].message;
}

TEST(ComplexTensorTest, PrintsPartsAsMlirLiterals) {
  Tensor a = c64({2}, {{1, 2}, {3, -4.5}});
  EXPECT_EQ(a.str(), "tensor<2xcomplex<f32>> [(1.000000e+00,2.000000e+00), "
                     "(3.000000e+00,-4.500000e+00)]");
  // complex<f64> parts print as f64 values do (all the digits of a double).
  Tensor b = c128({1}, {{1.0 / 3.0, 0}});
  std::string third;
  ir::printFloat(1.0 / 3.0, ElementType::F64, third);
  EXPECT_EQ(b.str(), "tensor<1xcomplex<f64>> [(" + third + ",0.000000e+00)]");
  EXPECT_GE(third.size(), 18u) << third;
}

TEST(ComplexTensorTest, CompareChecksEachPartInThePartType) {
  Tensor a = c64({2}, {{1, 2}, {3, 4}});
  Tensor b = a;
  b.setComplex(1, {3, std::nextafter(4.0f, 5.0f)});
  CompareResult r = compareTensors(a, b);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_NE(r.message.find("element 1"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("0 ulps real, 1 ulps imaginary"), std::string::npos) << r.message;
  EXPECT_TRUE(compareTensors(a, b, {.maxUlps = 1}).equal);
  // A real-part mismatch alone is a mismatch too.
  Tensor c = a;
  c.setComplex(0, {1.5, 2});
  EXPECT_FALSE(compareTensors(a, c).equal);
  EXPECT_TRUE(compareTensors(a, c, {.absTolerance = 0.5}).equal);
  // NaN parts match NaN parts only.
  Tensor n1 = c128({1}, {{NAN, 1}});
  Tensor n2 = c128({1}, {{NAN, 1}});
  EXPECT_TRUE(compareTensors(n1, n2).equal);
  EXPECT_FALSE(compareTensors(n1, c128({1}, {{0, 1}})).equal);
}

// ---- complex / real / imag ----------------------------------------------------------------

TEST(ComplexOpsTest, ComplexRealImagSpecExamples) {
  // Spec `complex`: [1.0, 3.0], [2.0, 4.0] -> [(1.0, 2.0), (3.0, 4.0)].
  const char* make =
      R"(func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xcomplex<f32>> {
  %r = stablehlo.complex %a, %b : tensor<2xcomplex<f32>>
  return %r : tensor<2xcomplex<f32>>
}
)";
  Tensor z = runOne(make, {testing::f32({2}, {1, 3}), testing::f32({2}, {2, 4})});
  EXPECT_EQ(z.type().str(), "tensor<2xcomplex<f32>>");
  EXPECT_EQ(complexes(z), (Complexes{{1, 2}, {3, 4}}));
  // Spec `real` / `imag`: [(1.0, 2.0), (3.0, 4.0)] -> [1.0, 3.0] / [2.0, 4.0].
  const char* parts =
      R"(func.func @main(%z: tensor<2xcomplex<f32>>) -> (tensor<2xf32>, tensor<2xf32>) {
  %re = "stablehlo.real"(%z) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %im = "stablehlo.imag"(%z) : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  return %re, %im : tensor<2xf32>, tensor<2xf32>
}
)";
  std::vector<Tensor> r = testing::runMain(parts, {z});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(values(r[0]), (std::vector<double>{1, 3}));
  EXPECT_EQ(values(r[1]), (std::vector<double>{2, 4}));
}

TEST(ComplexOpsTest, RealAndImagOfRealTensors) {
  const char* text = R"(func.func @main(%x: tensor<2xf64>) -> (tensor<2xf64>, tensor<2xf64>) {
  %re = "stablehlo.real"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  %im = "stablehlo.imag"(%x) : (tensor<2xf64>) -> tensor<2xf64>
  return %re, %im : tensor<2xf64>, tensor<2xf64>
}
)";
  Tensor x = Tensor::fromDoubles(ElementType::F64, {2}, std::vector<double>{1.5, -2});
  std::vector<Tensor> r = testing::runMain(text, {x});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(values(r[0]), (std::vector<double>{1.5, -2}));
  EXPECT_EQ(values(r[1]), (std::vector<double>{0, 0}));
}

TEST(ComplexOpsTest, ComplexOfMismatchedTypesIsAnError) {
  const char* text =
      R"(func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xcomplex<f64>> {
  %r = "stablehlo.complex"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xcomplex<f64>>
  return %r : tensor<2xcomplex<f64>>
}
)";
  std::string message = runError(text, {testing::f32({2}, {1, 3}), testing::f32({2}, {2, 4})});
  EXPECT_NE(message.find("does not match"), std::string::npos) << message;
}

// ---- elementwise --------------------------------------------------------------------------

std::string unaryProgram(const std::string& op, const std::string& in, const std::string& out) {
  return "func.func @main(%x: " + in + ") -> " + out + " {\n  %r = \"" + op + "\"(%x) : (" + in +
         ") -> " + out + "\n  return %r : " + out + "\n}\n";
}

std::string binaryProgram(const std::string& op, const std::string& type) {
  return "func.func @main(%x: " + type + ", %y: " + type + ") -> " + type + " {\n  %r = \"" + op +
         "\"(%x, %y) : (" + type + ", " + type + ") -> " + type + "\n  return %r : " + type +
         "\n}\n";
}

const Complexes kA = {{1.5, -2}, {-0.25, 3}, {4, 0.5}, {-1, -1}};
const Complexes kB = {{2, 1}, {0.5, -0.75}, {-3, 2}, {1, 1e-3}};

TEST(ComplexElementwiseTest, BinaryArithmeticMatchesStdComplexInF64) {
  const std::string type = "tensor<4xcomplex<f64>>";
  struct Case {
    const char* op;
    Complex (*fn)(Complex, Complex);
  } cases[] = {{"stablehlo.add", [](Complex a, Complex b) { return a + b; }},
               {"stablehlo.subtract", [](Complex a, Complex b) { return a - b; }},
               {"stablehlo.multiply", [](Complex a, Complex b) { return a * b; }},
               {"stablehlo.divide", [](Complex a, Complex b) { return a / b; }}};
  for (const Case& c : cases) {
    Complexes expected;
    for (size_t i = 0; i < kA.size(); ++i)
      expected.push_back(c.fn(kA[i], kB[i]));
    Tensor r = runOne(binaryProgram(c.op, type), {c128({4}, kA), c128({4}, kB)});
    expectNear(complexes(r), expected, 1e-15);
  }
}

// `v` rounded to f32 and widened back. The store through a volatile keeps the rounding, which the
// Release build (GCC -O2) otherwise dropped from a plain cast to float and back.
double roundedToF32(double v) {
  volatile float rounded = static_cast<float>(v);
  return rounded;
}

TEST(ComplexElementwiseTest, F32ResultsAreRoundedOncePerPart) {
  const std::string type = "tensor<4xcomplex<f32>>";
  Tensor a = c64({4}, kA), b = c64({4}, kB);
  Tensor r = runOne(binaryProgram("stablehlo.multiply", type), {a, b});
  for (int64_t i = 0; i < 4; ++i) {
    Complex exact = a.complexAt(i) * b.complexAt(i); // products of f32 parts are exact in f64
    EXPECT_EQ(r.complexAt(i), Complex(roundedToF32(exact.real()), roundedToF32(exact.imag())));
  }
}

TEST(ComplexElementwiseTest, UnaryFunctionsMatchStdComplex) {
  const std::string type = "tensor<4xcomplex<f64>>";
  struct Case {
    const char* op;
    Complex (*fn)(Complex);
  } cases[] = {{"stablehlo.negate", [](Complex z) { return -z; }},
               {"stablehlo.exponential", [](Complex z) { return std::exp(z); }},
               {"stablehlo.log", [](Complex z) { return std::log(z); }},
               {"stablehlo.sqrt", [](Complex z) { return std::sqrt(z); }},
               {"stablehlo.exponential_minus_one", [](Complex z) { return std::exp(z) - 1.0; }},
               {"stablehlo.log_plus_one", [](Complex z) { return std::log(1.0 + z); }},
               {"stablehlo.tanh", [](Complex z) { return std::tanh(z); }}};
  for (const Case& c : cases) {
    Complexes expected;
    for (const Complex& z : kA)
      expected.push_back(c.fn(z));
    Tensor r = runOne(unaryProgram(c.op, type, type), {c128({4}, kA)});
    expectNear(complexes(r), expected, 1e-12);
  }
}

TEST(ComplexElementwiseTest, AbsGivesTheMagnitudeAsARealTensor) {
  Tensor r = runOne(unaryProgram("stablehlo.abs", "tensor<3xcomplex<f32>>", "tensor<3xf32>"),
                    {c64({3}, {{3, 4}, {-5, 12}, {0, -2}})});
  EXPECT_EQ(r.type().str(), "tensor<3xf32>");
  EXPECT_EQ(values(r), (std::vector<double>{5, 13, 2}));
}

TEST(ComplexElementwiseTest, SignIsUnitMagnitudeZeroOrNan) {
  const std::string type = "tensor<4xcomplex<f64>>";
  Tensor r = runOne(unaryProgram("stablehlo.sign", type, type),
                    {c128({4}, {{3, 4}, {0, 0}, {NAN, 1}, {0, -2}})});
  Complexes got = complexes(r);
  EXPECT_NEAR(got[0].real(), 0.6, 1e-15);
  EXPECT_NEAR(got[0].imag(), 0.8, 1e-15);
  EXPECT_EQ(got[1], Complex(0, 0));
  EXPECT_TRUE(std::isnan(got[2].real()) && std::isnan(got[2].imag()));
  EXPECT_EQ(got[3], Complex(0, -1));
}

TEST(ComplexElementwiseTest, OpsWithoutAComplexFormAreLocatedErrors) {
  const std::string type = "tensor<1xcomplex<f32>>";
  std::string message = runError(unaryProgram("stablehlo.floor", type, type), {c64({1}, {{1, 1}})});
  EXPECT_NE(message.find("'stablehlo.floor'"), std::string::npos) << message;
  EXPECT_NE(message.find("complex"), std::string::npos) << message;
  message =
      runError(binaryProgram("stablehlo.remainder", type), {c64({1}, {{1, 1}}), c64({1}, {{2, 2}})});
  EXPECT_NE(message.find("complex"), std::string::npos) << message;
  // A kernel without a complex path (clamp) rejects complex operands instead of reading them as
  // real numbers.
  const char* clamp = R"(func.func @main(%x: tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>> {
  %r = "stablehlo.clamp"(%x, %x, %x) : (tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  return %r : tensor<1xcomplex<f32>>
}
)";
  message = runError(clamp, {c64({1}, {{1, 1}})});
  EXPECT_NE(message.find("complex operands are not supported"), std::string::npos) << message;
}

TEST(ComplexElementwiseTest, MaximumAndMinimumOrderLexicographically) {
  // StableHLO's reference: the real parts decide, equal real parts (0 and -0 included) let the
  // imaginary parts decide.
  const std::string type = "tensor<3xcomplex<f64>>";
  std::vector<Tensor> in = {c128({3}, {{1.5, 2.5}, {1.5, 7.5}, {0.0, 1.5}}),
                            c128({3}, {{7.5, 1.5}, {1.5, 2.5}, {-0.0, 2.5}})};
  EXPECT_EQ(complexes(runOne(binaryProgram("stablehlo.maximum", type), in)),
            (Complexes{{7.5, 1.5}, {1.5, 7.5}, {-0.0, 2.5}}));
  EXPECT_EQ(complexes(runOne(binaryProgram("stablehlo.minimum", type), in)),
            (Complexes{{1.5, 2.5}, {1.5, 2.5}, {0.0, 1.5}}));
}

// ---- convert / compare / select -----------------------------------------------------------

TEST(ComplexConvertTest, SpecExampleIntegerToComplex) {
  // Spec `convert`: [1, 2, 3] : i32 -> [(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)] : complex<f32>.
  Tensor r = runOne(unaryProgram("stablehlo.convert", "tensor<3xi32>", "tensor<3xcomplex<f32>>"),
                    {testing::i32({3}, {1, 2, 3})});
  EXPECT_EQ(complexes(r), (Complexes{{1, 0}, {2, 0}, {3, 0}}));
}

TEST(ComplexConvertTest, ComplexToRealTakesTheRealPart) {
  Tensor z = c128({3}, {{1.75, 9}, {-2.5, -1}, {0, 3}});
  EXPECT_EQ(values(runOne(
                unaryProgram("stablehlo.convert", "tensor<3xcomplex<f64>>", "tensor<3xf32>"), {z})),
            (std::vector<double>{1.75, -2.5, 0}));
  Tensor ints =
      runOne(unaryProgram("stablehlo.convert", "tensor<3xcomplex<f64>>", "tensor<3xi32>"), {z});
  EXPECT_EQ(values(ints), (std::vector<double>{1, -2, 0}));
  // To i1: StableHLO's reference looks at the real part only (its convert test maps (0, 1) to
  // false).
  Tensor b = runOne(unaryProgram("stablehlo.convert", "tensor<3xcomplex<f64>>", "tensor<3xi1>"),
                    {c128({3}, {{0, 0}, {0, 2}, {1, 0}})});
  EXPECT_EQ(values(b), (std::vector<double>{0, 0, 1}));
  // Between complex widths both parts are converted; real -> complex zeroes the imaginary part.
  Tensor narrow = runOne(
      unaryProgram("stablehlo.convert", "tensor<3xcomplex<f64>>", "tensor<3xcomplex<f32>>"), {z});
  EXPECT_EQ(complexes(narrow), complexes(z));
  Tensor widened =
      runOne(unaryProgram("stablehlo.convert", "tensor<2xf32>", "tensor<2xcomplex<f64>>"),
             {testing::f32({2}, {0.5, -4})});
  EXPECT_EQ(complexes(widened), (Complexes{{0.5, 0}, {-4, 0}}));
}

std::string compareProgram(const std::string& direction) {
  return R"(func.func @main(%x: tensor<5xcomplex<f32>>, %y: tensor<5xcomplex<f32>>) -> tensor<5xi1> {
  %r = stablehlo.compare )" +
         direction +
         R"(, %x, %y, FLOAT : (tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>) -> tensor<5xi1>
  return %r : tensor<5xi1>
}
)";
}

TEST(ComplexCompareTest, EqualityAndLexicographicOrder) {
  Tensor x = c64({5}, {{1, 2}, {1, 2}, {1, 3}, {2, 0}, {NAN, 0}});
  Tensor y = c64({5}, {{1, 2}, {1, 3}, {1, 2}, {1, 5}, {NAN, 0}});
  EXPECT_EQ(values(runOne(compareProgram("EQ"), {x, y})), (std::vector<double>{1, 0, 0, 0, 0}));
  EXPECT_EQ(values(runOne(compareProgram("NE"), {x, y})), (std::vector<double>{0, 1, 1, 1, 1}));
  // (real, imag) pairs in lexicographic order; NaN is unordered.
  EXPECT_EQ(values(runOne(compareProgram("LT"), {x, y})), (std::vector<double>{0, 1, 0, 0, 0}));
  EXPECT_EQ(values(runOne(compareProgram("GE"), {x, y})), (std::vector<double>{1, 0, 1, 1, 0}));
}

TEST(ComplexCompareTest, SelectAndCheckOpsHandleComplexValues) {
  const char* text =
      R"(func.func @main(%p: tensor<2xi1>, %x: tensor<2xcomplex<f64>>, %y: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %r = "stablehlo.select"(%p, %x, %y) : (tensor<2xi1>, tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  "check.expect_eq"(%r, %r) : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
  "check.expect_almost_eq_const"(%r) {value = dense<[(1.0, 2.0), (7.00001, 8.0)]> : tensor<2xcomplex<f64>>} : (tensor<2xcomplex<f64>>) -> ()
  return %r : tensor<2xcomplex<f64>>
}
)";
  Tensor p = Tensor::fromInts(ElementType::I1, {2}, std::vector<int64_t>{1, 0});
  Tensor r = runOne(text, {p, c128({2}, {{1, 2}, {3, 4}}), c128({2}, {{5, 6}, {7, 8}})});
  EXPECT_EQ(complexes(r), (Complexes{{1, 2}, {7, 8}}));
  // A failing check names the complex element.
  const char* failing = R"(func.func @main(%x: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  "check.expect_eq_const"(%x) {value = dense<[(1.0, 2.0), (3.0, 5.0)]> : tensor<2xcomplex<f64>>} : (tensor<2xcomplex<f64>>) -> ()
  return %x : tensor<2xcomplex<f64>>
}
)";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(failing, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  interpreter.run("main", {c128({2}, {{1, 2}, {3, 4}})}, sink);
  EXPECT_TRUE(interpreter.failedCheck());
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  const std::string& message = sink.diagnostics()[0].message;
  EXPECT_NE(message.find("element [1] is (3, 4), expected (3, 5)"), std::string::npos) << message;
}

// ---- shape ops, reduce, dot_general ---------------------------------------------------------

TEST(ComplexDataMovementTest, SliceTransposeAndConcatenateCopyWholeElements) {
  const char* text = R"(func.func @main(%x: tensor<2x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>> {
  %t = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  %s = "stablehlo.slice"(%x) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 2>, strides = array<i64: 1, 1>} : (tensor<2x2xcomplex<f64>>) -> tensor<1x2xcomplex<f64>>
  %c = "stablehlo.concatenate"(%t, %s) {dimension = 0 : i64} : (tensor<2x2xcomplex<f64>>, tensor<1x2xcomplex<f64>>) -> tensor<3x2xcomplex<f64>>
  return %c : tensor<3x2xcomplex<f64>>
}
)";
  Tensor r = runOne(text, {c128({2, 2}, {{1, -1}, {2, -2}, {3, -3}, {4, -4}})});
  EXPECT_EQ(complexes(r), (Complexes{{1, -1}, {3, -3}, {2, -2}, {4, -4}, {1, -1}, {2, -2}}));
}

TEST(ComplexReduceTest, AddReductionRunsTheBodyOnComplexScalars) {
  const char* text = R"(func.func @main(%x: tensor<2x3xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f64>>
  %r = "stablehlo.reduce"(%x, %zero) ({
  ^bb0(%a: tensor<complex<f64>>, %b: tensor<complex<f64>>):
    %s = "stablehlo.add"(%a, %b) : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
    "stablehlo.return"(%s) : (tensor<complex<f64>>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<2x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<2xcomplex<f64>>
  return %r : tensor<2xcomplex<f64>>
}
)";
  Tensor r = runOne(text, {c128({2, 3}, {{1, 1}, {2, -3}, {0.5, 0}, {-1, 4}, {0, 0}, {3, 3}})});
  EXPECT_EQ(complexes(r), (Complexes{{3.5, -2}, {2, 7}}));
}

TEST(ComplexDotTest, DotGeneralMultipliesComplexMatrices) {
  const char* text =
      R"(func.func @main(%a: tensor<2x2xcomplex<f32>>, %b: tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>> {
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
  return %r : tensor<2x1xcomplex<f32>>
}
)";
  // [(1+i)  2   ] [ i  ]   [(1+i) i + 2 (1-i)]   [1 - i]
  // [ 0    -i   ] [1-i ] = [-i (1-i)         ] = [-1 - i]
  Tensor r = runOne(
      text, {c64({2, 2}, {{1, 1}, {2, 0}, {0, 0}, {0, -1}}), c64({2, 1}, {{0, 1}, {1, -1}})});
  EXPECT_EQ(complexes(r), (Complexes{{1, -1}, {-1, -1}}));
}

// ---- fft ------------------------------------------------------------------------------------

TEST(FftTest, SpecExampleImpulse) {
  // Spec `fft`: FFT of [(1, 0), (0, 0), (0, 0), (0, 0)] is four (1, 0).
  Tensor r = runOne(fftProgram("FFT", "tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>", "4"),
                    {c64({4}, {{1, 0}, {0, 0}, {0, 0}, {0, 0}})});
  EXPECT_EQ(complexes(r), (Complexes{{1, 0}, {1, 0}, {1, 0}, {1, 0}}));
}

TEST(FftTest, SmallTransformsOfIntegersAreExact) {
  // By hand: X[k] = sum_j x[j] (-i)^(jk) for n = 4.
  Tensor r =
      runOne(fftProgram("FFT", "tensor<2x4xcomplex<f64>>", "tensor<2x4xcomplex<f64>>", "4"),
             {c128({2, 4}, {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {7, 0}, {11, 0}, {13, 0}})});
  EXPECT_EQ(complexes(r),
            (Complexes{{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}, {36, 0}, {-6, 6}, {-4, 0}, {-6, -6}}));
}

TEST(FftTest, MatchesNaiveDftOnRandomData) {
  for (size_t n : {1, 2, 5, 8, 12}) {
    Complexes x = randomComplexes(n, static_cast<unsigned>(n));
    std::string type = "tensor<" + std::to_string(n) + "xcomplex<f64>>";
    Tensor r = runOne(fftProgram("FFT", type, type, std::to_string(n)),
                      {c128({static_cast<int64_t>(n)}, x)});
    SCOPED_TRACE("n = " + std::to_string(n));
    expectNear(complexes(r), naiveDft(x), 1e-13);
    Tensor inv = runOne(fftProgram("IFFT", type, type, std::to_string(n)),
                        {c128({static_cast<int64_t>(n)}, x)});
    expectNear(complexes(inv), naiveDft(x, /*inverse=*/true), 1e-14);
  }
}

TEST(FftTest, LargerNonPowerOfTwoLengthsStayAccurate) {
  for (size_t n : {97, 100, 256}) {
    Complexes x = randomComplexes(n, 7);
    std::string type = "tensor<" + std::to_string(n) + "xcomplex<f64>>";
    Tensor r = runOne(fftProgram("FFT", type, type, std::to_string(n)),
                      {c128({static_cast<int64_t>(n)}, x)});
    SCOPED_TRACE("n = " + std::to_string(n));
    expectNear(complexes(r), naiveDft(x), 1e-11);
  }
}

TEST(FftTest, BatchDimensionsAreTransformedIndependently) {
  Complexes x = randomComplexes(10, 3);
  Tensor r = runOne(fftProgram("FFT", "tensor<2x5xcomplex<f64>>", "tensor<2x5xcomplex<f64>>", "5"),
                    {c128({2, 5}, x)});
  Complexes expected = naiveDft(Complexes(x.begin(), x.begin() + 5));
  Complexes second = naiveDft(Complexes(x.begin() + 5, x.end()));
  expected.insert(expected.end(), second.begin(), second.end());
  expectNear(complexes(r), expected, 1e-13);
}

TEST(FftTest, TwoDimensionalFftMatchesNaive2dDft) {
  // X[k0, k1] = sum_{j0, j1} x[j0, j1] exp(-2 pi i (k0 j0 / 3 + k1 j1 / 4)).
  Complexes x = randomComplexes(12, 11);
  Complexes expected(12);
  for (int k0 = 0; k0 < 3; ++k0)
    for (int k1 = 0; k1 < 4; ++k1)
      for (int j0 = 0; j0 < 3; ++j0)
        for (int j1 = 0; j1 < 4; ++j1) {
          double angle = -2 * std::numbers::pi * (k0 * j0 / 3.0 + k1 * j1 / 4.0);
          expected[k0 * 4 + k1] += x[j0 * 4 + j1] * Complex(std::cos(angle), std::sin(angle));
        }
  Tensor r =
      runOne(fftProgram("FFT", "tensor<3x4xcomplex<f64>>", "tensor<3x4xcomplex<f64>>", "3, 4"),
             {c128({3, 4}, x)});
  expectNear(complexes(r), expected, 1e-13);
  Tensor back = runOne(
      fftProgram("IFFT", "tensor<3x4xcomplex<f64>>", "tensor<3x4xcomplex<f64>>", "3, 4"), {r});
  expectNear(complexes(back), x, 1e-14);
}

TEST(FftTest, InverseOfForwardIsIdentity) {
  for (size_t n : {1, 2, 5, 8, 12}) {
    Complexes x = randomComplexes(n, 100 + static_cast<unsigned>(n));
    std::string type = "tensor<" + std::to_string(n) + "xcomplex<f32>>";
    Tensor r = runOne(fftProgram("FFT", type, type, std::to_string(n)),
                      {c64({static_cast<int64_t>(n)}, x)});
    Tensor back = runOne(fftProgram("IFFT", type, type, std::to_string(n)), {r});
    SCOPED_TRACE("n = " + std::to_string(n));
    // f32 storage between the two transforms: a few f32 ulps of the magnitude.
    expectNear(complexes(back), complexes(c64({static_cast<int64_t>(n)}, x)), 1e-6);
  }
}

TEST(FftTest, RealFftKeepsHalfTheSpectrumAndIrfftInvertsIt) {
  for (int64_t n : {1, 2, 5, 8, 12}) {
    Complexes xc = randomComplexes(static_cast<size_t>(n), 200 + static_cast<unsigned>(n));
    std::vector<double> real;
    for (Complex& c : xc) {
      c = {c.real(), 0};
      real.push_back(c.real());
    }
    int64_t half = n / 2 + 1;
    std::string realType = "tensor<" + std::to_string(n) + "xf64>";
    std::string halfType = "tensor<" + std::to_string(half) + "xcomplex<f64>>";
    Tensor x = Tensor::fromDoubles(ElementType::F64, {n}, real);
    Tensor spectrum = runOne(fftProgram("RFFT", realType, halfType, std::to_string(n)), {x});
    SCOPED_TRACE("n = " + std::to_string(n));
    Complexes full = naiveDft(xc);
    expectNear(complexes(spectrum), Complexes(full.begin(), full.begin() + half), 1e-13);
    Tensor back = runOne(fftProgram("IRFFT", halfType, realType, std::to_string(n)), {spectrum});
    EXPECT_EQ(back.type().str(), realType);
    std::vector<double> got = values(back);
    for (int64_t i = 0; i < n; ++i)
      EXPECT_NEAR(got[static_cast<size_t>(i)], real[static_cast<size_t>(i)], 1e-14);
  }
}

TEST(FftTest, TwoDimensionalRealRoundTrip) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> real(12);
  for (double& v : real)
    v = dist(rng);
  Tensor x = Tensor::fromDoubles(ElementType::F64, {2, 6}, real);
  Tensor spectrum =
      runOne(fftProgram("RFFT", "tensor<2x6xf64>", "tensor<2x4xcomplex<f64>>", "2, 6"), {x});
  // X[k0, k1] for k1 < 4 of the full 2-D DFT.
  for (int k0 = 0; k0 < 2; ++k0)
    for (int k1 = 0; k1 < 4; ++k1) {
      Complex sum;
      for (int j0 = 0; j0 < 2; ++j0)
        for (int j1 = 0; j1 < 6; ++j1) {
          double angle = -2 * std::numbers::pi * (k0 * j0 / 2.0 + k1 * j1 / 6.0);
          sum += real[j0 * 6 + j1] * Complex(std::cos(angle), std::sin(angle));
        }
      Complex got = spectrum.complexAt(k0 * 4 + k1);
      EXPECT_NEAR(got.real(), sum.real(), 1e-13);
      EXPECT_NEAR(got.imag(), sum.imag(), 1e-13);
    }
  Tensor back = runOne(fftProgram("IRFFT", "tensor<2x4xcomplex<f64>>", "tensor<2x6xf64>", "2, 6"),
                       {spectrum});
  std::vector<double> got = values(back);
  for (size_t i = 0; i < real.size(); ++i)
    EXPECT_NEAR(got[i], real[i], 1e-14);
}

TEST(FftTest, InvalidShapesAndTypesAreErrors) {
  // RFFT's result must have N/2 + 1 = 3 elements in the last dimension.
  std::string message = runError(fftProgram("RFFT", "tensor<4xf32>", "tensor<4xcomplex<f32>>", "4"),
                                 {testing::f32({4}, {1, 2, 3, 4})});
  EXPECT_NE(message.find("do not match"), std::string::npos) << message;
  // fft_length must describe the operand's trailing dimensions.
  message = runError(fftProgram("FFT", "tensor<4xcomplex<f32>>", "tensor<4xcomplex<f32>>", "8"),
                     {c64({4}, {{1, 0}, {0, 0}, {0, 0}, {0, 0}})});
  EXPECT_NE(message.find("fft_length [8]"), std::string::npos) << message;
  // FFT of a real operand is a type error.
  message = runError(fftProgram("FFT", "tensor<4xf32>", "tensor<4xf32>", "4"),
                     {testing::f32({4}, {1, 2, 3, 4})});
  EXPECT_NE(message.find("do not fit fft_type FFT"), std::string::npos) << message;
}

} // namespace
} // namespace shardscope::exec
