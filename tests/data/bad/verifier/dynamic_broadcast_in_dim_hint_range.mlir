// dynamic_broadcast_in_dim_c9 (TypeInference.cpp verifyDynamicBroadcastInDimOp): expansion hints name operand dimensions
func.func @main(%a: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{hint for expanding dimension 2 does not refer to a valid operand dimension}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 0, 1>, known_expanding_dimensions = array<i64: 2>} : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
