// dynamic_broadcast_in_dim_c5 (TypeInference.cpp verifyDynamicBroadcastInDimOp): broadcast dimensions are result dimensions
func.func @main(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{broadcast_dimensions contains invalid value 2 for result with rank 2}}
  %0 = "stablehlo.dynamic_broadcast_in_dim"(%a, %s) {broadcast_dimensions = array<i64: 2>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
