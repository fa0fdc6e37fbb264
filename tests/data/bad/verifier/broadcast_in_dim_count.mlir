// broadcast_in_dim_c2 (TypeInference.cpp verifyBroadcastInDimOp): one broadcast dimension per operand dimension
func.func @main(%a: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{broadcast_dimensions size (1) does not match operand rank (2)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
