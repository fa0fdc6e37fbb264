// `stablehlo.custom_call` in the interpreter: the identities of sharded programs run, anything
// else stops with the target's name at the call's location.
#include "core/exec/interpreter.h"
#include "core/io/mlir/mlir.h"
#include "tests/core/exec/exec_test_util.h"

#include <gtest/gtest.h>

namespace shardscope::exec {
namespace {

using testing::f32;
using testing::runOne;
using testing::values;

TEST(CustomCallTest, GspmdAnnotationsAndShapeSwitchesAreIdentitiesOnTheLocalBlock) {
  // On a device, SPMDFullToShardShape's operand is already the local block (XLA's partitioner
  // replaces the call by a copy of the partitioned operand), so operand and result types agree.
  Tensor out = runOne(R"(
    func.func @main(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {
      %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{manual}"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %2 = stablehlo.negate %1 : tensor<1x4xf32>
      %3 = stablehlo.custom_call @SPMDShardToFullShape(%2) {mhlo.sharding = "{devices=[2,1]0,1}"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
      return %3 : tensor<1x4xf32>
    })",
                      {f32({1, 4}, {1, 2, 3, 4})});
  EXPECT_EQ(values(out), (std::vector<double>{-1, -2, -3, -4}));
}

TEST(CustomCallTest, ShardyRoundTripMarkersAndPlacementAreIdentities) {
  Tensor out = runOne(R"(
    func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
      %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
      %1 = stablehlo.custom_call @annotate_device_placement(%0) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<2xf32>) -> tensor<2xf32>
      %2 = stablehlo.custom_call @MoveToHost(%1) : (tensor<2xf32>) -> tensor<2xf32>
      %3 = stablehlo.custom_call @MoveToDevice(%2) : (tensor<2xf32>) -> tensor<2xf32>
      stablehlo.custom_call @xla.sdy.ShardingGroup(%3) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding_group_id = "0 : i64"}} : (tensor<2xf32>) -> ()
      %4 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%3) : (tensor<2xf32>) -> tensor<2xf32>
      %5 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%4) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
      return %5 : tensor<2xf32>
    })",
                      {f32({2}, {5, 6})});
  EXPECT_EQ(values(out), (std::vector<double>{5, 6}));
}

std::string runError(const std::string& text, std::vector<Tensor> inputs) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  Interpreter interpreter(*module);
  EXPECT_FALSE(interpreter.run("main", std::move(inputs), sink).has_value());
  if (sink.diagnostics().empty())
    return "(no diagnostic)";
  const support::Diagnostic& d = sink.diagnostics().front();
  return std::to_string(d.loc.line) + ":" + std::to_string(d.loc.column) + " " + d.message;
}

TEST(CustomCallTest, AnyOtherTargetStopsTheRunNamingItsTargetAndLocation) {
  std::string error = runError(R"(func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4x4xf32>
  %1 = stablehlo.custom_call @lapack_spotrf_ffi(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
})",
                               {f32({4, 4}, std::vector<double>(16, 1.0))});
  EXPECT_EQ(error.rfind("3:3 cannot execute custom call @lapack_spotrf_ffi", 0), 0u) << error;
}

TEST(CustomCallTest, AGlobalOperandOfAShapeSwitchIsRefusedNotSliced) {
  // 2x4 -> 1x4 is the global-to-local switch seen before partitioning: which block a device
  // holds depends on the device, so a single-device run must not guess.
  std::string error = runError(R"(func.func @main(%arg0: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
})",
                               {f32({2, 4}, std::vector<double>(8, 1.0))});
  EXPECT_NE(error.find("2:3 "), std::string::npos) << error;
  EXPECT_NE(error.find("@SPMDFullToShardShape operand 0 is tensor<2x4xf32> but its result is "
                       "tensor<1x4xf32>"),
            std::string::npos)
      << error;
}

TEST(CustomCallTest, EvaluateOpRunsOneOpOutsideARun) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(R"(func.func @main(%arg0: tensor<3xf32>) -> tensor<f32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
})",
                                      /*fileId=*/1, sink);
  ASSERT_TRUE(module);
  const ir::Operation& reduce = *std::next(ir::func::body(*module->lookupFunction("main"))->ops().begin())->get();
  auto results = evaluateOp(*module, reduce, {f32({3}, {1, 2, 3}), f32({}, {10})}, sink);
  ASSERT_TRUE(results.has_value());
  EXPECT_EQ(values((*results)[0]), (std::vector<double>{16}));
  // Control flow is not evaluated alone.
  const ir::Operation& ret = *ir::func::body(*module->lookupFunction("main"))->ops().back();
  EXPECT_FALSE(evaluateOp(*module, ret, {f32({}, {1})}, sink).has_value());
}

} // namespace
} // namespace shardscope::exec
