// Shardy: shardy/dialect/sdy/transforms/export/verify_unreduced_axes.cc (verifyDefaultOp,
// verifyDot, verifyReduce, verifyCall, verifyTerminator), with verifyUnreducedAxesTransition.
// RUN: sdy_opt %s -sdy-verify-unreduced-axes -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["p"=2, "q"=2]>

// An element-wise op can't drop an unreduced axis.
func.func @negate_drops(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"q"}>}) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.negate' op dropped unreduced axis 'q' without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"p"}]>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["p"=2, "q"=2]>

// A value made by a reshard is blessed: its consumers may drop the axes.
func.func @through_reshard(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"q"}>}) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<4xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["p"=2, "q"=2]>

// A dot may introduce summed axes, never another operator.
func.func @dot_introduces_min(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op cannot introduce 'min' unreduced axes. Expected 'sum'.}}
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced=min{"p"}>]>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

sdy.mesh @mesh = <["p"=2, "q"=2]>

// The unreduced axes of a call's operand and of the callee's argument must be the same; each
// function reports its own first error.
func.func private @callee(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"p", "q"}>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  // expected-error @+1 {{'func.return' op has unreduced axes mismatch for 'p, q' at return value 0 without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.}}
  return %arg0 : tensor<4xf32>
}
func.func @caller(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"q"}>}) -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  // expected-error @+1 {{'func.call' op has unreduced axes mismatch for 'p' at call argument 0.}}
  %0 = func.call @callee(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["p"=2, "q"=2]>

// A reduce may introduce unreduced axes with its body's operator (and drop none).
func.func @reduce_with_max_body(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"p"}]>}) -> tensor<4xf32> {
  %init = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"p"}>]>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["p"=2, "q"=2]>

func.func @reduce_with_add_body(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"p"}]>}) -> tensor<4xf32> {
  %init = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error @+1 {{'stablehlo.reduce' op cannot introduce 'max' unreduced axes. Expected 'sum'.}}
  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.add across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"p"}>]>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
