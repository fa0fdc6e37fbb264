// `importGspmdProgram` / `hasGspmdShardings`: the loading entry point. Unreadable shardings are
// located warnings and stay in place; readable ones are imported as XLA's pass imports them.
#include "core/import/gspmd/gspmd_program.h"
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

std::unique_ptr<ir::Module> parse(std::string_view text) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  EXPECT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  return module;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(GspmdProgramTest, DetectsGspmdShardings) {
  auto plain = parse("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                     "  return %arg0 : tensor<8xf32>\n}\n");
  ASSERT_TRUE(plain);
  EXPECT_FALSE(import_::hasGspmdShardings(*plain));
  auto onResult = parse("func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> "
                        "{mhlo.sharding = \"{replicated}\"}) {\n"
                        "  return %arg0 : tensor<8xf32>\n}\n");
  ASSERT_TRUE(onResult);
  EXPECT_TRUE(import_::hasGspmdShardings(*onResult));
  auto onOp = parse("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
                    "  %0 = stablehlo.abs %arg0 {mhlo.sharding = \"{devices=[2]<=[2]}\"} : "
                    "tensor<8xf32>\n  return %0 : tensor<8xf32>\n}\n");
  ASSERT_TRUE(onOp);
  EXPECT_TRUE(import_::hasGspmdShardings(*onOp));
}

TEST(GspmdProgramTest, ImportsMeshesAndShardings) {
  auto module = parse(
      "func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = \"{devices=[4,8]<=[8,4]T(1,0)}\"},"
      " %arg1: tensor<8x8xf32> {mhlo.sharding = \"{maximal device=2}\"}) -> tensor<8x8xf32> {\n"
      "  %0 = stablehlo.add %arg0, %arg1 {mhlo.sharding = \"{devices=[8,1,4]<=[32] "
      "last_tile_dim_replicate}\"} : tensor<8x8xf32>\n"
      "  return %0 : tensor<8x8xf32>\n}\n");
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  EXPECT_TRUE(import_::importGspmdProgram(*module, sink));
  EXPECT_TRUE(sink.diagnostics().empty());
  EXPECT_FALSE(import_::hasGspmdShardings(*module));
  std::string printed = io::mlir::printModule(*module);
  EXPECT_TRUE(contains(printed, "sdy.mesh @mesh = <[\"axis_0\"=8, \"axis_1\"=4]>")) << printed;
  EXPECT_TRUE(contains(printed, "sdy.mesh @single_device_2 = <[], device_ids=[2]>")) << printed;
  EXPECT_TRUE(contains(printed, "#sdy.sharding<@mesh, [{\"axis_1\"}, {\"axis_0\"}]>")) << printed;
  EXPECT_TRUE(contains(printed, "#sdy.sharding<@single_device_2, []>")) << printed;
  EXPECT_TRUE(contains(printed, "<@mesh, [{\"axis_0\"}, {}]>")) << printed;
}

TEST(GspmdProgramTest, UnreadableShardingsAreLocatedWarningsAndKept) {
  auto module = parse(
      "func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = \"{devices=[2]<=[2]}\"}) -> "
      "tensor<8xf32> {\n"
      "  %0 = stablehlo.abs %arg0 {mhlo.sharding = \"{devices=[2]0,1,2}\"} : tensor<8xf32>\n"
      "  %1 = stablehlo.abs %0 {mhlo.sharding = \"{devices=[3]<=[3]}\"} : tensor<8xf32>\n"
      "  return %1 : tensor<8xf32>\n}\n");
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  EXPECT_TRUE(import_::importGspmdProgram(*module, sink));
  ASSERT_EQ(sink.diagnostics().size(), 2u);
  const support::Diagnostic& first = sink.diagnostics()[0];
  EXPECT_EQ(first.severity, support::Severity::Warning);
  EXPECT_EQ(first.loc.line, 2u);
  EXPECT_EQ(first.loc.column, 3u); // where the op starts, at its results
  EXPECT_EQ(first.message,
            "cannot import 'mhlo.sharding' of 'stablehlo.abs': \"{devices=[2]0,1,2}\": "
            "devices=[...] lists 3 devices, the tile assignment shape holds 2 at offset 1");
  const support::Diagnostic& second = sink.diagnostics()[1];
  EXPECT_EQ(second.loc.line, 3u);
  EXPECT_EQ(second.message,
            "cannot import 'mhlo.sharding' of 'stablehlo.abs': \"{devices=[3]<=[3]}\" has no "
            "common mesh with the shardings before it");
  std::string printed = io::mlir::printModule(*module);
  EXPECT_TRUE(contains(printed, "mhlo.sharding = \"{devices=[2]0,1,2}\"")) << printed;
  EXPECT_TRUE(contains(printed, "mhlo.sharding = \"{devices=[3]<=[3]}\"")) << printed;
  EXPECT_TRUE(contains(printed, "sdy.sharding = #sdy.sharding<@mesh, [{\"axis_0\"}]>")) << printed;
}

TEST(GspmdProgramTest, OnlyReplicatedShardingsAreLeftWithAWarning) {
  auto module = parse("func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = \"{replicated}\"})"
                      " -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n");
  ASSERT_TRUE(module);
  support::CollectingSink sink;
  EXPECT_TRUE(import_::importGspmdProgram(*module, sink));
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].severity, support::Severity::Warning);
  EXPECT_TRUE(import_::hasGspmdShardings(*module));
}

} // namespace
