// dot_general_c6 (TypeInference.cpp checkDotGeneralConstraints): contracting dimensions index lhs
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{lhs_contracting_dimensions value: 2 is out of range: [0, 2)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
