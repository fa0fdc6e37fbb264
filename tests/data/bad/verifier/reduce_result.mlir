// reduce_c7 (TypeInference.cpp inferReduceOp): the result keeps the dimensions not reduced
func.func @main(%a: tensor<4x8xf32>, %z: tensor<f32>) -> tensor<8xf32> {
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
