// rng_c1 (TypeInference.cpp inferRngOp): a constant shape operand is the result's shape
func.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2x3x4xf32> {
  %shape = stablehlo.constant dense<[2, 3, 5]> : tensor<3xi64>
  // expected-error@+2 {{failed to infer returned types}}
  // expected-error@+1 {{'stablehlo.rng' op inferred type(s) 'tensor<2x3x5xf32>' are incompatible with return type(s) of operation 'tensor<2x3x4xf32>'}}
  %0 = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
