// broadcast_in_dim_c5 (TypeInference.cpp verifyBroadcastInDimOp): an operand dimension is 1 or the size of the result dimension it maps to
func.func @main(%a: tensor<4x2xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{size of operand dimension 1 (2) is not equal to 1 or size of result dimension 1 (8)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<4x2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
