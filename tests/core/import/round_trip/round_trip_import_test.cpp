// Tests of reading Shardy's round-trip form back: meshes, argument and result shardings (through
// `@xla.sdy.FuncResultSharding`), shardings of known custom calls, sharding rules, the detection
// of the form and errors for malformed strings. Expected text follows XLA's
// `sdy_round_trip_import_pipeline.mlir` test, or is derived by hand from XLA's rules.
#include "core/import/round_trip/import_shardy_attrs.h"
#include "core/import/round_trip/round_trip_import.h"
#include "tests/core/import/round_trip/round_trip_test_util.h"

using namespace shardscope;
using test::contains;

namespace {

constexpr std::string_view kMeshes =
    R"(module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\"a\"=8, \"b\"=8]>, maximal_mesh = #sdy.mesh<[], device_ids=[0]>}"}} {
)";

std::string program(std::string_view functions) {
  return std::string(kMeshes) + std::string(functions) + "}\n";
}

TEST(ImportShardyAttrsTest, MeshesArgumentsAndResultShardingsComeBack) {
  auto run = test::runPass(import_::importShardyAttrs, program(R"(
  func.func @f(%arg0: tensor<32xi32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\"b\"}p2]>"}, mhlo.sharding = "{replicated}"}) -> tensor<32xi32> {
    %0 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"a\"}p0]>]>"}} : (tensor<32xi32>) -> tensor<32xi32>
    return %0 : tensor<32xi32>
  }
)"));
  ASSERT_TRUE(run.ok) << (run.diagnostics.empty() ? "" : run.diagnostics[0].message);
  EXPECT_TRUE(contains(run.printed, "sdy.mesh @mesh = <[\"a\"=8, \"b\"=8]>\n")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "sdy.mesh @maximal_mesh = <[], device_ids=[0]>\n"))
      << run.printed;
  EXPECT_FALSE(contains(run.printed, "xla.sdy.meshes")) << run.printed;
  EXPECT_FALSE(contains(run.printed, "mhlo.sharding")) << run.printed;
  EXPECT_TRUE(contains(run.printed,
                       "%arg0: tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{\"b\"}p2]>}) "
                       "-> (tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}p0]>})"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "return %arg0 : tensor<32xi32>")) << run.printed;
}

TEST(ImportShardyAttrsTest, FuncResultShardingWithOtherUsersBecomesConstraint) {
  auto run = test::runPass(import_::importShardyAttrs, program(R"(
  func.func @f(%arg0: tensor<32xi32>) -> (tensor<32xi32>, tensor<32xi32>) {
    %0 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"b\"}p2]>]>"}} : (tensor<32xi32>) -> tensor<32xi32>
    %1 = stablehlo.add %0, %0 : tensor<32xi32>
    return %0, %1 : tensor<32xi32>, tensor<32xi32>
  }
)"));
  ASSERT_TRUE(run.ok);
  EXPECT_TRUE(contains(run.printed,
                       "%0 = sdy.sharding_constraint %arg0 <@mesh, [{\"b\"}p2]> : tensor<32xi32>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "-> (tensor<32xi32> {sdy.sharding = #sdy.sharding<@mesh, "
                                    "[{\"b\"}p2]>}, tensor<32xi32>)"))
      << run.printed;
}

TEST(ImportShardyAttrsTest, ShardingsOnUnknownOpsAreDroppedAndRulesImported) {
  auto run = test::runPass(import_::importShardyAttrs, program(R"(
  func.func @f(%arg0: tensor<32xi32>) -> tensor<32xi32> {
    %0 = stablehlo.add %arg0, %arg0 {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"a\"}p1]>]>"}} : tensor<32xi32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"a\"}p2]>]>"}} : (tensor<32xi32>) -> tensor<32xi32>
    %2 = stablehlo.custom_call @foo(%1) {mhlo.frontend_attributes = {xla.sdy.sharding_rule = "#sdy.op_sharding_rule<([i])->([i]) {i=32}, custom>"}} : (tensor<32xi32>) -> tensor<32xi32>
    return %2 : tensor<32xi32>
  }
)"));
  ASSERT_TRUE(run.ok) << (run.diagnostics.empty() ? "" : run.diagnostics[0].message);
  EXPECT_TRUE(contains(run.printed, "stablehlo.add %arg0, %arg0 : tensor<32xi32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed,
                       "@Sharding(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                       "[{\"a\"}p2]>]>}"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) "
                                    "{i=32}, custom>"))
      << run.printed;
  EXPECT_FALSE(contains(run.printed, "frontend_attributes")) << run.printed;
}

TEST(ImportShardyAttrsTest, MalformedShardingStringIsALocatedError) {
  auto run = test::runPass(import_::importShardyAttrs, program(R"(
  func.func @f(%arg0: tensor<32xi32>) -> tensor<32xi32> {
    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\"a\"}"}} : (tensor<32xi32>) -> tensor<32xi32>
    return %0 : tensor<32xi32>
  }
)"));
  EXPECT_FALSE(run.ok);
  ASSERT_FALSE(run.diagnostics.empty());
  EXPECT_EQ(run.diagnostics[0].severity, support::Severity::Error);
  EXPECT_EQ(run.diagnostics[0].loc.line, 4u);
  EXPECT_TRUE(contains(run.diagnostics[0].message, "malformed frontend attribute 'xla.sdy.sharding'"))
      << run.diagnostics[0].message;
}

TEST(RoundTripImportTest, DetectsTheRoundTripForm) {
  support::CollectingSink sink;
  auto plain = io::mlir::parseModule(
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  return %arg0 : tensor<8xf32>\n}\n",
      1, sink);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(import_::hasSdyRoundTripAttrs(*plain));
  auto withMeshes = io::mlir::parseModule(program(""), 1, sink);
  ASSERT_TRUE(withMeshes);
  EXPECT_TRUE(import_::hasSdyRoundTripAttrs(*withMeshes));
  auto withCall = io::mlir::parseModule(
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%arg0) : (tensor<8xf32>) -> "
      "tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n}\n",
      1, sink);
  ASSERT_TRUE(withCall);
  EXPECT_TRUE(import_::hasSdyRoundTripAttrs(*withCall));
}

TEST(RoundTripImportTest, ProgramImportRunsEveryStep) {
  auto run = test::runPass(import_::importSdyRoundTripProgram, program(R"(
  func.func @main(%arg0: tensor<32x96xf32>, %arg1: tensor<32x96xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{}, {}]>"}}) -> tensor<32x96xf32> {
    %0 = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<32x96xf32>, tensor<i32>
      cond {
      %2 = stablehlo.compare LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = stablehlo.add %iterArg, %arg1 : tensor<32x96xf32>
      stablehlo.return %2, %iterArg_0 : tensor<32x96xf32>, tensor<i32>
    }
    return %1#0 : tensor<32x96xf32>
  }
)"));
  ASSERT_TRUE(run.ok) << (run.diagnostics.empty() ? "" : run.diagnostics[0].message);
  EXPECT_TRUE(contains(run.printed, "sdy.constant dense<0> : tensor<i32>")) << run.printed;
  EXPECT_TRUE(contains(run.printed, "sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]>"))
      << run.printed;
  EXPECT_TRUE(contains(run.printed, "{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}"))
      << run.printed;
}

} // namespace
