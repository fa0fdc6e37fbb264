// broadcast_in_dim_c4 (TypeInference.cpp verifyBroadcastInDimOp): broadcast dimensions are unique
func.func @main(%a: tensor<1x1xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{broadcast_dimensions should not have duplicates}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [1, 1] : (tensor<1x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
