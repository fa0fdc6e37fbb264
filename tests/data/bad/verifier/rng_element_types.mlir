// rng (ODS AllElementTypesMatch<["a", "b", "result"]>): a, b and the result share an element type
func.func @main(%a: tensor<f32>, %b: tensor<f64>) -> tensor<2x3xf32> {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{'stablehlo.rng' op failed to verify that all of {a, b, result} have same element type}}
  %0 = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f64>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
