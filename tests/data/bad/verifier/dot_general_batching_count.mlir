// dot_general_c1 (TypeInference.cpp checkDotGeneralConstraints): lhs and rhs have as many batching dimensions
func.func @main(%a: tensor<3x4x8xf32>, %b: tensor<3x8x2xf32>) -> tensor<3x4x2xf32> {
  // expected-error@+1 {{lhs and rhs should have the same number of batching dimensions}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<3x4x8xf32>, tensor<3x8x2xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}
