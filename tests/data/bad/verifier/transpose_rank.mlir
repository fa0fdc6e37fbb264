// transpose_c2 (TypeInference.cpp inferTransposeOp): one permutation entry per operand dimension
func.func @main(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{TransposeOp operand rank 2 does not match permutation size 3}}
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0, 2>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
