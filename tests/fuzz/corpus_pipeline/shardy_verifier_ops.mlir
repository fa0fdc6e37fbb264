// Shardy: shardy/dialect/sdy/ir/verifiers.cc, ManualComputationOp::verifySymbolUses (with
// getCommonMesh from utils.cc) and FuncDataFlowEdgeOp::verifySymbolUses.
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// getCommonMesh: when every sharding is on the empty mesh, the empty mesh is the common mesh, so
// a manual axis is unknown rather than the meshes being different.
sdy.mesh @empty = <[]>
func.func @manual_axis_on_empty_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op unknown manual axis: "a"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@empty, [{}]>] out_shardings=[<@empty, [{}]>] manual_axes={"a"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// getCommonMesh: an empty mesh first is replaced by the next non-empty one.
sdy.mesh @empty = <[]>
sdy.mesh @mesh = <["a"=2]>
func.func @empty_then_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op unknown manual axis: "b"}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@empty, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"b"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// FuncDataFlowEdgeOp::verifySymbolUses: its operand has no other user.
func.func @two_users(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error @+1 {{'sdy.func_data_flow_edge' op expected operand of sdy.func_data_flow_edge to have a single user}}
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
