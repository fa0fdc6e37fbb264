// Tests of the steps XLA's import pipelines share: constants to `sdy.constant`, the sdy custom
// calls to Shardy ops (and XLA's messages for malformed ones), and open shardings for while-loop
// free variables. Expected text follows XLA's tests (`sdy_round_trip_import_pipeline.mlir`,
// `sdy_round_trip_sharding_group_import_failure.mlir`) or Shardy's printed forms.
#include "core/import/common/common_import_steps.h"
#include "core/import/common/import_constants.h"
#include "core/import/common/import_sdy_custom_calls.h"
#include "core/import/common/open_while_free_vars_sharding.h"
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

using PassFn = bool (*)(ir::Module&, support::DiagnosticSink&);

constexpr std::string_view kMesh = "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n";

struct Result {
  bool ok = false;
  std::string printed;
  std::vector<support::Diagnostic> diagnostics;
};

Result run(PassFn pass, std::string_view program) {
  std::string source = std::string(kMesh) + std::string(program);
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(source, 1, sink);
  EXPECT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  if (!module)
    return {};
  Result result;
  result.ok = pass(*module, sink);
  result.printed = io::mlir::printModule(*module);
  result.diagnostics = sink.diagnostics();
  return result;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(ImportConstantsTest, TurnsStablehloConstantsIntoSdyConstantsEverywhere) {
  Result r = run(import_::importConstants, R"(
func.func @f(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.constant {foo = 1 : i64} dense<1> : tensor<i32>
  %1 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
    cond {
    %2 = stablehlo.constant dense<32> : tensor<i32>
    %3 = stablehlo.compare LT, %iterArg, %2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  } do {
    %2 = stablehlo.add %iterArg, %0 : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }
  return %1 : tensor<i32>
}
)");
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(contains(r.printed, "stablehlo.constant")) << r.printed;
  EXPECT_TRUE(contains(r.printed, "sdy.constant {foo = 1 : i64} dense<1> : tensor<i32>"))
      << r.printed;
  EXPECT_TRUE(contains(r.printed, "sdy.constant dense<32> : tensor<i32>")) << r.printed;
}

TEST(ImportSdyCustomCallsTest, ShardingCallBecomesConstraintWithUnspecifiedDimsOpen) {
  Result r = run(import_::importSdyCustomCalls, R"(
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[1]", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(contains(r.printed,
                       "sdy.sharding_constraint %arg0 <@mesh, [{\"a\"}, {\"b\", ?}]> : "
                       "tensor<8x8xf32>"))
      << r.printed;
  EXPECT_FALSE(contains(r.printed, "custom_call")) << r.printed;
}

TEST(ImportSdyCustomCallsTest, ShardingGroupAndBarrierBecomeShardyOps) {
  Result r = run(import_::importSdyCustomCalls, R"(
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "12 : i64"}} : (tensor<8x8xf32>) -> ()
  %0 = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.allowed_direction = "2 : i32"}} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  ASSERT_TRUE(r.ok) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
  EXPECT_TRUE(contains(r.printed, "sdy.sharding_group %arg0 group_id=12 : tensor<8x8xf32>"))
      << r.printed;
  EXPECT_TRUE(contains(r.printed,
                       "sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : "
                       "tensor<8x8xf32>"))
      << r.printed;
}

TEST(ImportSdyCustomCallsTest, ShardingGroupWithoutIdIsXlasError) {
  Result r = run(import_::importSdyCustomCalls, R"(
func.func @f(%arg0: tensor<16x16xf32>) -> tensor<16x16xf32> {
  stablehlo.custom_call @xla.sdy.ShardingGroup(%arg0) {has_side_effect = true, mhlo.frontend_attributes = {}} : (tensor<16x16xf32>) -> ()
  return %arg0 : tensor<16x16xf32>
}
)");
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].message, "expected CustomCallOp with a sharding group id.");
  EXPECT_EQ(r.diagnostics[0].loc.line, 4u);
  EXPECT_EQ(r.diagnostics[1].message, "failed to legalize operation 'stablehlo.custom_call' that "
                                      "was explicitly marked illegal");
}

TEST(ImportSdyCustomCallsTest, ShardingCallWithoutShardingIsAnError) {
  Result r = run(import_::importSdyCustomCalls, R"(
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @Sharding(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].message, "expected CustomCallOp with a sharding attribute");
}

TEST(OpenWhileFreeVarsShardingTest, ShardedFreeVariableGetsOpenConstraintInsideTheLoopOnly) {
  Result r = run(import_::openWhileFreeVarsSharding, R"(
func.func @f(%arg0: tensor<32x96xf32>, %arg1: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<32x96xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<32x96xf32>, tensor<32x96xf32>) {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<32x96xf32>
    cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %arg1 : tensor<32x96xf32>
    %2 = stablehlo.add %1, %arg2 : tensor<32x96xf32>
    stablehlo.return %2 : tensor<32x96xf32>
  }
  return %0, %arg1 : tensor<32x96xf32>, tensor<32x96xf32>
}
)");
  ASSERT_TRUE(r.ok);
  // %arg1 is closed, so it gets a constraint; %arg2 is already fully open and does not.
  EXPECT_TRUE(contains(r.printed,
                       "%0 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : "
                       "tensor<32x96xf32>\n"))
      << r.printed;
  EXPECT_TRUE(contains(r.printed, "stablehlo.add %iterArg, %0 : tensor<32x96xf32>")) << r.printed;
  EXPECT_TRUE(contains(r.printed, ", %arg2 : tensor<32x96xf32>")) << r.printed;
  EXPECT_TRUE(contains(r.printed, "return %1, %arg1 : ")) << r.printed;
}

TEST(CommonImportStepsTest, PreImportErasesDeadPrivateFunctionsAndImportsConstants) {
  Result r = run(
      [](ir::Module& m, support::DiagnosticSink& s) {
        return import_::runCommonPreImport(m, import_::CommonPreImportOptions{}, s);
      },
      R"(
func.func private @dead(%arg0: tensor<i32>) -> tensor<i32> {
  return %arg0 : tensor<i32>
}
func.func @main() -> tensor<i32> {
  %0 = stablehlo.constant dense<3> : tensor<i32>
  return %0 : tensor<i32>
}
)");
  ASSERT_TRUE(r.ok);
  EXPECT_FALSE(contains(r.printed, "@dead")) << r.printed;
  EXPECT_TRUE(contains(r.printed, "sdy.constant dense<3> : tensor<i32>")) << r.printed;
}

} // namespace
