// reduce_c6 (TypeInference.cpp verifyReducerShape): init values are scalars like the body's result
func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  // expected-error@+1 {{The shape of reduction-region's result type at index 0 differs from the op's corresponding init-value type: 'tensor<f32>' vs 'tensor<4xf32>'}}
  %0 = stablehlo.reduce(%a init: %a) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
