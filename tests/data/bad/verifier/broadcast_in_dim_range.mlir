// broadcast_in_dim_c3 (TypeInference.cpp verifyBroadcastInDimOp): broadcast dimensions index the result
func.func @main(%a: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{broadcast_dimensions contains invalid value 2 for result with rank 2}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
