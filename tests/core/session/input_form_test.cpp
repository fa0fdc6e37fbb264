// Telling the input forms apart when a program loads, and the warning for a module compiled for
// several partitions that carries no sharding ShardScope can read.
#include "core/io/mlir/mlir.h"
#include "core/session/program.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

namespace {

InputForm formOf(const std::string& text) {
  support::CollectingSink sink;
  support::SourceManager sources;
  uint32_t fileId = sources.addBuffer("test.mlir", text);
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(sources.text(fileId), fileId, sink);
  EXPECT_TRUE(module) << messages(sink);
  return module ? detectInputForm(*module) : InputForm::Unsharded;
}

} // namespace

TEST(InputFormTest, ShardyDialect) {
  EXPECT_EQ(formOf(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            InputForm::Shardy);
}

TEST(InputFormTest, GspmdStringOnAResult) {
  // Only the result carries a sharding: the scan must look into `res_attrs` too.
  EXPECT_EQ(formOf(R"(
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) {
  return %arg0 : tensor<8xf32>
})"),
            InputForm::Gspmd);
}

TEST(InputFormTest, GspmdShardingCustomCall) {
  EXPECT_EQ(formOf(R"(
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
})"),
            InputForm::Gspmd);
}

TEST(InputFormTest, RoundTripFrontendAttributesWinOverShardy) {
  // The round-trip form must be imported even when the module also holds Shardy attributes.
  EXPECT_EQ(formOf(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\"x\"}]>"}}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            InputForm::ShardyRoundTrip);
}

TEST(InputFormTest, OtherFrontendAttributesAreNotRoundTrip) {
  EXPECT_EQ(formOf(R"(
func.func @main(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {_xla_compute_type = "host"}}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
})"),
            InputForm::Unsharded);
}

TEST(InputFormTest, PartitionedModuleWithoutShardingsIsAWarning) {
  support::CollectingSink sink;
  auto program = Program::fromText("parts.mlir", R"(module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
})",
                                   sink);
  ASSERT_TRUE(program) << messages(sink);
  EXPECT_EQ(program->inputForm(), InputForm::Unsharded);
  ASSERT_EQ(sink.diagnostics().size(), 1u) << messages(sink);
  const support::Diagnostic& warning = sink.diagnostics()[0];
  EXPECT_EQ(warning.severity, support::Severity::Warning);
  EXPECT_EQ(warning.loc.line, 1u);
  EXPECT_NE(warning.message.find("mhlo.num_partitions = 8"), std::string::npos) << warning.message;
}

TEST(InputFormTest, SinglePartitionModuleLoadsQuietly) {
  support::CollectingSink sink;
  auto program = Program::fromText("one.mlir", R"(module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
})",
                                   sink);
  ASSERT_TRUE(program) << messages(sink);
  EXPECT_TRUE(sink.diagnostics().empty()) << messages(sink);
}
