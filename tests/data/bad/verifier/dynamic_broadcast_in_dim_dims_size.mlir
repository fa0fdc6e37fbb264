// dynamic_broadcast_in_dim_c2 (TypeInference.cpp verifyDynamicBroadcastInDimOp): one broadcast dimension per operand dimension
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{broadcast_dimensions size (2) does not match operand rank (1)}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
