// reduce_c4 (TypeInference.cpp verifyReduceOpInputsAndInferShape): reduced dimensions index the input
func.func @main(%a: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{Out-of-bounds dimension 2, expected to be in range [0, 2)}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
