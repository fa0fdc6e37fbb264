// dot_general_c10 (TypeInference.cpp checkDotGeneralConstraints): contracted dimensions have one size
func.func @main(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{contracting dimension sizes must match for lhs/rhs}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
