// dot_general_c12 (TypeInference.cpp verifyDotGeneralOp): the result shape is batch, lhs free, rhs free dims
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{inferred shape '[4, 2]' is incompatible with return type of operation 'tensor<2x4xf32>'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
