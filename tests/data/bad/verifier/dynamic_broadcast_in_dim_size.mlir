// dynamic_broadcast_in_dim_c5 (TypeInference.cpp verifyDynamicBroadcastInDimOp): an operand dimension is 1 or compatible with the result dimension it maps to
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{size of operand dimension 0 (3) is not compatible with size of result dimension 0 (2)}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
