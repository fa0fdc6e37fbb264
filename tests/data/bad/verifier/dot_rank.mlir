// dot (TypeInference.cpp inferDotOp): dot takes vectors and matrices whose inner sizes agree
func.func @main(%a: tensor<4x8xf32>, %b: tensor<6x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{expected both lhs/rhs ranks to be either 1 or 2}}
  %0 = "stablehlo.dot"(%a, %b) : (tensor<4x8xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
