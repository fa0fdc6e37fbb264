// convolution: the StableHLO spec example, and the im2col + BLAS (f32), dgemm (f64, bf16) and
// integer (i32) paths against a direct loop over the spec's definition on pseudo-random data,
// with strides, negative padding, lhs/rhs dilation, window reversal, feature and batch groups,
// unusual dimension layouts and an empty batch.
#include "core/exec/interpreter.h"

#include "tests/core/exec/exec_test_util.h"

#include <array>
#include <random>

using namespace shardscope;
using namespace shardscope::exec;
using namespace shardscope::exec::testing;
using ir::ElementType;
using Doubles = std::vector<double>;

namespace {

TEST(ConvolutionTest, SpecExampleWithLhsDilation) {
  const char* program = R"(
func.func @main(%lhs: tensor<1x4x4x1xi64>, %rhs: tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64> {
  %r = stablehlo.convolution(%lhs, %rhs)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 2], rhs_dilate = [1, 1],
              reverse = [false, false]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  return %r : tensor<1x2x2x1xi64>
}
)";
  Tensor lhs = Tensor::fromInts(
      ElementType::I64, {1, 4, 4, 1},
      std::vector<int64_t>{1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17});
  Tensor rhs = Tensor::fromInts(ElementType::I64, {3, 3, 1, 1}, std::vector<int64_t>(9, 1));
  EXPECT_EQ(values(runOne(program, {lhs, rhs})), (Doubles{10, 26, 46, 62}));
}

// dynamic_conv takes its padding as an operand: [[1, -1]] adds a zero in front and drops the
// last element, so the 3-wide windows sum [0, 1, 2], [1, 2, 3] and [2, 3, 4].
TEST(ConvolutionTest, DynamicConvReadsPaddingOperand) {
  const char* program = R"(
func.func @main(%x: tensor<1x5x1xf32>, %w: tensor<3x1x1xf32>, %p: tensor<1x2xi64>) -> tensor<1x3x1xf32> {
  %r = "stablehlo.dynamic_conv"(%x, %w, %p) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x5x1xf32>, tensor<3x1x1xf32>, tensor<1x2xi64>) -> tensor<1x3x1xf32>
  return %r : tensor<1x3x1xf32>
}
)";
  Tensor pad = Tensor::fromInts(ElementType::I64, {1, 2}, std::vector<int64_t>{1, -1});
  Tensor r = runOne(program, {f32({1, 5, 1}, {1, 2, 3, 4, 5}), f32({3, 1, 1}, {1, 1, 1}), pad});
  EXPECT_EQ(values(r), (Doubles{3, 6, 9}));
}

// Positions of batch/feature (or input/output feature) and the two spatial dims in a rank-4
// tensor: `layout[0]` is where the batch (input feature) dim is, and so on.
using Layout = std::array<int, 4>;

struct ConvCase {
  const char* name;
  Layout lhsLayout, rhsLayout, outLayout; // lhs: b, f, 0, 1; rhs: i, o, 0, 1; out: b, f, 0, 1
  int64_t batch, inFeatures, outFeatures;
  std::array<int64_t, 2> in, kernel, stride, padLow, padHigh, lhsDilation, rhsDilation;
  std::array<bool, 2> reverse;
  int64_t featureGroups = 1, batchGroups = 1;

  std::array<int64_t, 2> outSpatial() const {
    std::array<int64_t, 2> out{};
    for (int d = 0; d < 2; ++d) {
      int64_t padded = (in[d] - 1) * lhsDilation[d] + 1 + padLow[d] + padHigh[d];
      int64_t window = (kernel[d] - 1) * rhsDilation[d] + 1;
      out[d] = padded < window ? 0 : (padded - window) / stride[d] + 1;
    }
    return out;
  }
};

// Names the case in gtest's failure messages instead of dumping its bytes.
void PrintTo(const ConvCase& c, std::ostream* os) { *os << c.name; }

// The shape of a rank-4 tensor whose logical dims (`sizes` in layout order) sit at `layout`.
std::vector<int64_t> placed(const Layout& layout, std::array<int64_t, 4> sizes) {
  std::vector<int64_t> shape(4);
  for (int k = 0; k < 4; ++k)
    shape[layout[k]] = sizes[k];
  return shape;
}

std::string dimsText(const Layout& layout, const char* first, const char* second) {
  std::array<std::string, 4> names;
  names[layout[0]] = first;
  names[layout[1]] = second;
  names[layout[2]] = "0";
  names[layout[3]] = "1";
  return "[" + names[0] + ", " + names[1] + ", " + names[2] + ", " + names[3] + "]";
}

std::string typeText(const std::vector<int64_t>& shape, const std::string& e) {
  std::string out = "tensor<";
  for (int64_t d : shape)
    out += std::to_string(d) + "x";
  return out + e + ">";
}

struct Shapes {
  std::vector<int64_t> lhs, rhs, out;
};

Shapes shapesOf(const ConvCase& c) {
  auto o = c.outSpatial();
  return {placed(c.lhsLayout, {c.batch, c.inFeatures, c.in[0], c.in[1]}),
          placed(c.rhsLayout,
                 {c.inFeatures / c.featureGroups, c.outFeatures, c.kernel[0], c.kernel[1]}),
          placed(c.outLayout, {c.batch / c.batchGroups, c.outFeatures, o[0], o[1]})};
}

std::string program(const ConvCase& c, const std::string& e) {
  Shapes s = shapesOf(c);
  auto pair = [](std::array<int64_t, 2> v) {
    return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "]";
  };
  std::string lhs = typeText(s.lhs, e), rhs = typeText(s.rhs, e), out = typeText(s.out, e);
  return "func.func @main(%lhs: " + lhs + ", %rhs: " + rhs + ") -> " + out + " {\n" +
         "  %r = stablehlo.convolution(%lhs, %rhs)\n    dim_numbers = " +
         dimsText(c.lhsLayout, "b", "f") + "x" + dimsText(c.rhsLayout, "i", "o") + "->" +
         dimsText(c.outLayout, "b", "f") + ",\n    window = {stride = " + pair(c.stride) +
         ", pad = [[" + std::to_string(c.padLow[0]) + ", " + std::to_string(c.padHigh[0]) + "], [" +
         std::to_string(c.padLow[1]) + ", " + std::to_string(c.padHigh[1]) +
         "]], lhs_dilate = " + pair(c.lhsDilation) + ", rhs_dilate = " + pair(c.rhsDilation) +
         ", reverse = [" + (c.reverse[0] ? "true" : "false") + ", " +
         (c.reverse[1] ? "true" : "false") +
         "]}\n    {batch_group_count = " + std::to_string(c.batchGroups) +
         " : i64, feature_group_count = " + std::to_string(c.featureGroups) + " : i64} : (" + lhs +
         ", " + rhs + ") -> " + out + "\n  return %r : " + out + "\n}\n";
}

// Element `logical` (in layout order) of a rank-4 tensor stored with `layout` and `strides`.
double at(const Tensor& t, const std::vector<int64_t>& strides, const Layout& layout,
          std::array<int64_t, 4> logical) {
  int64_t linear = 0;
  for (int k = 0; k < 4; ++k)
    linear += logical[k] * strides[layout[k]];
  return t.floatAt(linear);
}

// The spec's definition, one output element at a time: split lhs batch / features and rhs output
// features into groups, dilate and pad lhs, dilate and optionally reverse rhs, and take the dot
// product over each window.
Tensor naive(const ConvCase& c, const Tensor& lhs, const Tensor& rhs, ElementType e) {
  Shapes s = shapesOf(c);
  Tensor out(e, s.out);
  auto o = c.outSpatial();
  int64_t kernelIn = c.inFeatures / c.featureGroups;
  int64_t outBatch = c.batch / c.batchGroups;
  std::vector<int64_t> strides = out.strides();
  std::vector<int64_t> lhsStrides = lhs.strides(), rhsStrides = rhs.strides();
  for (int64_t n = 0; n < outBatch; ++n)
    for (int64_t f = 0; f < c.outFeatures; ++f)
      for (int64_t y0 = 0; y0 < o[0]; ++y0)
        for (int64_t y1 = 0; y1 < o[1]; ++y1) {
          int64_t featureGroup = f / (c.outFeatures / c.featureGroups);
          int64_t batchGroup = f / (c.outFeatures / c.batchGroups);
          double acc = 0;
          for (int64_t i = 0; i < kernelIn; ++i)
            for (int64_t k0 = 0; k0 < c.kernel[0]; ++k0)
              for (int64_t k1 = 0; k1 < c.kernel[1]; ++k1) {
                std::array<int64_t, 2> k = {k0, k1}, y = {y0, y1}, src{};
                bool inside = true;
                for (int d = 0; d < 2; ++d) {
                  int64_t p = y[d] * c.stride[d] + k[d] * c.rhsDilation[d] - c.padLow[d];
                  inside = inside && p >= 0 && p % c.lhsDilation[d] == 0 &&
                           p / c.lhsDilation[d] < c.in[d];
                  src[d] = p / c.lhsDilation[d];
                }
                if (!inside)
                  continue;
                int64_t r0 = c.reverse[0] ? c.kernel[0] - 1 - k0 : k0;
                int64_t r1 = c.reverse[1] ? c.kernel[1] - 1 - k1 : k1;
                acc +=
                    at(lhs, lhsStrides, c.lhsLayout,
                       {batchGroup * outBatch + n, featureGroup * kernelIn + i, src[0], src[1]}) *
                    at(rhs, rhsStrides, c.rhsLayout, {i, f, r0, r1});
              }
          std::array<int64_t, 4> logical = {n, f, y0, y1};
          int64_t linear = 0;
          for (int k = 0; k < 4; ++k)
            linear += logical[k] * strides[c.outLayout[k]];
          out.setFloat(linear, acc);
        }
  return out;
}

// Small integers keep every sum exact in each tested type, so results must match bit for bit
// whatever order BLAS adds in (ui8 operands saturate the negative draws to 0, and its sums stay
// below 256).
Tensor randomTensor(ElementType e, const std::vector<int64_t>& shape, std::mt19937& rng) {
  Tensor t(e, shape);
  std::uniform_int_distribution<int> dist(-3, 3);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.setFloat(i, dist(rng));
  return t;
}

const Layout kNhwc = {0, 3, 1, 2}, kHwio = {2, 3, 0, 1};

const ConvCase kCases[] = {
    {"Plain",
     kNhwc,
     kHwio,
     kNhwc,
     2,
     3,
     4,
     {5, 5},
     {3, 3},
     {1, 1},
     {0, 0},
     {0, 0},
     {1, 1},
     {1, 1},
     {false, false}},
    {"StridesAndPadding",
     kNhwc,
     kHwio,
     kNhwc,
     2,
     3,
     4,
     {7, 6},
     {3, 2},
     {2, 3},
     {1, 0},
     {2, 1},
     {1, 1},
     {1, 1},
     {false, false}},
    {"NegativePaddingDilationReversal",
     kNhwc,
     kHwio,
     kNhwc,
     1,
     2,
     3,
     {6, 5},
     {2, 3},
     {1, 2},
     {-1, 2},
     {2, -1},
     {2, 1},
     {1, 2},
     {true, false}},
    {"FeatureGroups",
     kNhwc,
     kHwio,
     kNhwc,
     2,
     6,
     6,
     {4, 5},
     {2, 2},
     {1, 1},
     {1, 1},
     {0, 0},
     {1, 1},
     {1, 1},
     {false, true},
     3,
     1},
    {"BatchGroups",
     kNhwc,
     kHwio,
     kNhwc,
     4,
     2,
     4,
     {4, 4},
     {3, 2},
     {1, 2},
     {0, 1},
     {1, 0},
     {1, 2},
     {2, 1},
     {false, false},
     1,
     2},
    {"UnusualLayouts",
     {2, 0, 3, 1},
     {3, 1, 0, 2},
     {1, 2, 3, 0},
     3,
     4,
     6,
     {5, 4},
     {2, 3},
     {2, 1},
     {0, 1},
     {1, 1},
     {1, 2},
     {2, 1},
     {true, true},
     2,
     1},
    {"EmptyBatch",
     kNhwc,
     kHwio,
     kNhwc,
     0,
     2,
     3,
     {4, 4},
     {2, 2},
     {1, 1},
     {0, 0},
     {0, 0},
     {1, 1},
     {1, 1},
     {false, false}},
};

// Cases large enough that the im2col matrix is built and multiplied in several chunks of rows.
// Their sums reach a few thousand: exact in every tested type but ui8.
const ConvCase kLargeCases[] = {
    // 3 x 18 x 18 = 972 rows of 3 x 3 x 64 columns: the im2col matrix is built and multiplied
    // in several row chunks (a 2 MB chunk holds 910 f32 rows, 455 f64 rows), the last partial.
    {"RowsAcrossChunks",
     kNhwc,
     kHwio,
     kNhwc,
     3,
     64,
     2,
     {18, 18},
     {3, 3},
     {1, 1},
     {1, 1},
     {1, 1},
     {1, 1},
     {1, 1},
     {false, false}},
    // Two feature groups read in place from an HWIO kernel and written in place into an NHWC
    // result, each group at its own column offset, across chunks.
    {"FeatureGroupsAcrossChunks",
     kNhwc,
     kHwio,
     kNhwc,
     2,
     128,
     4,
     {20, 20},
     {3, 3},
     {1, 1},
     {0, 0},
     {1, 0},
     {1, 1},
     {1, 1},
     {false, false},
     2,
     1},
    // An NCHW result is not row-major in (n, y, f): chunks go through a scratch and are scattered.
    {"ChannelsFirstResultAcrossChunks",
     kNhwc,
     kHwio,
     {0, 1, 2, 3},
     2,
     64,
     2,
     {22, 22},
     {3, 3},
     {1, 1},
     {0, 0},
     {0, 0},
     {1, 1},
     {1, 1},
     {false, false}},
};

class ConvolutionMatchesNaiveTest
    : public ::testing::TestWithParam<std::tuple<ConvCase, ElementType>> {};

TEST_P(ConvolutionMatchesNaiveTest, OnPseudoRandomData) {
  auto [c, e] = GetParam();
  std::mt19937 rng(7);
  Shapes s = shapesOf(c);
  Tensor lhs = randomTensor(e, s.lhs, rng);
  Tensor rhs = randomTensor(e, s.rhs, rng);
  Tensor r = runOne(program(c, std::string(ir::elementTypeName(e))), {lhs, rhs});
  CompareResult cmp = compareTensors(naive(c, lhs, rhs, e), r);
  EXPECT_TRUE(cmp.equal) << cmp.message;
}

// "Plain_f32": the case's name and the element type, for gtest's test names.
std::string caseName(const ::testing::TestParamInfo<std::tuple<ConvCase, ElementType>>& info) {
  return std::string(std::get<0>(info.param).name) + "_" +
         std::string(ir::elementTypeName(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvolutionMatchesNaiveTest,
                         ::testing::Combine(::testing::ValuesIn(kCases),
                                            ::testing::Values(ElementType::F32, ElementType::F64,
                                                              ElementType::F16, ElementType::BF16,
                                                              ElementType::I32, ElementType::UI8)),
                         caseName);

INSTANTIATE_TEST_SUITE_P(Large, ConvolutionMatchesNaiveTest,
                         ::testing::Combine(::testing::ValuesIn(kLargeCases),
                                            ::testing::Values(ElementType::F32, ElementType::F64,
                                                              ElementType::BF16, ElementType::I32)),
                         caseName);

TEST(ConvolutionTest, GroupCountThatDoesNotDivideIsReported) {
  ConvCase c = kCases[0];
  c.featureGroups = 2; // 3 input features do not split into 2 groups
  std::string text = program(c, "f32");
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  Interpreter interpreter(*module);
  std::mt19937 rng(1);
  Shapes s = shapesOf(c);
  EXPECT_FALSE(interpreter.run(
      "main",
      {randomTensor(ElementType::F32, s.lhs, rng), randomTensor(ElementType::F32, s.rhs, rng)},
      sink));
  ASSERT_FALSE(sink.diagnostics().empty());
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
}

} // namespace
