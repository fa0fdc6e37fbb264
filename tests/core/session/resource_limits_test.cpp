// The limits the CLI and the app share: a tensor beyond the byte limit, or a size that does not fit
// in 64 bits, is an error at its op; a mesh beyond the device limit is an error at its `sdy.mesh`.
#include "core/session/program.h"
#include "core/session/resource_limits.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

namespace {

std::unique_ptr<Program> programOf(const std::string& argType, support::CollectingSink& sink) {
  const std::string text = "sdy.mesh @mesh = <[\"x\"=2]>\n"
                           "\n"
                           "func.func @main(%arg0: " +
                           argType + ") -> " + argType +
                           " {\n"
                           "  %0 = stablehlo.negate %arg0 : " +
                           argType +
                           "\n"
                           "  return %0 : " +
                           argType + "\n}\n";
  return Program::fromText("limits.mlir", text, sink);
}

} // namespace

TEST(ResourceLimitsTest, ATensorBeyondTheLimitIsAnErrorAtTheOpOwningIt) {
  support::CollectingSink sink;
  auto program = programOf("tensor<70000x70000xf32>", sink);
  ASSERT_TRUE(program) << messages(sink);
  // 70000 * 70000 * 4 bytes = 19600000000 > 4 << 30 = 4294967296; the argument is the first
  // tensor met, owned by the function at line 3.
  EXPECT_FALSE(checkTensorSizes(program->asWritten(), kDefaultMaxTensorBytes, sink, "hint"));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'tensor<70000x70000xf32>' needs 19600000000 bytes, more than the limit of "
            "4294967296 (hint)");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 3u);
}

TEST(ResourceLimitsTest, TensorsWithinTheLimitPass) {
  support::CollectingSink sink;
  auto program = programOf("tensor<8x4xf32>", sink);
  ASSERT_TRUE(program) << messages(sink);
  // 8 * 4 * 4 = 128 bytes: exactly at a limit of 128, one byte over a limit of 127.
  EXPECT_TRUE(checkTensorSizes(program->asWritten(), 128, sink, "hint"));
  EXPECT_TRUE(sink.diagnostics().empty());
  EXPECT_FALSE(checkTensorSizes(program->asWritten(), 127, sink, "hint"));
}

TEST(ResourceLimitsTest, ASizeBeyond64BitsIsAnError) {
  support::CollectingSink sink;
  // 2^31 * 2^31 = 2^62 elements fit in 64 bits; their 2^64 bytes do not.
  auto program = programOf("tensor<2147483648x2147483648xf32>", sink);
  ASSERT_TRUE(program) << messages(sink);
  EXPECT_FALSE(checkTensorSizes(program->asWritten(), kDefaultMaxTensorBytes, sink, "hint"));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'tensor<2147483648x2147483648xf32>' has more bytes than fit in 64 bits");
}

TEST(ResourceLimitsTest, AMeshBeyondTheDeviceLimitIsAnErrorAtItsOp) {
  support::CollectingSink sink;
  auto program = programOf("tensor<8xf32>", sink);
  ASSERT_TRUE(program) << messages(sink);
  EXPECT_TRUE(checkMeshDevices(program->asWritten(), 2, sink, "hint"));
  EXPECT_FALSE(checkMeshDevices(program->asWritten(), 1, sink, "hint"));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "the mesh has 2 devices, more than the limit of 1 (hint)");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 1u);
}

TEST(ResourceLimitsTest, ATensorInsideATupleCountsAsATensor) {
  support::CollectingSink sink;
  auto program = Program::fromText("tuple.mlir",
                                   "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                                   "  %0 = stablehlo.custom_call @make(%arg0) : (tensor<4xf32>) -> "
                                   "tuple<tensor<4xf32>, tuple<tensor<70000x70000xf32>>>\n"
                                   "  return %arg0 : tensor<4xf32>\n}\n",
                                   sink);
  ASSERT_TRUE(program) << messages(sink);
  // The nested tensor: 70000 * 70000 * 4 = 19600000000 bytes, beyond 4 GiB.
  EXPECT_FALSE(checkTensorSizes(program->asWritten(), kDefaultMaxTensorBytes, sink, "hint"));
  ASSERT_EQ(sink.diagnostics().size(), 1u) << messages(sink);
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
  EXPECT_NE(sink.diagnostics()[0].message.find("'tensor<70000x70000xf32>' needs 19600000000 bytes"),
            std::string::npos)
      << sink.diagnostics()[0].message;
}

TEST(ResourceLimitsTest, AQuantizedTensorCountsItsLargerRepresentation) {
  support::CollectingSink sink;
  // i8 storage: 70000 * 70000 * 2 = 9.8e9 bytes; held as f32 while an op computes on it:
  // 39200000000 bytes. Either is beyond 4 GiB; before, a quantized type counted as nothing.
  auto program = programOf("tensor<70000x70000x2x!quant.uniform<i8:f32, 1.000000e-01>>", sink);
  ASSERT_TRUE(program) << messages(sink);
  EXPECT_FALSE(checkTensorSizes(program->asWritten(), kDefaultMaxTensorBytes, sink, "hint"));
  ASSERT_EQ(sink.diagnostics().size(), 1u) << messages(sink);
  EXPECT_NE(sink.diagnostics()[0].message.find("needs 39200000000 bytes"), std::string::npos)
      << sink.diagnostics()[0].message;
  // Within the limit, it passes: 1000 i8 elements, 4000 bytes as f32.
  support::CollectingSink small;
  auto fits = programOf("tensor<1000x!quant.uniform<i8:f32, 1.000000e-01>>", small);
  ASSERT_TRUE(fits) << messages(small);
  EXPECT_TRUE(checkTensorSizes(fits->asWritten(), 4000, small, "hint")) << messages(small);
  EXPECT_FALSE(checkTensorSizes(fits->asWritten(), 3999, small, "hint"));
}
