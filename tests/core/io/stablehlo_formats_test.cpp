// Round trips of the StableHLO pretty forms. Expected texts are sdy_opt's output as Shardy's
// FileCheck tests spell it (CHECK lines and inputs copied from sdy_opt output), with FileCheck
// captures replaced by the names they bind.
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shardscope;

namespace {

constexpr std::string_view kMesh = "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"a\"=2, \"b\"=2]>\n";

std::unique_ptr<ir::Module> parse(const std::string& text, support::CollectingSink& sink) {
  return io::mlir::parseModule(text, 1, sink);
}

// Parses `func.func @f<signature> { <ops> }` (after a mesh) and returns the printed body of the
// function: one line per printed line, without the function's indentation.
std::string body(std::string_view signature, std::string_view ops) {
  support::CollectingSink sink;
  std::string text = std::string(kMesh) + "func.func @f" + std::string(signature) + " {\n" +
                     std::string(ops) + "\n}\n";
  auto module = parse(text, sink);
  if (!module)
    return "error: " + (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  std::istringstream printed(io::mlir::printModule(*module));
  std::string line, out;
  bool inBody = false;
  while (std::getline(printed, line)) {
    if (line.starts_with("  func.func @f")) {
      inBody = true;
    } else if (inBody && line == "  }") {
      break;
    } else if (inBody) {
      out += line.substr(std::min<size_t>(4, line.size())) + "\n";
    }
  }
  return out;
}

struct ErrorAt {
  std::string message;
  uint32_t line = 0, column = 0;
};

// The first error of parsing `text` (lines counted from 1 in `text`).
ErrorAt firstError(const std::string& text) {
  support::CollectingSink sink;
  auto module = parse(text, sink);
  if (module || sink.diagnostics().empty())
    return {"no error", 0, 0};
  const support::Diagnostic& d = sink.diagnostics()[0];
  return {d.message, d.loc.line, d.loc.column};
}

// Returns the attribute `name` of the first op named `opName` in the parsed `text`, printed.
std::string storedAttr(const std::string& text, std::string_view opName, std::string_view name) {
  support::CollectingSink sink;
  auto module = parse(std::string(kMesh) + text, sink);
  if (!module)
    return "parse error";
  std::string result = "no such op";
  module->op().walk([&](ir::Operation& op) {
    if (op.is(opName) && result == "no such op")
      result = op.attr(name) ? op.attr(name).str() + (op.isInherent(name) ? " (inherent)" : "")
                             : "missing";
  });
  return result;
}

} // namespace

// --- Elementwise ------------------------------------------------------------------------------

TEST(StablehloFormatsTest, UnaryElementwiseWithSharding) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<8x16x2xf32>) -> tensor<8x16x2xf32>",
          R"(%0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x2xf32>
return %0 : tensor<8x16x2xf32>)"),
      R"(%0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : tensor<8x16x2xf32>
return %0 : tensor<8x16x2xf32>
)");
}

TEST(StablehloFormatsTest, GenericBinaryOpPrintsPretty) {
  EXPECT_EQ(body("(%arg0: tensor<i64>, %arg1: tensor<i64>) -> tensor<i64>",
                 R"(%0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
return %0 : tensor<i64>)"),
            "%0 = stablehlo.add %arg0, %arg1 : tensor<i64>\nreturn %0 : tensor<i64>\n");
}

TEST(StablehloFormatsTest, ConvertPrintsFunctionalTypeWhenTypesDiffer) {
  EXPECT_EQ(body("() -> tensor<i32>", R"(%part_id = stablehlo.partition_id : tensor<ui32>
%part_id_i32 = stablehlo.convert %part_id : (tensor<ui32>) -> tensor<i32>
return %part_id_i32 : tensor<i32>)"),
            R"(%0 = stablehlo.partition_id : tensor<ui32>
%1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i32>
return %1 : tensor<i32>
)");
}

TEST(StablehloFormatsTest, ReshapeAndBitcastAlwaysPrintFunctionalType) {
  EXPECT_EQ(body("(%arg0: tensor<4x2x2xui32>) -> tensor<4x2xui64>",
                 R"(%0 = stablehlo.bitcast_convert %arg0 : (tensor<4x2x2xui32>) ->tensor<4x2x2xui32>
%1 = stablehlo.bitcast_convert %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x2x2xui32>) -> tensor<4x2xui64>
%2 = stablehlo.reshape %1 : (tensor<4x2xui64>) -> tensor<4x2xui64>
return %2 : tensor<4x2xui64>)"),
            R"(%0 = stablehlo.bitcast_convert %arg0 : (tensor<4x2x2xui32>) -> tensor<4x2x2xui32>
%1 = stablehlo.bitcast_convert %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<4x2x2xui32>) -> tensor<4x2xui64>
%2 = stablehlo.reshape %1 : (tensor<4x2xui64>) -> tensor<4x2xui64>
return %2 : tensor<4x2xui64>
)");
}

TEST(StablehloFormatsTest, SelectAndClamp) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<i1>, %arg1: tensor<4x8xf32>, %arg2: tensor<f32>) -> tensor<4x8xf32>",
          R"(%0 = stablehlo.select %arg0, %arg1, %arg1 : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
%1 = stablehlo.clamp %arg2, %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>}: (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
%2 = stablehlo.clamp %1, %1, %1 : tensor<4x8xf32>
return %2 : tensor<4x8xf32>)"),
      R"(%0 = stablehlo.select %arg0, %arg1, %arg1 : tensor<i1>, tensor<4x8xf32>
%1 = stablehlo.clamp %arg2, %0, %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : (tensor<f32>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
%2 = stablehlo.clamp %1, %1, %1 : tensor<4x8xf32>
return %2 : tensor<4x8xf32>
)");
}

TEST(StablehloFormatsTest, ComplexRealImag) {
  EXPECT_EQ(body("(%arg0: tensor<2xf32>) -> tensor<2xf32>",
                 R"(%0 = stablehlo.complex %arg0, %arg0 : tensor<2xcomplex<f32>>
%1 = stablehlo.real %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
%2 = stablehlo.imag %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
%3 = stablehlo.add %1, %2 : tensor<2xf32>
return %3 : tensor<2xf32>)"),
            R"(%0 = stablehlo.complex %arg0, %arg0 : tensor<2xcomplex<f32>>
%1 = stablehlo.real %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
%2 = stablehlo.imag %0 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
%3 = stablehlo.add %1, %2 : tensor<2xf32>
return %3 : tensor<2xf32>
)");
}

TEST(StablehloFormatsTest, TupleOps) {
  EXPECT_EQ(body("(%arg0: tensor<2xf32>) -> tensor<2xf32>",
                 R"(%0 = stablehlo.tuple %arg0 : tuple<tensor<2xf32>>
%1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<2xf32>>) -> tensor<2xf32>
return %1 : tensor<2xf32>)"),
            R"(%0 = stablehlo.tuple %arg0 : tuple<tensor<2xf32>>
%1 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<2xf32>>) -> tensor<2xf32>
return %1 : tensor<2xf32>
)");
}

TEST(StablehloFormatsTest, OptimizationBarrierPrintsAttributesFirst) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32>",
          R"(%0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{"b"}, {}]>]>} %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
return %0#0 : tensor<8x8xf32>)"),
      R"(%0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{"b"}, {}]>]>} %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
return %0#0 : tensor<8x8xf32>
)");
}

// --- Attributes after the operands ------------------------------------------------------------

TEST(StablehloFormatsTest, CompareStoresEnumsAndPrintsDoubleSpaces) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i1>",
          R"(%p = "stablehlo.compare"(%arg0, %arg1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
%q = stablehlo.compare GE, %arg0, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
return %q : tensor<i1>)"),
      R"(%0 = stablehlo.compare  LT, %arg0, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
%1 = stablehlo.compare  GE, %arg0, %arg1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
return %1 : tensor<i1>
)");
  std::string text = R"(func.func @f(%a: tensor<f32>) -> tensor<i1> {
  %0 = stablehlo.compare LT, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
})";
  EXPECT_EQ(storedAttr(text, "stablehlo.compare", "comparison_direction"),
            "#stablehlo<comparison_direction LT> (inherent)");
  EXPECT_EQ(storedAttr(text, "stablehlo.compare", "compare_type"),
            "#stablehlo<comparison_type FLOAT> (inherent)");
}

TEST(StablehloFormatsTest, BroadcastTransposeReverse) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<2x3x5x1x7xf32>, %arg1: tensor<f32>, %arg2: tensor<4x8x16xf32>, "
          "%arg3: tensor<4x32x8x2xf32>) -> tensor<4x16x8xf32>",
          R"(%0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 1, 3, 4] : (tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32>
%1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x1x13xf32>
%2 = stablehlo.transpose %arg2, dims = [0, 2, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}, {"a"}]>]>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
%3 = stablehlo.reverse %arg3, dims = [1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}, {"y"}]>]>} : (tensor<4x32x8x2xf32>) -> tensor<4x32x8x2xf32>
return %2 : tensor<4x16x8xf32>)"),
      R"(%0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 1, 3, 4] : (tensor<2x3x5x1x7xf32>) -> tensor<2x5x3x11x7x13xf32>
%1 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<2x1x13xf32>
%2 = stablehlo.transpose %arg2, dims = [0, 2, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}, {"a"}]>]>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
%3 = stablehlo.reverse %arg3, dims = [1, 3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}, {"y"}]>]>} : tensor<4x32x8x2xf32>
return %2 : tensor<4x16x8xf32>
)");
  EXPECT_EQ(storedAttr("func.func @f(%a: tensor<2xf32>) -> tensor<2x3xf32> {\n"
                       "  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<2xf32>) -> "
                       "tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>\n}",
                       "stablehlo.broadcast_in_dim", "broadcast_dimensions"),
            "array<i64: 0> (inherent)");
}

TEST(StablehloFormatsTest, DynamicBroadcastInDimFromPrettyAndGeneric) {
  // StableHLO's assembly format: `$operand, $output_dimensions, dims = [...] attr-dict`; the
  // known (non)expanding dimensions stay in the attribute dictionary.
  EXPECT_EQ(
      body("(%arg0: tensor<2xf32>, %arg1: tensor<2xi64>) -> tensor<?x2xf32>",
           R"(%0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1] {known_expanding_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
%1 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
return %1 : tensor<?x2xf32>)"),
      R"(%0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1] {known_expanding_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
%1 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1] : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
return %1 : tensor<?x2xf32>
)");
}

TEST(StablehloFormatsTest, ConcatenateFromPrettyAndGeneric) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<4x32x256xf32>, %arg1: tensor<4x48x256xf32>) -> tensor<4x80x256xf32>",
          R"(%0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}, {}]>]>} : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
%1 = "stablehlo.concatenate"(%arg0, %arg1) {dimension = 1 : i64} : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
return %1 : tensor<4x80x256xf32>)"),
      R"(%0 = stablehlo.concatenate %arg0, %arg1, dim = 1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}, {}]>]>} : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
%1 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<4x32x256xf32>, tensor<4x48x256xf32>) -> tensor<4x80x256xf32>
return %1 : tensor<4x80x256xf32>
)");
}

TEST(StablehloFormatsTest, SliceOmitsUnitStrides) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<32x4x8xf32>, %arg1: tensor<4xi32>) -> tensor<2xi32>",
          R"(%0 = stablehlo.slice %arg0 [0:32, 1:2, 4:8:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}, {?}]>]>} : (tensor<32x4x8xf32>) -> tensor<32x1x2xf32>
%s1 = "stablehlo.slice"(%arg1) {start_indices = array<i64: 2>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<4xi32>) -> tensor<2xi32>
return %s1 : tensor<2xi32>)"),
      R"(%0 = stablehlo.slice %arg0 [0:32, 1:2, 4:8:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}, {?}]>]>} : (tensor<32x4x8xf32>) -> tensor<32x1x2xf32>
%1 = stablehlo.slice %arg1 [2:4] : (tensor<4xi32>) -> tensor<2xi32>
return %1 : tensor<2xi32>
)");
  EXPECT_EQ(storedAttr("func.func @f(%a: tensor<8xf32>) -> tensor<2xf32> {\n"
                       "  %0 = stablehlo.slice %a [2:6:2] : (tensor<8xf32>) -> tensor<2xf32>\n"
                       "  return %0 : tensor<2xf32>\n}",
                       "stablehlo.slice", "strides"),
            "array<i64: 2> (inherent)");
}

TEST(StablehloFormatsTest, PadAndDynamicSlices) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<28x28x16xf32>, %arg1: tensor<f32>, %arg2: tensor<32x8x8xf32>, "
          "%arg3: tensor<i32>, %arg4: tensor<32x4x2xf32>) -> tensor<32x8x8xf32>",
          R"(%0 = stablehlo.pad %arg0, %arg1, low = [1, -1, 0], high = [1, 1, 0], interior = [0, 0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<28x28x16xf32>, tensor<f32>) -> tensor<30x28x16xf32>
%1 = stablehlo.dynamic_slice %arg2, %arg3, %arg3, %arg3, sizes = [32, 4, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<32x8x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x4x2xf32>
%2 = stablehlo.dynamic_update_slice %arg2, %arg4, %arg3, %arg3, %arg3 : (tensor<32x8x8xf32>, tensor<32x4x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x8x8xf32>
return %2 : tensor<32x8x8xf32>)"),
      R"(%0 = stablehlo.pad %arg0, %arg1, low = [1, -1, 0], high = [1, 1, 0], interior = [0, 0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {"y"}]>]>} : (tensor<28x28x16xf32>, tensor<f32>) -> tensor<30x28x16xf32>
%1 = stablehlo.dynamic_slice %arg2, %arg3, %arg3, %arg3, sizes = [32, 4, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<32x8x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x4x2xf32>
%2 = stablehlo.dynamic_update_slice %arg2, %arg4, %arg3, %arg3, %arg3 : (tensor<32x8x8xf32>, tensor<32x4x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<32x8x8xf32>
return %2 : tensor<32x8x8xf32>
)");
}

TEST(StablehloFormatsTest, IotaFftCholeskyRng) {
  EXPECT_EQ(body("(%arg0: tensor<128x32x64xcomplex<f32>>, %arg1: tensor<8x4x8x8xf32>, "
                 "%arg2: tensor<2xui64>) -> tensor<16xi32>",
                 R"(%input_seq = stablehlo.iota dim = 0 : tensor<16xi32>
%0 = stablehlo.fft %arg0, type = FFT, length = [32, 64] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<128x32x64xcomplex<f32>>) -> tensor<128x32x64xcomplex<f32>>
%1 = stablehlo.cholesky %arg1, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}, {}]>]>} : (tensor<8x4x8x8xf32>) -> tensor<8x4x8x8xf32>
%2, %3 = stablehlo.rng_bit_generator %arg2, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x1000xui32>)
return %input_seq : tensor<16xi32>)"),
            R"(%0 = stablehlo.iota dim = 0 : tensor<16xi32>
%1 = stablehlo.fft %arg0, type =  FFT, length = [32, 64] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}]>]>} : (tensor<128x32x64xcomplex<f32>>) -> tensor<128x32x64xcomplex<f32>>
%2 = stablehlo.cholesky %arg1, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", "y"}, {}, {}, {}]>]>} : tensor<8x4x8x8xf32>
%output_state, %output = stablehlo.rng_bit_generator %arg2, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x1000xui32>)
return %0 : tensor<16xi32>
)");
}

// --- dot, dot_general, convolution, custom_call -----------------------------------------------

TEST(StablehloFormatsTest, DotAndDotGeneral) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<32x1024xf32>, %arg1: tensor<1024x16xf32>, %arg2: "
          "tensor<16x32x64xf32>, %arg3: tensor<32x64x128xf32>) -> tensor<32x16xf32>",
          R"(%0 = stablehlo.dot %arg0, %arg1, precision = [DEFAULT, DEFAULT] : (tensor<32x1024xf32>, tensor<1024x16xf32>) -> tensor<32x16xf32>
%1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1, 2] x [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>} : (tensor<16x32x64xf32>, tensor<32x64x128xf32>) -> tensor<16x128xf32>
%2 = "stablehlo.dot_general"(%arg0, %arg1) {
  dot_dimension_numbers = #stablehlo.dot<
    lhs_contracting_dimensions = [1],
    rhs_contracting_dimensions = [0]
  >
} : (tensor<32x1024xf32>, tensor<1024x16xf32>) -> tensor<32x16xf32>
return %2 : tensor<32x16xf32>)"),
      R"(%0 = stablehlo.dot %arg0, %arg1, precision = [DEFAULT, DEFAULT] : (tensor<32x1024xf32>, tensor<1024x16xf32>) -> tensor<32x16xf32>
%1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1, 2] x [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>]>} : (tensor<16x32x64xf32>, tensor<32x64x128xf32>) -> tensor<16x128xf32>
%2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x1024xf32>, tensor<1024x16xf32>) -> tensor<32x16xf32>
return %2 : tensor<32x16xf32>
)");
}

TEST(StablehloFormatsTest, DotGeneralBatchingPrecisionAndAlgorithm) {
  std::string op =
      "%0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] "
      "x [1], precision = [DEFAULT, HIGHEST], algorithm = <lhs_precision_type = tf32, "
      "rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, "
      "rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = "
      "false> : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>";
  EXPECT_EQ(body("(%arg0: tensor<4x8x32xf32>, %arg1: tensor<4x32x16xf32>) -> tensor<4x8x16xf32>",
                 op + "\nreturn %0 : tensor<4x8x16xf32>"),
            op + "\nreturn %0 : tensor<4x8x16xf32>\n");
  std::string fn = "func.func @f(%arg0: tensor<4x8x32xf32>, %arg1: tensor<4x32x16xf32>) -> "
                   "tensor<4x8x16xf32> {\n" +
                   op + "\nreturn %0 : tensor<4x8x16xf32>\n}";
  EXPECT_EQ(storedAttr(fn, "stablehlo.dot_general", "dot_dimension_numbers"),
            "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
            "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]> (inherent)");
  EXPECT_EQ(storedAttr(fn, "stablehlo.dot_general", "precision_config"),
            "[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>] (inherent)");
}

TEST(StablehloFormatsTest, ConvolutionWindow) {
  EXPECT_EQ(
      body("(%arg0: tensor<2x224x224x192xf32>, %arg1: tensor<3x3x192x64xf32>) -> "
           "tensor<2x112x112x64xf32>",
           R"(%0 = stablehlo.convolution(%arg0, %arg1)
    dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {
      batch_group_count = 1 : i64,
      feature_group_count = 1 : i64,
      lhs_dilations = dense<1> : tensor<2xi64>,
      rhs_dilations = dense<1> : tensor<2xi64>
    } : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32>
%1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x222x222x64xf32>
return %0 : tensor<2x112x112x64xf32>)"),
      R"(%0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, lhs_dilations = dense<1> : tensor<2xi64>, rhs_dilations = dense<1> : tensor<2xi64>} : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x112x112x64xf32>
%1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x224x224x192xf32>, tensor<3x3x192x64xf32>) -> tensor<2x222x222x64xf32>
return %0 : tensor<2x112x112x64xf32>
)");
}

TEST(StablehloFormatsTest, CustomCall) {
  EXPECT_EQ(
      body(
          "(%arg0: tensor<8xf32>, %arg1: tensor<8x2xui32>) -> tensor<8xf32>",
          R"(%0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>
%1 = stablehlo.custom_call @X64Combine(%arg1, %arg1) {backend_config = "", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x2xui32>, tensor<8x2xui32>) -> tensor<8x2xui64>
stablehlo.custom_call @foo(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<8xf32>) -> ()
%2 = stablehlo.custom_call @mhlo.erf (%arg0) {api_version = 1 : i32, has_side_effect = false} : (tensor<8xf32>) -> tensor<8xf32>
%3 = stablehlo.custom_call @"not-valid-id"(%2) : (tensor<8xf32>) -> tensor<8xf32>
return %3 : tensor<8xf32>)"),
      R"(%0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>
%1 = stablehlo.custom_call @X64Combine(%arg1, %arg1) {backend_config = "", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<8x2xui32>, tensor<8x2xui32>) -> tensor<8x2xui64>
stablehlo.custom_call @foo(%0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>]>} : (tensor<8xf32>) -> ()
%2 = stablehlo.custom_call @mhlo.erf(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
%3 = stablehlo.custom_call @"not-valid-id"(%2) : (tensor<8xf32>) -> tensor<8xf32>
return %3 : tensor<8xf32>
)");
  EXPECT_EQ(storedAttr("func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
                       "  %0 = stablehlo.custom_call @foo(%a) {backend_config = \"x\"} : "
                       "(tensor<8xf32>) -> tensor<8xf32>\n  return %0 : tensor<8xf32>\n}",
                       "stablehlo.custom_call", "backend_config"),
            "\"x\" (inherent)");
}

// --- Regions ----------------------------------------------------------------------------------

TEST(StablehloFormatsTest, CompactReduce) {
  EXPECT_EQ(body("(%arg0: tensor<2x64x13xf32>) -> tensor<2x13xf32>",
                 R"(%0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
%1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>
return %1 : tensor<2x13xf32>)"),
            R"(%cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
%0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"x"}>]>} : (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>
return %0 : tensor<2x13xf32>
)");
}

TEST(StablehloFormatsTest, ReduceWithReducerRegion) {
  EXPECT_EQ(body("(%arg0: tensor<4x64x8xf32>, %arg1: tensor<4x64x8xf32>) -> tensor<4x8xf32>",
                 R"(%0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
%1:2 = stablehlo.reduce(%arg0 init: %0), (%arg1 init: %0) across dimensions = [1]
  {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>, <@mesh, [{?}, {"b", ?}]>]>} :
  (tensor<4x64x8xf32>, tensor<4x64x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
    %2 = stablehlo.add %arg2, %arg4 : tensor<f32>
    %3 = stablehlo.add %arg3, %arg5 : tensor<f32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<f32>
  }
return %1#0 : tensor<4x8xf32>)"),
            R"(%cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
%0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %cst) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>, <@mesh, [{?}, {"b", ?}]>]>} : (tensor<4x64x8xf32>, tensor<4x64x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
 reducer(%arg2: tensor<f32>, %arg4: tensor<f32>) (%arg3: tensor<f32>, %arg5: tensor<f32>)  {
  %1 = stablehlo.add %arg2, %arg4 : tensor<f32>
  %2 = stablehlo.add %arg3, %arg5 : tensor<f32>
  stablehlo.return %1, %2 : tensor<f32>, tensor<f32>
}
return %0#0 : tensor<4x8xf32>
)");
}

// Any body made of one commutative op on the block arguments prints compact, even when it was
// written out as a region.
TEST(StablehloFormatsTest, ReduceRegionOfOneCommutativeOpPrintsCompact) {
  EXPECT_EQ(
      body("(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4xf32>",
           R"(%0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
return %0 : tensor<4xf32>)"),
      R"(%0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
return %0 : tensor<4xf32>
)");
  // A non-commutative body keeps the region form.
  EXPECT_EQ(
      body("(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4xf32>",
           R"(%0 = "stablehlo.reduce"(%arg0, %arg1) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.subtract %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
return %0 : tensor<4xf32>)"),
      R"(%0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
 reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
  %1 = stablehlo.subtract %arg2, %arg3 : tensor<f32>
  stablehlo.return %1 : tensor<f32>
}
return %0 : tensor<4xf32>
)");
}

TEST(StablehloFormatsTest, WhileNamesBlockArgumentsIterArg) {
  EXPECT_EQ(body("(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32>",
                 R"(%0 = stablehlo.constant dense<0> : tensor<i32>
%inc = stablehlo.constant dense<1> : tensor<i32>
%comp = stablehlo.constant dense<32> : tensor<i32>
%1:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %0) : tensor<16x16xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
  cond {
  %3 = stablehlo.compare  LT, %iterArg_2, %comp : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.return %3 : tensor<i1>
} do {
  %3 = stablehlo.add %iterArg_2, %inc : tensor<i32>
  %4 = stablehlo.add %iterArg, %iterArg : tensor<16x16xf32>
  stablehlo.return %4, %3 : tensor<16x16xf32>, tensor<i32>
}
return %1#0 : tensor<16x16xf32>)"),
            R"(%c = stablehlo.constant dense<0> : tensor<i32>
%c_0 = stablehlo.constant dense<1> : tensor<i32>
%c_1 = stablehlo.constant dense<32> : tensor<i32>
%0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c) : tensor<16x16xf32>, tensor<i32> attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, []>]>}
 cond {
  %1 = stablehlo.compare  LT, %iterArg_2, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.return %1 : tensor<i1>
} do {
  %1 = stablehlo.add %iterArg_2, %c_0 : tensor<i32>
  %2 = stablehlo.add %iterArg, %iterArg : tensor<16x16xf32>
  stablehlo.return %2, %1 : tensor<16x16xf32>, tensor<i32>
}
return %0#0 : tensor<16x16xf32>
)");
}

// --- Generic-only ops -------------------------------------------------------------------------

TEST(StablehloFormatsTest, GenericOpsMoveInherentAttributesIntoProperties) {
  EXPECT_EQ(body("(%arg0: tensor<1x4x1xi32>) -> tensor<1x4x1xi32>",
                 R"(%0 = "stablehlo.sort"(%arg0) ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
      %1 = stablehlo.compare GT, %arg2, %arg3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
return %0 : tensor<1x4x1xi32>)"),
            R"(%0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
  %1 = stablehlo.compare  GT, %arg1, %arg2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.return %1 : tensor<i1>
}) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
return %0 : tensor<1x4x1xi32>
)");
}

// --- Malformed input ----------------------------------------------------------------------------

TEST(StablehloFormatsTest, ReportsLocatedSyntaxErrors) {
  auto errorIn = [](std::string_view op) {
    return firstError("func.func @f(%a: tensor<4xf32>, %i: tensor<i32>) {\n  " + std::string(op) +
                      "\n  return\n}");
  };
  ErrorAt e = errorIn("%0 = stablehlo.compare XX, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> "
                      "tensor<4xi1>");
  EXPECT_EQ(e.message, "expected comparison_direction to be one of: EQ, NE, GE, GT, LE, LT");
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 26u);
  e = errorIn("%0 = stablehlo.slice %a [0 2] : (tensor<4xf32>) -> tensor<2xf32>");
  EXPECT_EQ(e.message, "expected ':'");
  EXPECT_EQ(e.column, 30u);
  e = errorIn("%0 = stablehlo.add %a : tensor<4xf32>");
  EXPECT_EQ(e.message, "expected ','");
  e = errorIn("%0 = stablehlo.reshape %a : tensor<4xf32>");
  EXPECT_EQ(e.message, "expected '('");
  EXPECT_EQ(e.column, 31u);
  e = errorIn("%0 = stablehlo.dot_general %a, %a, batching_dims = [0] x [0] : "
              "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>");
  EXPECT_EQ(e.message, "expected ','");
  e = errorIn("%0 = stablehlo.dot_general %a, %a, contracting_dims = [0] [0] : "
              "(tensor<4xf32>, tensor<4xf32>) -> tensor<f32>");
  EXPECT_EQ(e.message, "expected 'x'");
  e = errorIn("%0 = stablehlo.select %i, %a, %a : tensor<i1>, tensor<4xf32>, tensor<4xf32>");
  EXPECT_EQ(e.message, "expected functional type or list of two types");
}

TEST(StablehloFormatsTest, ReportsMalformedRegionOps) {
  auto errorIn = [](std::string_view op) {
    return firstError("func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) {\n  " + std::string(op) +
                      "\n  return\n}");
  };
  ErrorAt e = errorIn("%0 = stablehlo.reduce(%a init: %i) applies stablehlo.subtract across "
                      "dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>");
  EXPECT_EQ(e.message, "expected the inner-op to be a commutative binary-op from the stablehlo "
                       "dialect, with zero region, producing single result");
  EXPECT_EQ(e.column, 46u);
  e = errorIn("%0 = stablehlo.reduce(%a init %i) across dimensions = [0] : "
              "(tensor<4xf32>, tensor<f32>) -> tensor<f32>");
  EXPECT_EQ(e.message, "expected ':'");
  e = errorIn("%0 = stablehlo.while(%x = %a) : tensor<4xf32> {\n  stablehlo.return %x : "
              "tensor<4xf32>\n}");
  EXPECT_EQ(e.message, "expected 'cond'");
  e = errorIn("%0 = stablehlo.convolution(%a, %a) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], "
              "window = {foo = [1]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>");
  EXPECT_EQ(e.message, "Unexpected keyword foo");
  e = errorIn("%0 = stablehlo.custom_call @foo %a : (tensor<4xf32>) -> tensor<4xf32>");
  EXPECT_EQ(e.message, "expected '('");
  e = errorIn("%0 = stablehlo.fft %a, type = DFT, length = [4] : (tensor<4xf32>) -> "
              "tensor<4xf32>");
  EXPECT_EQ(e.message, "expected fft_type to be one of: FFT, IFFT, RFFT, IRFFT");
}

TEST(StablehloFormatsTest, CommentsInsideMultiLineAttributesAreWhitespace) {
  // As in Shardy's scatter tests: a `//` comment ends at the line's end and is not printed.
  std::string printed = body(
      "(%arg0: tensor<4xf32>) -> tensor<4xf32>",
      "  %0 = \"stablehlo.foo\"(%arg0) {dims = #stablehlo.scatter<\n"
      "      update_window_dims = [1],\n"
      "      inserted_window_dims = [0], // rows are inserted\n"
      "      index_vector_dim = 1\n"
      "    >} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>");
  EXPECT_NE(printed.find("#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = "
                         "[0], index_vector_dim = 1>"),
            std::string::npos)
      << printed;
  EXPECT_EQ(printed.find("rows"), std::string::npos) << printed;
}
