// dynamic_broadcast_in_dim_c7 (TypeInference.cpp verifyDynamicBroadcastInDimOp, verifyShapeOperandIsCompatibleWithResultType): a constant output_dimensions is the result shape
func.func @main(%a: tensor<3xf32>) -> tensor<4x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{output shape [2, 3] is incompatible with return type of operation 'tensor<4x3xf32>'}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
