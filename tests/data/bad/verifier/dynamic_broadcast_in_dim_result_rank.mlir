// dynamic_broadcast_in_dim_c3 (TypeInference.cpp verifyDynamicBroadcastInDimOp): the result rank is at least the operand rank
func.func @main(%a: tensor<1x3xf32>) -> tensor<3xf32> {
  %s = stablehlo.constant dense<[3]> : tensor<1xi64>
  // expected-error@+1 {{result rank (1) is less than operand rank (2)}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 0, 0>} : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
