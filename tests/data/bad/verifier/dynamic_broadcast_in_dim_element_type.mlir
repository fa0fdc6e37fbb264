// dynamic_broadcast_in_dim_c1 (TypeInference.cpp verifyDynamicBroadcastInDimOp): operand and result have the same element type
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xi32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{expects operand and result to have compatible element type. Got: 'tensor<3xf32>' and 'tensor<2x3xi32>'}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
