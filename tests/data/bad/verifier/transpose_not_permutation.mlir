// transpose_c2 (TypeInference.cpp inferTransposeOp): the permutation is a permutation of the operand's dimensions
func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{attribute permutation must be a permutation of [0, 1] but got 1, 1}}
  %0 = stablehlo.transpose %a, dims = [1, 1] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
