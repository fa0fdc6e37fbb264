// concatenate_c4 (TypeInference.cpp inferConcatenateOp): the dimension indexes the operands
func.func @main(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{dimension 1 is out-of-bounds for input rank 1}}
  %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
