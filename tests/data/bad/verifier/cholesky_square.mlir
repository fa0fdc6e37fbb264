// cholesky_c3 (TypeInference.cpp inferCholeskyOp): the two minor dimensions are equal
func.func @main(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{minor dimensions of 'a' must have equal size, got shape 3, 4.}}
  %0 = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
