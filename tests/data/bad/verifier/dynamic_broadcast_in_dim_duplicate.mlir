// dynamic_broadcast_in_dim_c4 (TypeInference.cpp verifyDynamicBroadcastInDimOp): broadcast dimensions are unique
func.func @main(%a: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{broadcast_dimensions should not have duplicates}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 1, 1>} : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
