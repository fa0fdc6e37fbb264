// reverse_c3 (TypeInference.cpp verifyReverseOp): reversed dimensions index the operand
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{all dimensions should be between [0, 1). Got dimension: 1.}}
  %0 = stablehlo.reverse %a, dims = [1] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
