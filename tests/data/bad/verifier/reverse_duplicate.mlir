// reverse_c2 (TypeInference.cpp verifyReverseOp): reversed dimensions are unique
func.func @main(%a: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{dimensions should be unique. Got: 0, 0}}
  %0 = stablehlo.reverse %a, dims = [0, 0] : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
