// Shardy: shardy/dialect/sdy/ir/verifiers.cc, PropagationEdgesAttr::verify and
// verifyPropagationEdgesShardingAttr.
// RUN: sdy_opt %s -split-input-file -verify-diagnostics

// PropagationEdgesAttr::verify: a target listed twice for one axis.
sdy.mesh @mesh = <["q"=2, "r"=2]>
func.func @repeated_target(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{propagation edges have duplicate targets for step index: 7 and axis: r}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-7 = [{"q" = operand-0 -> [result-0]}, {"r" = operand-1 -> [result-0, operand-0, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"q"}, {}]>]>} : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// verifyPropagationEdgesShardingAttr: none of the referenced values has a sharding.
sdy.mesh @mesh = <["q"=2]>
func.func @no_sharding(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.add' op expected propagation edges attr to reference a sharding.}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"q" = operand-0 -> [result-0]}]}]>} : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// verifyPropagationEdgesShardingAttr: the referenced shardings live on different meshes.
sdy.mesh @mesh = <["q"=2]>
sdy.mesh @other = <["q"=4]>
func.func @two_meshes(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@other, [{"q"}, {}]>}) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.add' op expected a common mesh for propagation edges attr.}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"q" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"q"}, {}]>]>} : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// verifyPropagationEdgesShardingAttr: an axis the common mesh doesn't have, checked before the
// out-of-range operand index.
sdy.mesh @mesh = <["q"=2]>
func.func @unknown_axis(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"q"}, {}]>}) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.add' op expected axis ref to be in one of the meshes}}
  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"w":(1)2 = operand-0 -> [operand-5]}]}]>} : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// verifyEdgeValueRef: the operands of an sdy.data_flow_edge are checked like any op's.
sdy.mesh @mesh = <["q"=2]>
func.func @data_flow_edge_operand(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected a value ref to have an operand index in range [0, 1), got: 1}}
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"q"}]> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"q" = result-0 -> [operand-1]}]}]>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
