// concatenate_c6 (TypeInference.cpp inferConcatenateOp): the result's concatenated dimension is the sum
func.func @main(%a: tensor<4xf32>) -> tensor<9xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.concatenate' op inferred type(s) 'tensor<8xf32>' are incompatible with return type(s) of operation 'tensor<9xf32>'}}
  %0 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<9xf32>
  return %0 : tensor<9xf32>
}
